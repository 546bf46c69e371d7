"""A whole project, copied: every page, label and status, the history, other annotators' labels, runs and
their scores, agent data, the project's models and removed pages, as they are.

Exports are for other tools (the NEXT-EVAL layout holds a dataset's truth only); a copy is the project itself,
for another machine or a colleague. The database is copied with SQLite's online backup, so a copy made while the
app or another command has the project open is still one consistent state; the files beside it follow (a file
that a change needs is written before the change is stored, so every file the copied database names is there).
The copy is made in a hidden folder beside the destination and renamed into place when whole, every file and
folder of it written through to the disk before the rename and the destination's folder after it (a power cut
soon after leaves no copy that looks whole, its database naming saved pages left empty): a copy stopped
part way leaves no folder that looks like a project (a killed one leaves its hidden folder, which the next copy
to that destination removes, as any copy into the same folder removes those of copies whose process is gone:
`notes` names them). A project that lacks a saved page is refused before anything is written.

An import stopped part way (or under way as the copy is made) leaves the copy without some of its pages: its mark
(`import_marks`), kept in the project's hidden `.running/`, goes with the copy, so that the copy says it as the
project does, and running the same import into the copy finishes it there; a Propose over the new pages stopped
part way likewise. Nothing else of `.running/` is copied (the locks of work under way are the project's, and a run
under way is stored in the copy as the database holds it).

A copy never writes to the project it copies: a project on a read-only mount or medium (an archive, a shared
folder) is read where it is (`open_to_read`), and its copy, in a folder
that can be written, is the project to work in. A project of an earlier RecordLens is copied as it is, and the
copy brought up to this schema (said by the command: `ProjectCopy.brought_up_from`), which that RecordLens
cannot open.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..atomic import folder_mode, sync_file, sync_folder
from ..command_hints import hint_path
from ..errors import full_disk, is_disk_full
from ..output_paths import outside_of
from ..owner_files import owner_line, process_alive
from ..page.dataset import natural_key
from ..wording import counted, listed
from .db import StoreError, connect, full_or_nearly, only_readable
from .files import SNAPSHOTS, snapshot_path
from .import_marks import imports_under_way, stopped_imports, stopped_imports_said
from .project import (
    PROJECT_DB,
    PROJECT_DB_FILES,
    Project,
    of_an_earlier_schema,
    open_project,
    read_as_it_is,
    read_where_it_is,
    row_problem,
)
from .propose_marks import stopped_proposes
from .runs import RUNNING_MARKS
from .schema import SCHEMA_VERSION


@dataclass(frozen=True)
class ProjectCopy:
    destination: Path
    pages: int
    labels: int
    runs: int
    annotators: int
    files: int  # the files copied beside the database (snapshots, models, removed pages)
    brought_up_from: int | None = None  # the schema of the project copied, when earlier: the copy's is this one's
    # what the command says besides: hidden folders of killed copies removed, the unfinished imports the copy holds
    notes: tuple[str, ...] = ()


def copy_project(source: str | Path, destination: str | Path) -> ProjectCopy:
    """Copy the project at `source` to `destination`, which must not exist yet (or be an empty folder)."""
    root, dest = Path(source), Path(destination).resolve()  # "." has no name to make a hidden folder beside
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise StoreError(f"{hint_path(dest)} exists and is not an empty folder: a project is copied into a new or "
                         "empty one")
    outside_of(dest, root, "the project", "copy it somewhere else")
    # An older project is read as it is, never brought up to date in place; its copy is, below
    with open_to_read(root, any_schema=True) as project:
        found = project.schema_version()
        missing = _missing_snapshots(project)
        if missing:  # before anything is written: the copy would lack them too
            names = list(missing)
            raise StoreError(f"the project {hint_path(root)} lacks the saved page of {len(missing)} page(s) "
                             f"({listed(names)}; first: {missing[names[0]]}): put it back, "
                             "or take the page out (`recordlens project remove-page`), then copy")
        unfinished = _unfinished_work(root)  # before the database is read: an import that ends meanwhile is said
        try:
            partial, removed = _partial_folder(dest)
        except OSError as error:
            raise StoreError(f"cannot copy the project to {hint_path(destination)}: {_cannot_write(error, dest.parent)}"
                             ) from None
        try:
            partial.chmod(folder_mode())  # a project folder as mkdir makes it, not mkdtemp's private 0700
            (partial / _OWNER).write_text(owner_line(), encoding="utf-8")
            _back_up(project.db.conn, partial / PROJECT_DB)  # first: every file it names exists already
            with Project(partial, connect(partial / PROJECT_DB)) as copied:
                # brought up to date before it is in place; no copy of it kept as it was (the project copied is
                # that, left as it was for the RecordLens that made it): the copy's schema is said by the caller
                copied.upgrade(keep_earlier=False)
            _carry_marks(unfinished, partial)  # first: the copy's own folder is synced with the files
            files = _copy_files(root, partial)
            (partial / _OWNER).unlink()
            if dest.exists():
                dest.rmdir()  # empty, checked above
            partial.rename(dest)
            sync_folder(dest.parent)  # the rename too survives a power cut
        except BaseException as error:
            shutil.rmtree(partial, ignore_errors=True)
            if _the_copy_failed(error, root, dest.parent):
                # said of the folder the user named, not of the hidden one the copy was made in
                raise StoreError(f"cannot copy the project to {hint_path(destination)}: "
                                 f"{_cannot_write(error, dest.parent)} (nothing was copied)") from None
            raise
    with open_project(dest) as copied:
        labels = copied.one("SELECT COUNT(*) FROM records")[0]
        pages = copied.pages()
        notes = (*_removed_said(removed), *stopped_imports_said(dest, {page.name for page in pages}))
        return ProjectCopy(dest, len(pages), labels, len(copied.runs.all()),
                           len(copied.annotators.names()), files, found if found < SCHEMA_VERSION else None, notes)


def open_to_read(folder: str | Path, *, any_schema: bool = False) -> Project:
    """The project at `folder`, to be read: opened as every command opens it where it can be written, else read
    only (a read-only mount or medium: `read_where_it_is`). A project of an earlier schema is read as it is,
    wherever it is, never brought up to date (it could no longer be opened by the RecordLens it was made with):
    through a copy brought up to date and thrown away (`read_as_it_is`), or with `any_schema` (a copy of the
    project, brought up to date once made) as it is, read only."""
    root = Path(folder)
    database = root / PROJECT_DB
    if of_an_earlier_schema(database):
        return Project(root, connect(database, read_only=True)) if any_schema else read_as_it_is(root)
    if only_readable(database):
        return read_where_it_is(root, any_schema=any_schema)
    return open_project(root)  # or the refusal that says why it cannot be opened


def _missing_snapshots(project: Project) -> dict[str, str]:
    """Page -> why its saved page's file is not there to copy, for each such page: the file is gone, or the row
    naming it was changed by hand so that it names no stored file (said as one page's fault, among the others,
    not a stop without a page named); asked in the terms of every schema version (a read-only project of an
    earlier RecordLens is copied as it is)."""
    rows = project.db.execute("SELECT p.name, p.snapshot, s.suffix FROM pages p "
                              "LEFT JOIN snapshots s ON s.hash = p.snapshot")
    missing = {name: why for name, digest, suffix in rows if (why := _why_missing(project.root, digest, suffix))}
    return {name: missing[name] for name in sorted(missing, key=natural_key)}


def _why_missing(root: Path, digest: str, suffix: str | None) -> str | None:
    """Why the saved page named `digest` and `suffix` (None: its snapshot has no row) is not in the project's
    `snapshots/`, or None."""
    problem = row_problem(digest, suffix)  # never None for a missing row
    if problem is not None or suffix is None:
        return problem
    path = snapshot_path(root, digest, suffix)
    return None if path.is_file() else f"{hint_path(path)} is missing, deleted by hand?"


def _partial_folder(dest: Path) -> tuple[Path, list[Path]]:
    """The hidden folder beside `dest` the copy is made in, after removing those of copies killed part way: to
    `dest` (whether or not they said who made them), and to any other folder beside it whose process, named in
    them, is gone (a copy to another name, killed, is otherwise never met again); with those removed."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    left = [found for found in dest.parent.glob(".*.partial-*") if _left_by_a_killed_copy(found, dest)]
    for found in left:
        shutil.rmtree(found, ignore_errors=True)
    removed = [found for found in left if not found.exists()]  # one not ours to remove is not said removed
    return Path(tempfile.mkdtemp(prefix=f".{dest.name}.partial-", dir=dest.parent)), removed


