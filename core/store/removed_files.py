"""The project's `removed/` folder: what a page removal, a label set's pages replaced or removed, a deleted run,
and a database brought up from an earlier schema (the database as it was) leave behind, each in a file or folder
of its own that is never written over.

A low-level module (it imports nothing of the store's), so that every part that sets something aside, and the
Project those parts hang off, can use the same names and the same way of making a new file or folder.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..atomic import sync_folder

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
    OSError when it cannot be written (a file cut short is removed), FileExistsError when every name is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in _names(stem, ".json"):
        path = folder / name
        try:
            with open(path, "x", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
        except FileExistsError:
            continue
        except BaseException:
            path.unlink(missing_ok=True)  # a copy cut short is no copy
            raise
        return path
    raise FileExistsError(f"{folder} holds too many files named {stem}")


def copy_database(database: Path, folder: Path, stem: str) -> Path:
    """A copy of the SQLite database at `database`, in a new file `stem[-K].db` of `folder`, never replacing a file:
    one consistent state (SQLite's online backup, read by a connection of its own: what was last committed, so the
    caller holds the write lock while it is made, before any change of its own), a file of its own (no write-ahead
    log beside it), written through to the disk. OSError or sqlite3.Error when it cannot be made (a copy cut short
    is removed), FileExistsError when every name is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in _names(stem, ".db"):
        path = folder / name
        try:
            with open(path, "x"):  # the name, taken: an empty file is an empty database to SQLite
                pass
        except FileExistsError:
            continue
        try:
            # not the caller's connection: SQLite refuses to back up from a connection that holds a write transaction
            source = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
            try:
                copy = sqlite3.connect(path)
                try:
                    source.backup(copy)
                    copy.execute("PRAGMA journal_mode = DELETE")  # one file: it opens anywhere, read-only too
                finally:
                    copy.close()
            finally:
                source.close()
            with open(path, "rb") as written:
                os.fsync(written.fileno())
            sync_folder(folder)  # its name too survives a power loss
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        return path
    raise FileExistsError(f"{folder} holds too many files named {stem}")


def _names(stem: str, suffix: str) -> list[str]:
    return [f"{stem}{f'-{k}' if k else ''}{suffix}" for k in range(_TRIES)]
