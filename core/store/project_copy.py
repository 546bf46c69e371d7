"""A whole project, copied: every page, label and status, the history, other annotators' labels, runs and
their scores, agent data, the project's models and removed pages, as they are.

Exports are for other tools (the NEXT-EVAL layout holds a dataset's truth only); a copy is the project itself,
for another machine or a colleague. The database is copied with SQLite's online backup, so a copy made while the
app or another command has the project open is still one consistent state; the files beside it follow (a file
that a change needs is written before the change is stored, so every file the copied database names is there).
The copy is made in a hidden folder beside the destination and renamed into place when whole: a copy stopped
part way leaves no folder that looks like a project (a killed one leaves its hidden folder, which the next copy
to that destination removes). A project that lacks a saved page is refused before anything is written.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..atomic import folder_mode
from ..owner_files import owner_line, process_alive
from ..wording import listed
from .db import StoreError
from .files import SNAPSHOTS
from .project import PROJECT_DB, open_project

_DATABASE_FILES = {PROJECT_DB, f"{PROJECT_DB}-wal", f"{PROJECT_DB}-shm", f"{PROJECT_DB}-journal"}


@dataclass(frozen=True)
class ProjectCopy:
    destination: Path
    pages: int
    labels: int
    runs: int
    annotators: int
    files: int  # the files copied beside the database (snapshots, models, removed pages)


def copy_project(source: str | Path, destination: str | Path) -> ProjectCopy:
    """Copy the project at `source` to `destination`, which must not exist yet (or be an empty folder)."""
    root, dest = Path(source), Path(destination).resolve()  # "." has no name to make a hidden folder beside
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise StoreError(f"{dest} exists and is not an empty folder: a project is copied into a new or empty one")
    if dest.resolve().is_relative_to(root.resolve()):
        raise StoreError(f"{dest} is inside the project {root}: copy it somewhere else")
    with open_project(root) as project:
        missing = [page.name for page in project.pages() if not project.snapshot_file(page.name).is_file()]
        if missing:  # before anything is written: the copy would lack them too
            raise StoreError(f"the project {root} lacks the saved page of {len(missing)} page(s) ({listed(missing)}; "
                             f"first: {project.snapshot_file(missing[0])} is missing, deleted by hand?): put it back, "
                             "or take the page out (`recordlens project remove-page`), then copy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        for left in dest.parent.glob(f".{dest.name}.partial-*"):
            if not _still_copying(left):  # a copy killed part way (never a project); one running now is left be
                shutil.rmtree(left, ignore_errors=True)
        partial = Path(tempfile.mkdtemp(prefix=f".{dest.name}.partial-", dir=dest.parent))
        try:
            partial.chmod(folder_mode())  # a project folder as mkdir makes it, not mkdtemp's private 0700
            (partial / _OWNER).write_text(owner_line(), encoding="utf-8")
            _back_up(project.db.conn, partial / PROJECT_DB)  # first: every file it names exists already
            files = _copy_files(root, partial)
            (partial / _OWNER).unlink()
            if dest.exists():
                dest.rmdir()  # empty, checked above
            partial.rename(dest)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
    with open_project(dest) as copied:
        labels = copied.one("SELECT COUNT(*) FROM records")[0]
        return ProjectCopy(dest, len(copied.pages()), labels, len(copied.runs.all()),
                           len(copied.annotators.names()), files)


_OWNER = ".copying"  # in a copy being made: the host and process making it


def _still_copying(partial: Path) -> bool:
    """Whether a copy's hidden folder belongs to a copy running now (on this machine: its process is alive; on
    another: assumed so)."""
    try:
        host, pid = (partial / _OWNER).read_text(encoding="utf-8").split()
        return process_alive(host, int(pid))
    except (OSError, ValueError):
        return False  # no owner: left by a copy killed before it said who it was, or after it finished


def _back_up(source: sqlite3.Connection, target: Path) -> None:
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode = WAL")  # as the project's own database is kept
    finally:
        copy.close()


def _copy_files(root: Path, into: Path) -> int:
    """Everything in the project folder but its database (snapshots, models, removed pages), modes kept; a
    write left unfinished by a killed process (a hidden temporary file) is not part of the project."""
    copied = 0
    for folder, names, files in os.walk(root):
        here = Path(folder)
        relative = here.relative_to(root)
        names[:] = [n for n in names if not n.startswith(".") and (here / n).resolve() != into.resolve()]
        (into / relative).mkdir(exist_ok=True)
        for name in files:
            if name.startswith(".") or (relative == Path(".") and name in _DATABASE_FILES):
                continue
            try:
                shutil.copy2(here / name, into / relative / name)
            except FileNotFoundError:
                if relative.parts[:1] == (SNAPSHOTS,):
                    raise  # a saved page is never taken away while a project is in use
                continue  # moved while the folder was walked (a model set aside, a removed page put back)
            copied += 1
    (into / SNAPSHOTS).mkdir(exist_ok=True)
    return copied