def _left_by_a_killed_copy(partial: Path, dest: Path) -> bool:
    """Whether `partial`, beside `dest`, is the hidden folder of a copy killed part way (never a project: one
    running now is left be). One of another destination is judged by its owner file alone: a hidden folder
    without one is not known to be a copy's."""
    if not partial.is_dir() or partial.is_symlink():
        return False
    if partial.name.startswith(f".{dest.name}.partial-"):
        return not _still_copying(partial)
    return (partial / _OWNER).is_file() and not _still_copying(partial)


def _removed_said(removed: list[Path]) -> list[str]:
    """The hidden folders of killed copies removed, as the command names them (disk space given back)."""
    if not removed:
        return []
    names = listed([hint_path(path) for path in removed])
    return [f"removed {counted(len(removed), 'hidden folder')} left by copies killed part way ({names})"]


def _unfinished_work(root: Path) -> dict[str, bytes]:
    """The marks of the project's imports stopped part way or under way, and of its Proposes stopped part way
    (file name in `.running/` -> what it holds), to go with the copy: it lacks the pages they did not bring in.
    A mark that cannot be read is left out, as the project leaves it unsaid."""
    marks = [found.description for found in (*stopped_imports(root), *imports_under_way(root))]
    marks += [found.description for found in stopped_proposes(root)]
    held: dict[str, bytes] = {}
    for path in marks:
        with contextlib.suppress(OSError):  # an import that ended meanwhile took its mark away
            held[path.name] = path.read_bytes()
    return held


