"""A hint names a folder whose name is not UTF-8 (Latin-1 `caf\\xe9`, kept by Python as a surrogate) as every POSIX
shell reads those bytes back, the output of `printf %b` with each such byte in octal (`"$(printf %b 'caf\\0351')"`),
where `'caf\\xe9'` would be four characters to a shell (and bash's `$'caf\\xe9'` is not read so by dash); a name
that is UTF-8 keeps the quoting it had (`'my dir'`). Every hint is built in `command_hints`: options, positional
paths and whole command lines alike, each read back here by `sh` (dash) and by bash."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_option, hint_path, hint_words
from recordlens.core.path_text import shown_bytes
from tests.shell_words import SHELLS, read_back

LATIN = os.fsdecode(b"caf\xe9")  # 'caf\udce9'
# a digit after a byte, a quote, backslashes (`\c` would end printf's output), a per cent sign, a space
ODD = os.fsdecode(b"caf\xe97a'b\\c\xff d%s\\c")


def shell_reads(words: str, shell: str) -> list[bytes]:
    """The bytes `shell` makes of each word of a command line as a message prints it (`shown_bytes`, as every
    message is written: what the user copies)."""
    return read_back(shown_bytes(words), shell)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("name", [LATIN, ODD, f"{LATIN}/naïve", "-" + LATIN])
def test_a_path_not_in_utf8_is_read_back_as_its_bytes(tmp_path: Path, name: str, shell: str) -> None:
    path = name if name.startswith("-") else str(tmp_path / name)
    hint = hint_path(path)
    assert hint.startswith('"$(printf %b ')
    assert shown_bytes(hint) == hint  # no surrogate left: a message shows it as it is
    assert shell_reads(hint, shell) == [os.fsencode(f"./{path}" if path.startswith("-") else path)]


def test_the_folder_named_in_latin1_reads_as_printf_makes_it(tmp_path: Path) -> None:
    assert hint_path(LATIN) == "\"$(printf %b 'caf\\0351')\""
    assert hint_option("--project", tmp_path / LATIN) == f"--project \"$(printf %b '{tmp_path}/caf\\0351')\""
    assert hint_option("--project", "-" + LATIN) == "\"$(printf %b '--project=-caf\\0351')\""


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("value", [LATIN, ODD, "-" + LATIN])
def test_an_option_and_a_command_line_are_read_back(value: str, shell: str) -> None:
    given = os.fsencode(value)
    assert shell_reads(hint_option("--project", value), shell) in ([b"--project", given], [b"--project=" + given])
    line = hint_words(["recordlens", "project", "remove-page", "--", value])
    assert shell_reads(line, shell) == [b"recordlens", b"project", b"remove-page", b"--", given]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("name", ["my dir", "données", "plain", "-p q", "it's"])
def test_a_utf8_name_keeps_its_quoting(name: str, shell: str) -> None:
    assert hint_path(name) == shlex.quote(f"./{name}" if name.startswith("-") else name)
    assert not re.match(r'"\$\(', hint_path(name))
    assert shell_reads(hint_path(name), shell) == [os.fsencode(f"./{name}" if name.startswith("-") else name)]
