"""Where a command will write, checked before it does any work: a wrong output path fails at once with a clear
message instead of with a traceback, or after minutes of work whose results are then lost.

A missing folder on the way is not an error (the writers create it); a file where a folder must be, a folder
where a file must be, anything that is neither (a FIFO, a device), and a folder nothing can be written in (read
only, no permission, /proc) are. Whether a folder takes files is asked of it, by making and removing an empty
hidden file there: permission bits do not say it for root, nor for read-only mounts. An output that is, or lies
inside, a folder the command reads (an export into its project, a copy into the project it copies, synth into its
input) is refused too (`overlap`, `outside_of`): it would mix with what is read, or be read back as part of it. A
refusal names each path as a hint names one (`hint_path`): a name with a space, or bytes that are not UTF-8, reads
as the shell reads it back. A database SQLite may have open, and the files SQLite keeps beside one, are refused
without being opened (`file_kinds.sqlite_file_in_use`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .command_hints import hint_path
from .errors import DatasetError
from .file_kinds import not_regular, sqlite_file_in_use
from .wording import listed

__all__ = ["OutputPathError", "is_chart", "is_json_report", "marked_report", "outside_of", "overlap", "writable_file",
           "writable_folder"]

SQLITE_HEADER = b"SQLite format 3\x00"
# A JSON report names the command that wrote it under this key ("recordlens bench"), so that a later run of it
# may write over it and over no other JSON object (a run's run.json, a model, the app's settings).
REPORT_KEY = "report"
REPORT_PREFIX = "recordlens "
# The top-level keys that tell the reports written before they named their command: bench's, bench --cv's.
_UNMARKED_REPORTS = (frozenset({"table1", "table2"}), frozenset({"folds", "rows", "held_out"}))
_CHART_HEADERS = (b"\x89PNG\r\n\x1a\n", b"%PDF", b"<svg", b"<?xml")


class OutputPathError(DatasetError):
    """An output path that cannot be written as asked."""


def _parents_are_folders(path: Path) -> None:
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OutputPathError(f"cannot write {hint_path(path)}: {hint_path(parent)} is a file, not a folder")
            _takes_files(parent, path)
            return


def _takes_files(folder: Path, path: Path) -> None:
    """Refuse `path` when `folder` (where it, or the first folder made for it, will be written) takes no file."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".recordlens-write-check-", dir=folder)
    except OSError as error:
        raise OutputPathError(f"cannot write {hint_path(path)}: nothing can be written in {hint_path(folder)} "
                              f"({error.strerror or error})") from None
    os.close(handle)
    try:
        os.unlink(probe)
    except OSError as error:  # made but not removable: say so rather than leave a stranger in the folder unsaid
        raise OutputPathError(f"cannot write {hint_path(path)}: {hint_path(folder)} takes files but not their removal "
                              f"({hint_path(probe)} is left; "
                              f"{error.strerror or error})") from None


def writable_file(path: str | Path, what: str = "the output", *,
                  replaces: Callable[[Path], bool] | None = None) -> Path:
    """`path`, if `what` can be written there as a file. A file already there is replaced only when it is not a
    database and, given `replaces`, when `replaces` says it is what the command writes (a model, a report, a
    chart): a mistyped path must not destroy a project's database or the labels a command has just read."""
    path = Path(path)
    if path.is_dir():
        raise OutputPathError(f"{hint_path(path)} is a folder; {what} is written to a file, not a folder: move "
                              "that folder away, or choose another path")
    try:
        phrase = not_regular(os.stat(path).st_mode)
    except OSError:
        phrase = None  # nothing there yet (or unreadable: the write will say why)
    if phrase is not None:
        raise OutputPathError(f"{hint_path(path)} exists and is {phrase}; choose another place for {what}")
    _refuse_a_database_in_use(path, what)
    if path.is_file():
        _refuse_replacing_another_kind(path, what, replaces)
    _parents_are_folders(path)
    return path


