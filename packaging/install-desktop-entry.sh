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
# GLib (GNOME, Xfce, `gio launch`) looks the program up before it reads %% as %, and so refuses an entry whose
# program's path holds a % however it is written; it also drops an Exec that is not valid UTF-8. Either way the
# entry shows in the menu and starts nothing, so such a program is reached through a link whose path is plain.
launchable() {
	case $1 in *%*) return 1 ;; esac
	# iconv is glibc's (always there on a glibc system); without it the path cannot be checked, so it is taken
	if ! command -v iconv >/dev/null 2>&1; then return 0; fi
	printf '%s' "$1" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
}
program=$here/recordlens-annotator
link=$data/recordlens/recordlens-annotator
if ! launchable "$program" && ! launchable "$link"; then
	echo "install-desktop-entry.sh: error: the folder's path ($here) holds a % or is not valid UTF-8, and so" \
		"does the path of the link that would stand in for it ($link); the desktop's launcher (GLib) would" \
		"start neither. Set XDG_DATA_HOME to a folder whose path holds no % and is valid UTF-8, or move this" \
		"folder to such a path, and run this again" >&2
	exit 1
fi
mkdir -p "$data/applications" "$data/icons/hicolor/256x256/apps"
cp "$here/recordlens.png" "$data/icons/hicolor/256x256/apps/recordlens.png"
if launchable "$program"; then
	if [ -L "$link" ]; then rm -f "$link"; fi  # an earlier folder's
else
	mkdir -p "$data/recordlens"
	ln -sfn "$program" "$link"
	program=$link
fi
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
