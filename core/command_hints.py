"""The commands a message hands the user to run (`recordlens score --project P --run 1`), written so that the line
runs as printed in a POSIX shell whatever the names in it: each user value quoted for the shell, and one that begins
with a dash (a project folder named `-proj`) written so that the command does not read it as an option.

A name whose bytes are not UTF-8 (a folder named in Latin-1, `caf\\xe9`, which Python keeps as surrogates) is
quoted as bash reads such bytes back, `$'caf\\xe9'` (ANSI-C quoting): `'caf\\xe9'`, as a message would otherwise
show it, is those four characters to a shell, not the byte. It is also how a message names a path to show it (the
summaries of `synth`, `site capture` and `agent tasks`): one name reads one way, in a hint and around it."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable

__all__ = ["hint_option", "hint_path", "hint_words"]

# What surrogateescape makes of the bytes of a file name it cannot decode (`path_text` keeps them the same way)
_FILE_NAME_BYTES = re.compile("[\udc80-\udcff]")


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
    bytes of a name that are not UTF-8)."""
    return " ".join(shell_word(str(word)) for word in words)


def shell_word(text: str) -> str:
    """`text` as one word a POSIX shell reads back as it is: quoted as `shlex.quote` quotes it (`'my p'`), or, when
    it holds bytes of a file name that are not UTF-8, in bash's ANSI-C quotes with each such byte as `\\xe9`."""
    if _FILE_NAME_BYTES.search(text) is None:
        return shlex.quote(text)
    return "$'" + "".join(map(_ansi_c, text)) + "'"


def _ansi_c(char: str) -> str:
    """One character inside `$'...'`: a byte kept as a surrogate, or a control character, as `\\xHH` (always two
    digits, so that a letter after it is not read into it); the quote and the backslash escaped; the rest as it is
    (a UTF-8 character's bytes are read back as they are)."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if char in ("'", "\\"):
        return "\\" + char
    return char
