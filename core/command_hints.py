"""The commands a message hands the user to run (`recordlens score --project P --run 1`), written so that the line
runs as printed in a POSIX shell whatever the names in it: each user value quoted for the shell, and one that begins
with a dash (a project folder named `-proj`) written so that the command does not read it as an option.

A name whose bytes are not UTF-8 (a folder named in Latin-1, `caf\\xe9`, which Python keeps as surrogates) is
written as the output of `printf`, which every POSIX shell has: `"$(printf %b 'caf\\0351')"`, each such byte in octal
(`'caf\\xe9'`, as a message would otherwise show it, is those characters to a shell, not the byte; bash's own
`$'caf\\xe9'` is not read so by a POSIX `sh` such as dash). It is also how a message names a path to show it (the
summaries of `synth`, `site capture` and `agent tasks`): one name reads one way, in a hint and around it.

A hint names the program as the user can type it (`command_name`): `recordlens` where an install put it on PATH,
and its whole path in the packaged folder, which puts nothing on PATH."""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Iterable
from pathlib import Path

__all__ = ["PROGRAMS", "command_name", "hint_option", "hint_path", "hint_words"]

# RecordLens's programs, as pip's console scripts and the packaged folder name them
PROGRAMS = ("recordlens", "recordlens-annotator")

# What surrogateescape makes of the bytes of a file name it cannot decode (`path_text` keeps them the same way)
_FILE_NAME_BYTES = re.compile("[\udc80-\udcff]")


def command_name(program: str = "recordlens") -> str:
    """`program` (one of PROGRAMS) as the user can type it in a shell: its bare name, which pip's console scripts
    put on PATH; in the packaged folder (PyInstaller's `sys.frozen`), which puts nothing on PATH, its whole path
    beside the program running (both programs are in the one folder), quoted for the shell."""
    if not getattr(sys, "frozen", False):
        return program
    exe = ".exe" if sys.platform == "win32" else ""
    return hint_path(Path(sys.executable).absolute().parent / f"{program}{exe}")


def hint_option(name: str, value: object) -> str:
    """An option and its value as a hint writes them: `--project P`, quoted for the shell (`--project 'my p'`), and
    joined to the option by `=` when the value begins with a dash (`--project=-proj`), which the command would
    otherwise take for an option of its own ("expected one argument")."""
    text = str(value)
    if text.startswith("-"):
        return shell_word(f"{name}={text}")
    return f"{name} {shell_word(text)}"


def hint_path(value: object) -> str:
    """A path given as a positional argument, as a hint writes it: quoted for the shell, and a relative one that
    begins with a dash written `./-x` (the same file), which the command would otherwise take for an option."""
    text = str(value)
    return shell_word(f"./{text}" if text.startswith("-") else text)


def hint_words(words: Iterable[object]) -> str:
    """A whole command line, each word quoted for the shell as `shell_word` quotes it (`shlex.join`, but for the
    bytes of a name that are not UTF-8); a first word that names one of RecordLens's programs is written as the
    user can type it (`command_name`)."""
    said = [shell_word(str(word)) for word in words]
    if said and said[0] in PROGRAMS:
        said[0] = command_name(said[0])
    return " ".join(said)


def shell_word(text: str) -> str:
    """`text` as one word a POSIX shell reads back as it is: quoted as `shlex.quote` quotes it (`'my p'`), or, when
    it holds bytes of a file name that are not UTF-8, as the output of `printf %b` with each such byte in octal
    (`"$(printf %b 'caf\\0351')"`: the format `%b`, so that a word beginning with a dash is no option of
    printf's). A command's output loses its last line feeds: a name that ends in one, and holds such a byte, is
    not read back whole."""
    if _FILE_NAME_BYTES.search(text) is None:
        return shlex.quote(text)
    return "\"$(printf %b '" + "".join(map(_in_printf_b, text)) + "')\""


def _in_printf_b(char: str) -> str:
    """One character of printf's `%b` argument in single quotes: a byte kept as a surrogate, or a control
    character, as `\\0ooo` (always three digits, so that a digit after it is not read into it); the backslash,
    which `%b` reads, doubled; the quote closed, escaped and opened again; the rest as it is (a UTF-8 character's
    bytes are printed as they are)."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\0{code - 0xDC00:03o}"
    if code < 0x20 or code == 0x7F:
        return f"\\0{code:03o}"
    return {"\\": "\\\\", "'": "'\\''"}.get(char, char)
