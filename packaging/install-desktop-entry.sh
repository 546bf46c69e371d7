#!/bin/sh
# Adds RecordLens to the desktop's application menu for the current user, pointing at this folder wherever it
# was unpacked (a .desktop file needs absolute paths). Run it again after moving the folder.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
case $here in
*"
"*)
	echo "install-desktop-entry.sh: error: the folder's path ($here) holds a line break, which a desktop entry" \
		"cannot hold; move the folder and run this again" >&2
	exit 1 ;;
esac
data=${XDG_DATA_HOME:-$HOME/.local/share}
mkdir -p "$data/applications" "$data/icons/hicolor/256x256/apps"
cp "$here/recordlens.png" "$data/icons/hicolor/256x256/apps/recordlens.png"
# GLib (GNOME, Xfce, `gio launch`) looks the program up before it reads %% as %, and so refuses an entry whose
# program's path holds a % however it is written: the program is then reached through a link whose path holds none.
program=$here/recordlens-annotator
link=$data/recordlens/recordlens-annotator
case $program in
*%*)
	mkdir -p "$data/recordlens"
	ln -sfn "$program" "$link"
	program=$link ;;
*)
	if [ -L "$link" ]; then rm -f "$link"; fi ;;  # an earlier folder's
esac
# The program's path as the quoted argument of Exec, by the Desktop Entry Specification ("The Exec key"): inside
# the quotes \ " ` $ take a backslash, a literal % is written %%, and then the value's own escapes double every
# backslash (a $ becomes \\$, a \ four). A path holding any of them otherwise starts nothing, silently.
quoted=$(printf '%s' "$program" | sed -e 's/[\\"`$]/\\&/g' -e 's/%/%%/g' -e 's/\\/\\\\/g')
# ... and that as sed's replacement text: it gives \ & and the | delimiter a meaning there
escaped=$(printf '%s' "$quoted" | sed -e 's/[\\&|]/\\&/g')
sed -e "s|^Exec=.*|Exec=\"$escaped\" %f|" -e '/^# /d' \
	"$here/recordlens.desktop" > "$data/applications/recordlens.desktop"
through=""
if [ "$program" = "$link" ]; then through=" through the link $link"; fi
echo "added $data/applications/recordlens.desktop (runs $here/recordlens-annotator$through)"
