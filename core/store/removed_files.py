"""The project's `removed/` folder: what a page removal, a label set's pages replaced or removed, and a deleted
run leave behind, each in a file or folder of its own that is never written over.

A low-level module (it imports nothing of the store's), so that every part that sets something aside, and the
Project those parts hang off, can use the same names and the same way of making a new file or folder.
"""

from __future__ import annotations

import os
from pathlib import Path

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


def _names(stem: str, suffix: str) -> list[str]:
    return [f"{stem}{f'-{k}' if k else ''}{suffix}" for k in range(_TRIES)]
