"""Where a command will write, checked before it does any work: a wrong output path fails at once with a clear
message instead of with a traceback, or after minutes of work whose results are then lost.

A missing folder on the way is not an error (the writers create it); a file where a folder must be, a folder
where a file must be, and anything that is neither (a FIFO, a device) are.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import DatasetError
from .file_kinds import not_regular

__all__ = ["OutputPathError", "writable_file", "writable_folder"]


class OutputPathError(DatasetError):
    """An output path that cannot be written as asked."""


def _parents_are_folders(path: Path) -> None:
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OutputPathError(f"cannot write {path}: {parent} is a file, not a folder")
            return


def writable_file(path: str | Path, what: str = "the output") -> Path:
    """`path`, if `what` can be written there as a file."""
    path = Path(path)
    if path.is_dir():
        raise OutputPathError(f"{path} is a folder; {what} is written to a file, not a folder")
    try:
        phrase = not_regular(os.stat(path).st_mode)
    except OSError:
        phrase = None  # nothing there yet (or unreadable: the write will say why)
    if phrase is not None:
        raise OutputPathError(f"{path} exists and is {phrase}; choose another place for {what}")
    _parents_are_folders(path)
    return path


def writable_folder(path: str | Path, what: str = "the output") -> Path:
    """`path`, if `what` can be written there as a folder (it may not exist yet)."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputPathError(f"{path} is a file, not a folder; {what} is written to a folder")
    _parents_are_folders(path)
    return path
