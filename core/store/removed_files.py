"""The project's `removed/` folder: what a page removal, a label set's pages replaced or removed, a deleted run,
and a database brought up from an earlier schema (the database as it was) leave behind, each in a file or folder
of its own that is never written over.

A low-level module (it imports nothing of the store's), so that every part that sets something aside, and the
Project those parts hang off, can use the same names and the same way of making a new file or folder.
"""

from __future__ import annotations

import errno
import os
import secrets
import socket
import sqlite3
from pathlib import Path

from ..atomic import sync_folder
from ..owner_files import process_alive

REMOVED = "removed"  # the folder, inside the project, that keeps what was taken out of it
_TRIES = 100  # new names tried (`stem`, `stem-1`, ...) before giving up: two commands in one millisecond, or more


def safe_name(name: str, fallback: str, limit: int = 100) -> str:
    """`name` as part of a file or folder name: a path separator or any other odd character becomes "_", and it
    never begins with a dot (a hidden name, which `project copy` leaves out); `fallback` when nothing is left."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).lstrip(".")[:limit] or fallback


def stamped(stem: str, at: str) -> str:
    """`stem.AT`, the time written so that every file system takes it (no colon)."""
    return f"{stem}.{at.replace(':', '-')}"


def new_folder(parent: Path, stem: str) -> Path:
    """A folder of its own under `parent`, named `stem` (or `stem-K` when that is taken); OSError when it cannot
    be made, FileExistsError when every name tried is taken."""
    parent.mkdir(parents=True, exist_ok=True)
    for name in _names(stem, ""):
        folder = parent / name
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(f"{parent} holds too many folders named {stem}")


def write_new(folder: Path, stem: str, text: str) -> Path:
    """`text` in a new file `stem[-K].json` of `folder`, written through to the disk and never replacing a file;
    OSError when it cannot be written, FileExistsError when every name is taken. As `copy_database`'s copy, it is
    written under a hidden name first and given its own name only when whole: a process killed part way (or a
    power cut) leaves no empty or cut-short file under a name that looks kept (the hidden file it leaves is removed
    by the next copy into `folder` made on the same machine)."""
    folder.mkdir(parents=True, exist_ok=True)
    _remove_partials_left(folder)
    partial = _new_partial(folder, stem)
    try:
        with open(partial, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        path = _name_taken_by(partial, folder, stem, ".json")
        sync_folder(folder)  # its name too survives a power loss
    finally:
        partial.unlink(missing_ok=True)  # linked to its name (or renamed there), or a copy cut short
    return path


def copy_database(database: Path, folder: Path, stem: str) -> Path:
    """A copy of the SQLite database at `database`, in a new file `stem[-K].db` of `folder`, never replacing a file:
    one consistent state (SQLite's online backup, read by a connection of its own: what was last committed, so the
    caller holds the write lock while it is made, before any change of its own), a file of its own (no write-ahead
    log beside it), written through to the disk. It is written under a hidden name first and given its own name
    only when whole, so that a process killed part way leaves no broken file under a name that looks kept (the
    hidden file it leaves is removed by the next copy into `folder` made on the same machine). OSError or
    sqlite3.Error when it cannot be made (a copy cut short is removed), FileExistsError when every name is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    _remove_partials_left(folder)
    partial = _new_partial(folder, stem)
    try:
        # not the caller's connection: SQLite refuses to back up from a connection that holds a write transaction
        source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")  # one file: it opens anywhere, read-only too
            finally:
                copy.close()
        finally:
            source.close()
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        path = _name_taken_by(partial, folder, stem)
        sync_folder(folder)  # its name too survives a power loss
    finally:
        for left in (partial, *_sidecars(partial)):  # SQLite's own files beside a copy cut short go with it
            left.unlink(missing_ok=True)
    return path


_PARTIAL = ".partial-"  # in the hidden name of a copy being made: `.STEM.partial-PID-HOST-TOKEN`
_SQLITE_SIDECARS = ("-journal", "-wal", "-shm")  # the files SQLite keeps beside a database while it writes it


def _sidecars(database: Path) -> list[Path]:
    return [database.with_name(database.name + suffix) for suffix in _SQLITE_SIDECARS]
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}  # link() says so


def _here() -> str:
    return safe_name(socket.gethostname(), "host")


def _new_partial(folder: Path, stem: str) -> Path:
    """A new, empty hidden file of `folder` to write a copy into, named after this process."""
    while True:
        partial = folder / f".{stem}{_PARTIAL}{os.getpid()}-{_here()}-{secrets.token_hex(4)}"
        try:
            with open(partial, "x"):
                return partial
        except FileExistsError:
            continue


def _remove_partials_left(folder: Path) -> None:
    """Remove the hidden files of copies killed part way on this machine (their process no longer runs); those of
    another machine, or of a copy running now, are left be (hidden, they are never taken for a kept file)."""
    for left in folder.glob(f".*{_PARTIAL}*"):
        owner = left.name.rpartition(_PARTIAL)[2]
        for suffix in _SQLITE_SIDECARS:  # SQLite's, beside a copy cut short
            owner = owner.removesuffix(suffix)
        pid, _, rest = owner.partition("-")
        host = rest.rpartition("-")[0]
        if pid.isdigit() and host == _here() and not process_alive(socket.gethostname(), int(pid)):
            left.unlink(missing_ok=True)


def move_new(source: Path, folder: Path) -> Path:
    """The file `source` moved into `folder` under its own name, or `stem-K` of it when that is taken, never
    replacing a file there (two copies whose names hold the same time both stay)."""
    folder.mkdir(parents=True, exist_ok=True)
    moved = _name_taken_by(source, folder, source.name.removesuffix(source.suffix), source.suffix)
    source.unlink(missing_ok=True)  # linked to its new name (or already renamed there)
    return moved


def _name_taken_by(partial: Path, folder: Path, stem: str, suffix: str = ".db") -> Path:
    """Give the whole file `partial` the first free name `stem[-K]` + `suffix` of `folder`, never replacing a
    file: a hard link, which fails on a name taken; where the file system has none (FAT, some network shares),
    the name is first taken by an empty file, then the file renamed over it."""
    for name in _names(stem, suffix):
        path = folder / name
        try:
            os.link(partial, path)
            return path
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
        try:
            with open(path, "x"):
                pass
        except FileExistsError:
            continue
        try:
            os.replace(partial, path)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return path
    raise FileExistsError(f"{folder} holds too many files named {stem}")


def _names(stem: str, suffix: str) -> list[str]:
    return [f"{stem}{f'-{k}' if k else ''}{suffix}" for k in range(_TRIES)]
