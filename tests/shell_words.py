"""What a user's shell makes of a command a message hands them, and folders named in bytes that are not UTF-8 to
try it on. A hint is meant to run as printed in any POSIX shell: the tests read it back with `sh` (dash here) and
with bash."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

SHELLS = ("sh", "bash")


def read_back(line: str, shell: str = "sh") -> list[bytes]:
    """The bytes `shell` makes of each word of `line`, a command line as the user copies it."""
    done = subprocess.run([shell, "-c", f"printf '%s\\0' {line}"], capture_output=True, check=True, timeout=60)
    return done.stdout.split(b"\0")[:-1]


def made_folder(folder: Path) -> Path:
    """`folder` made, its name perhaps not UTF-8: the test is skipped where the file system refuses the name."""
    try:
        folder.mkdir()
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses a name that is not UTF-8")
    return folder
