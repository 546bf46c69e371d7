#!/bin/sh
# Adds RecordLens to the desktop's application menu for the current user, pointing at this folder wherever it
# was unpacked (a .desktop file needs absolute paths). Run it again after moving the folder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
mkdir -p "$data/applications" "$data/icons/hicolor/256x256/apps"
cp "$here/recordlens.png" "$data/icons/hicolor/256x256/apps/recordlens.png"
# The folder's path as sed's replacement text: a path may hold the characters sed gives a meaning there
escaped=$(printf '%s' "$here" | sed -e 's/[\\&|]/\\&/g')
sed -e "s|^Exec=.*|Exec=\"$escaped/recordlens-annotator\" %f|" -e '/^# /d' \
	"$here/recordlens.desktop" > "$data/applications/recordlens.desktop"
echo "added $data/applications/recordlens.desktop (runs $here/recordlens-annotator)"