def _refuse_a_database_in_use(path: Path, what: str) -> None:
    """Refuse a database SQLite may have open, or a file SQLite keeps beside one, without opening it (read for its
    header, closing it would drop this process's own locks on it: `sqlite_file_in_use`); written over, a
    write-ahead log would take the project's last changes with it."""
    phrase = sqlite_file_in_use(path)
    if phrase is not None:
        raise OutputPathError(f"{hint_path(path)} is {phrase}; {what} is not written there: choose another path")


def _refuse_replacing_another_kind(path: Path, what: str, replaces: Callable[[Path], bool] | None) -> None:
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:
        return  # unreadable: the write will say why
    if not head:
        return  # an empty file holds nothing to lose
    if head == SQLITE_HEADER:
        raise OutputPathError(f"{hint_path(path)} is a database (a RecordLens project's project.db?); {what} is "
                              "not written over it: choose another path")
    if replaces is not None and not replaces(path):
        looks = _looks_like(path)
        raise OutputPathError(f"{hint_path(path)} exists and is not {what}, so it is not replaced"
                              + (f" (it looks like {looks})" if looks else "")
                              + ": choose another path, or move that file away first")


def marked_report(command: str, document: dict[str, object]) -> dict[str, object]:
    """A JSON report as `recordlens COMMAND` writes it: named by its command, so that a later run may replace it."""
    return {REPORT_KEY: REPORT_PREFIX + command, **document}


def is_json_report(path: Path) -> bool:
    """Whether the file is a JSON report RecordLens wrote: one naming its command (`marked_report`), or one of
    before that, known by its top-level keys. Any other JSON is kept: a labels file (a list), a run's run.json, a
    selector model, the app's settings are what a mistyped path would name."""
    document = _json_of(path)
    if not isinstance(document, dict):
        return False
    named = document.get(REPORT_KEY)
    return ((isinstance(named, str) and named.startswith(REPORT_PREFIX))
            or any(keys <= document.keys() for keys in _UNMARKED_REPORTS))


def _json_of(path: Path) -> object:
    """The file's JSON, or None when it is not JSON (or cannot be read)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


def _looks_like(path: Path) -> str | None:
    """What a JSON file that is not to be replaced looks like, so the refusal says what was nearly lost."""
    document = _json_of(path)
    if isinstance(document, list):
        return "a labels file, a JSON list of records"
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("format"), str):  # a selector model names its format ("recordlens-selector/3")
        return f"a file of format {document['format']}"
    if "method" in document and "status" in document:
        return "a page's record of a run, _run/N.json"
    if "method" in document and "version" in document:
        return "a run's description, _run/run.json"
    return f"a JSON object with keys {listed(list(document))}" if document else "an empty JSON object"


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
        raise OutputPathError(f"{hint_path(path)} is a file, not a folder; {what} is written to a folder")
    if path.is_dir():
        _takes_files(path, path)
    else:
        _parents_are_folders(path)
    return path


def overlap(path: str | Path, folder: str | Path) -> str | None:
    """How an output `path` overlaps a `folder` a command reads: "is" it, "lies inside" it, or "holds" it; None when
    they are apart. Compared as resolved paths, so that a symbolic link or `..` does not hide the overlap."""
    try:
        out, read = Path(path).resolve(), Path(folder).resolve()
    except (OSError, RuntimeError):  # a symbolic link loop (RuntimeError before Python 3.13): the write will say so
        return None
    if out == read:
        return "is"
    if out.is_relative_to(read):
        return "lies inside"
    return "holds" if read.is_relative_to(out) else None


def outside_of(path: str | Path, folder: str | Path, what: str, then: str) -> Path:
    """`path`, unless it is `folder` (`what`: "the project") or lies inside it: refused, saying where it is and
    `then` (what to do instead). An output holding the folder is not refused here (an export beside a project)."""
    where = overlap(path, folder)
    if where in ("is", "lies inside"):
        raise OutputPathError(f"{hint_path(path)} {where} {what} {hint_path(folder)}: {then}")
    return Path(path)