def _carry_marks(marks: dict[str, bytes], into: Path) -> None:
    """The marks of unfinished work, in the copy's `.running/` without their locks: in the copy no process
    does that work, so each is said as stopped part way."""
    if not marks:
        return
    folder = into / RUNNING_MARKS
    folder.mkdir(exist_ok=True)
    for name, held in marks.items():
        (folder / name).write_bytes(held)
        _written_through(folder / name)
    sync_folder(folder)


def _the_copy_failed(error: BaseException, root: Path, folder: Path) -> bool:
    """Whether what failed is the copy being written in `folder`, not the project read: a file operation on the
    copy, or SQLite's full disk while the copy's database is written (the project's is only read, so its disk is
    not the one; the store's own wording of a full database, met if this went on up, would name the project)."""
    if isinstance(error, sqlite3.Error):
        return full_or_nearly(error, folder)
    return isinstance(error, OSError) and not _read_from(error, root)


def _read_from(error: OSError, root: Path) -> bool:
    """Whether a failed file operation was on the project copied (a file of it unreadable or gone), not on the
    copy being written. A full disk is always the copy's: the project is only read (a file copy that fills the
    disk names the file it read from first, the one written to second)."""
    if is_disk_full(error):
        return False
    named = error.filename
    return named is not None and Path(named).resolve().is_relative_to(root.resolve())


def _cannot_write(error: OSError | sqlite3.Error, folder: Path) -> str:
    if full_or_nearly(error, folder):
        detail = error.strerror if isinstance(error, OSError) else str(error)
        return full_disk(folder, detail=detail, then="copy again")
    return f"{hint_path(folder)} cannot be written ({error.strerror or error}); copy to a folder you can write to"


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
    write left unfinished by a killed process (a hidden temporary file) is not part of the project. Every file
    and folder is written through to the disk (as `atomic` writes the user's files) before the copy is renamed
    into place: after a power cut, a copy there is whole, never a database naming saved pages left empty."""
    copied = 0
    made: list[Path] = []
    for folder, names, files in os.walk(root):
        here = Path(folder)
        relative = here.relative_to(root)
        names[:] = [n for n in names if not n.startswith(".") and (here / n).resolve() != into.resolve()]
        (into / relative).mkdir(exist_ok=True)
        made.append(into / relative)
        for name in files:
            if name.startswith(".") or (relative == Path(".") and name in PROJECT_DB_FILES):
                continue
            try:
                shutil.copy2(here / name, into / relative / name)
            except FileNotFoundError:
                if relative.parts[:1] == (SNAPSHOTS,):
                    raise  # a saved page is never taken away while a project is in use
                continue  # moved while the folder was walked (a model set aside, a removed page put back)
            _written_through(into / relative / name)
            copied += 1
    (into / SNAPSHOTS).mkdir(exist_ok=True)
    for folder in {*made, into / SNAPSHOTS}:  # each once, its files' names in it (the copy's own folder too)
        sync_folder(folder)
    return copied


def _written_through(path: Path) -> None:
    """The file at `path` written through to the disk. A file of the copy needs no atomic write of its own
    (`atomic.copy_file`'s rename and folder sync per file): it is new, in a hidden folder renamed whole into
    place, and its folder is synced once, by the caller."""
    sync_file(path)
