#!/bin/sh
# Adds RecordLens to the desktop's application menu for the current user, pointing at this folder wherever it
# was unpacked (a .desktop file needs absolute paths). Run it again after moving the folder.
# With --remove, takes the entry, its icon and its link out again, and says what the app keeps elsewhere (its
# settings, data and cache, the user's projects) and how to remove that too: nothing of the user's is deleted.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
data=${XDG_DATA_HOME:-$HOME/.local/share}
entry=$data/applications/recordlens.desktop
icon=$data/icons/hicolor/256x256/apps/recordlens.png
link=$data/recordlens/recordlens-annotator

# $1 as one word a POSIX shell reads back as it is (in single quotes, each ' written '\''), for the commands said
shell_word() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# A folder the app writes outside this one, if it is there, and the command that removes it
kept() {
	if [ -e "$2" ]; then echo "  $1: rm -r $(shell_word "$2")"; fi
}

remove() {
	removed=0
	for file in "$entry" "$icon"; do
		if [ -f "$file" ]; then rm -f "$file"; echo "removed $file"; removed=1; fi
	done
	if [ -L "$link" ]; then
		rm -f "$link"
		echo "removed $link"
		rmdir "$data/recordlens" 2>/dev/null || true  # only when the link was all it held: it is the app's data too
	fi
	if [ "$removed" = 0 ]; then echo "no desktop entry to remove ($entry is not there)"; fi
	# What the app wrote elsewhere is kept: a user's labels live in projects, and the settings and data may serve
	# another copy of RecordLens (pip's, or another folder's)
	echo "kept (remove what you no longer want yourself):"
	kept "settings" "${XDG_CONFIG_HOME:-$HOME/.config}/recordlens"
	kept "data (the demo project, the demo site's copy)" "$data/recordlens"
	kept "cache (the web view's)" "${XDG_CACHE_HOME:-$HOME/.cache}/recordlens-annotator"
	echo "  your projects, wherever you made them (each a folder holding project.db): rm -r PROJECT"
	echo "  this folder, the programs: rm -r $(shell_word "$here")"
}

case ${1-} in
--remove) remove; exit 0 ;;
"") ;;
*)
	echo "usage: install-desktop-entry.sh [--remove]" >&2
	exit 2 ;;
esac
case $here in
*"
"*)
	echo "install-desktop-entry.sh: error: the folder's path ($here) holds a line break, which a desktop entry" \
		"cannot hold; move the folder and run this again" >&2
	exit 1 ;;
esac
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
if ! launchable "$program" && ! launchable "$link"; then
	echo "install-desktop-entry.sh: error: the folder's path ($here) holds a % or is not valid UTF-8, and so" \
		"does the path of the link that would stand in for it ($link); the desktop's launcher (GLib) would" \
		"start neither. Set XDG_DATA_HOME to a folder whose path holds no % and is valid UTF-8, or move this" \
		"folder to such a path, and run this again" >&2
	exit 1
fi
mkdir -p "$data/applications" "$data/icons/hicolor/256x256/apps"
cp "$here/recordlens.png" "$icon"
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
	"$here/recordlens.desktop" > "$entry"
through=""
if [ "$program" = "$link" ]; then through=" through the link $link"; fi
echo "added $entry (runs $here/recordlens-annotator$through); $(shell_word "$here/install-desktop-entry.sh") --remove takes it out"
