"""Where a command will write, checked before it does any work: a wrong output path fails at once with a clear
message instead of with a traceback, or after minutes of work whose results are then lost.

A missing folder on the way is not an error (the writers create it); a file where a folder must be, a folder
where a file must be, anything that is neither (a FIFO, a device), and a folder nothing can be written in (read
only, no permission, /proc) are. Whether a folder takes files is asked of it, by making and removing an empty
hidden file there: permission bits do not say it for root, nor for read-only mounts.
"""

from __future__ import annotations

import os
import tempfile
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
            _takes_files(parent, path)
            return


def _takes_files(folder: Path, path: Path) -> None:
    """Refuse `path` when `folder` (where it, or the first folder made for it, will be written) takes no file."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".recordlens-write-check-", dir=folder)
    except OSError as error:
        raise OutputPathError(f"cannot write {path}: nothing can be written in {folder} "
                              f"({error.strerror or error})") from None
    os.close(handle)
    try:
        os.unlink(probe)
    except OSError as error:  # made but not removable: say so rather than leave a stranger in the folder unsaid
        raise OutputPathError(f"cannot write {path}: {folder} takes files but not their removal ({probe} is left; "
                              f"{error.strerror or error})") from None


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
    if path.is_dir():
        _takes_files(path, path)
    else:
        _parents_are_folders(path)
    return path
