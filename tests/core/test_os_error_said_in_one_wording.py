"""A system's error in the one wording of a message that has only the error to go by (`core.errors.os_error_said`):
the file, as a hint names a path, then the system's words, never Python's `[Errno N] ...: '/x/y'`."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from recordlens.core import atomic
from recordlens.core.command_hints import hint_path
from recordlens.core.errors import os_error_said


def test_the_file_then_the_systems_words(tmp_path: Path) -> None:
    error = OSError(errno.EIO, os.strerror(errno.EIO), str(tmp_path / "a share" / "7.html"))
    assert os_error_said(error) == f"{hint_path(tmp_path / 'a share' / '7.html')}: Input/output error"


def test_a_failed_rename_names_the_file_it_was_to_become(tmp_path: Path) -> None:
    target = tmp_path / "model.json"
    target.mkdir()  # a folder in the way: the rename over it fails
    try:
        atomic.write_text(target, "{}")
    except OSError as error:
        assert os_error_said(error) == f"{hint_path(target)}: Is a directory"
    else:
        raise AssertionError("written over a folder")


def test_an_error_that_names_no_file_is_its_words_alone() -> None:
    assert os_error_said(OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))) == "No space left on device"
