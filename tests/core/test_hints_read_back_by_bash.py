"""A hint names a folder whose name is not UTF-8 (Latin-1 `caf\\xe9`, kept by Python as a surrogate) as bash reads
those bytes back, `$'caf\\xe9'` (ANSI-C quoting), where `'caf\\xe9'` would be four characters to a shell; a name that
is UTF-8 keeps the quoting it had (`'my dir'`). Every hint is built in `command_hints`: options, positional paths and
whole command lines alike."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_option, hint_path, hint_words
from recordlens.core.path_text import shown_bytes

LATIN = os.fsdecode(b"caf\xe9")  # 'caf\udce9'
ODD = os.fsdecode(b"caf\xe9a'b\\c\xff d")  # a hex letter after a byte, a quote, a backslash, a space


def bash_reads(words: str) -> list[bytes]:
    """The bytes bash makes of each word of a command line as a message prints it (`shown_bytes`, as every message
    is written: what the user copies)."""
    printed = shown_bytes(words)
    done = subprocess.run(["bash", "-c", f"printf '%s\\0' {printed}"], capture_output=True, check=True, timeout=60)
    return done.stdout.split(b"\0")[:-1]


@pytest.mark.parametrize("name", [LATIN, ODD, f"{LATIN}/naïve", "-" + LATIN])
def test_a_path_not_in_utf8_is_read_back_by_bash_as_its_bytes(tmp_path: Path, name: str) -> None:
    path = name if name.startswith("-") else str(tmp_path / name)
    hint = hint_path(path)
    assert hint.startswith("$'")
    assert shown_bytes(hint) == hint  # no surrogate left: a message shows it as it is
    assert bash_reads(hint) == [os.fsencode(f"./{path}" if path.startswith("-") else path)]


def test_the_folder_named_in_latin1_reads_as_ansi_c_quoting(tmp_path: Path) -> None:
    assert hint_path(LATIN) == "$'caf\\xe9'"
    assert hint_option("--project", tmp_path / LATIN) == f"--project $'{tmp_path}/caf\\xe9'"
    assert hint_option("--project", "-" + LATIN) == "$'--project=-caf\\xe9'"


@pytest.mark.parametrize("value", [LATIN, ODD, "-" + LATIN])
def test_an_option_and_a_command_line_are_read_back_by_bash(value: str) -> None:
    given = os.fsencode(value)
    assert bash_reads(hint_option("--project", value)) in ([b"--project", given], [b"--project=" + given])
    line = hint_words(["recordlens", "project", "remove-page", "--", value])
    assert bash_reads(line) == [b"recordlens", b"project", b"remove-page", b"--", given]


@pytest.mark.parametrize("name", ["my dir", "données", "plain", "-p q", "it's"])
def test_a_utf8_name_keeps_its_quoting(name: str) -> None:
    assert hint_path(name) == shlex.quote(f"./{name}" if name.startswith("-") else name)
    assert not re.match(r"\$'", hint_path(name))
    assert bash_reads(hint_path(name)) == [os.fsencode(f"./{name}" if name.startswith("-") else name)]
