"""Where a command will write, checked before it does any work: a wrong output path fails at once with a clear
message instead of with a traceback, or after minutes of work whose results are then lost.

A missing folder on the way is not an error (the writers create it); a file where a folder must be, a folder
where a file must be, anything that is neither (a FIFO, a device), and a folder nothing can be written in (read
only, no permission, /proc) are. Whether a folder takes files is asked of it, by making and removing an empty
hidden file there: permission bits do not say it for root, nor for read-only mounts.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import DatasetError
from .file_kinds import not_regular

__all__ = ["OutputPathError", "is_chart", "is_json_object", "writable_file", "writable_folder"]

SQLITE_HEADER = b"SQLite format 3\x00"
_CHART_HEADERS = (b"\x89PNG\r\n\x1a\n", b"%PDF", b"<svg", b"<?xml")


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


def writable_file(path: str | Path, what: str = "the output", *,
                  replaces: Callable[[Path], bool] | None = None) -> Path:
    """`path`, if `what` can be written there as a file. A file already there is replaced only when it is not a
    database and, given `replaces`, when `replaces` says it is what the command writes (a model, a report, a
    chart): a mistyped path must not destroy a project's database or the labels a command has just read."""
    path = Path(path)
    if path.is_dir():
        raise OutputPathError(f"{path} is a folder; {what} is written to a file, not a folder")
    try:
        phrase = not_regular(os.stat(path).st_mode)
    except OSError:
        phrase = None  # nothing there yet (or unreadable: the write will say why)
    if phrase is not None:
        raise OutputPathError(f"{path} exists and is {phrase}; choose another place for {what}")
    if path.is_file():
        _refuse_replacing_another_kind(path, what, replaces)
    _parents_are_folders(path)
    return path


def _refuse_replacing_another_kind(path: Path, what: str, replaces: Callable[[Path], bool] | None) -> None:
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return  # unreadable: the write will say why
    if not head:
        return  # an empty file holds nothing to lose
    if head == SQLITE_HEADER:
        raise OutputPathError(f"{path} is a database (a RecordLens project's project.db?); {what} is not written "
                              "over it: choose another path")
    if replaces is not None and not replaces(path):
        raise OutputPathError(f"{path} exists and is not {what}, so it is not replaced: choose another path, or "
                              "move that file away first")


def is_json_object(path: Path) -> bool:
    """Whether the file holds one JSON object, as a report does: not a list (a labels file, the one a mistyped
    path most likely names) nor anything else. Other JSON objects (a run's run.json) pass: a report is replaced
    only by the command that names it."""
    try:
        return isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
    except (OSError, UnicodeDecodeError, ValueError):
        return False


def is_chart(path: Path) -> bool:
    """Whether the file is an image a chart is saved as (PNG, PDF or SVG)."""
    try:
        with path.open("rb") as file:
            head = file.read(64).lstrip()
    except OSError:
        return False
    return head.startswith(_CHART_HEADERS)


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
