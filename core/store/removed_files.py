"""The project's `removed/` folder: what a page removal, a label set's pages replaced or removed, a deleted run,
and a database brought up from an earlier schema (the database as it was) leave behind, each in a file or folder
of its own that is never written over.

Whatever is written there is written under a hidden name first (`.STEM.partial-PID-HOST-TOKEN`, naming the process
that writes it) and given its own name only when whole, never over another's: a process killed part way (or a
power cut) leaves nothing under a name that looks kept, which a command would list or take back as whole. What such
a process left is removed, and said (a warning logged), the next time something is written beside it on the same
machine (`remove_partials_left`). A file is written so by `write_new` and `copy_database`, and named by
`name_file` (as a new project's `project.db` is); a folder of files (a deleted run's copy, a label set's pages set
aside) by `hidden_folder`, then `name_folder`.

A low-level module (it imports nothing of the store's), so that every part that sets something aside, and the
Project those parts hang off, can use the same names and the same way of making a new file or folder.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import secrets
import shutil
import socket
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from ..atomic import sync_file, sync_folder
from ..command_hints import hint_path
from ..file_kinds import SQLITE_SIDECARS
from ..owner_files import process_alive

REMOVED = "removed"  # the folder, inside the project, that keeps what was taken out of it
_TRIES = 100  # new names tried (`stem`, `stem-1`, ...) before giving up: two commands in one millisecond, or more

_log = logging.getLogger(__name__)


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
    raise FileExistsError(f"{hint_path(parent)} holds too many folders named {stem}")


def hidden_folder(parent: Path, stem: str, *, swept: bool = False) -> Path:
    """A new, empty hidden folder of `parent` to write a folder of files in (`.STEM.partial-PID-HOST-TOKEN`, named
    after this process), the hidden files and folders left there by processes killed part way removed first
    (`remove_partials_left`), unless the caller has just done so (`swept`: the folder is not listed twice). Once
    whole, `name_folder` gives it its own name; a caller that gives it up removes it (`shutil.rmtree`). OSError
    when it cannot be made."""
    parent.mkdir(parents=True, exist_ok=True)
    if not swept:
        remove_partials_left(parent)
    while True:
        folder = parent / _partial_name(stem)
        try:
            folder.mkdir()
            return folder
        except FileExistsError:
            continue


def name_folder(hidden: Path, stem: str) -> Path:
    """The whole folder `hidden` (`hidden_folder`) given the first free name `stem[-K]` of its parent, never over
    another folder, and the name written through to the disk: the name is first taken by an empty folder (as
    `new_folder` takes one, so that no other writer can take it), then `hidden` renamed over it. OSError when it
    cannot be named (`hidden` is left as it was), FileExistsError when every name is taken."""
    parent = hidden.parent
    reserved = new_folder(parent, stem)
    try:
        if os.name == "nt":  # Windows renames over no folder: the name is given up just before
            reserved.rmdir()
        os.rename(hidden, reserved)  # POSIX renames a folder over an empty one at once
    except BaseException:
        with contextlib.suppress(OSError):
            reserved.rmdir()  # the name given back (an empty folder: rmdir never takes one that holds something)
        raise
    try:
        sync_folder(parent)
    except BaseException:
        with contextlib.suppress(OSError):  # hidden again: the caller, told it failed, removes it as not kept
            os.rename(reserved, hidden)
        raise
    return reserved


def remove_partials_left(parent: Path) -> list[Path]:
    """Remove the hidden files and folders of `parent` that processes of this machine that no longer run (killed
    part way, a power cut) were writing, each said in a warning logged; what was removed. Those of another machine,
    or of a process running now, are left be (hidden, they are never taken for a kept file). Done as far as it can
    be: a folder that cannot be written (a project on read-only media, listed) is left as it is."""
    removed: list[Path] = []
    try:
        left = sorted(parent.glob(f".*{_PARTIAL}*"))
    except OSError:
        return removed
    for path in left:
        pid = _dead_owner(path.name)
        if pid is None:
            continue
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
        except OSError as error:
            _log.warning("%s, left by process %d of this machine as it was writing it (it no longer runs: killed "
                         "part way?), could not be removed (%s)", hint_path(path), pid, error.strerror or error)
            continue
        _log.warning("removed %s, left by process %d of this machine as it was writing it (it no longer runs: "
                     "killed part way?)", hint_path(path), pid)
        removed.append(path)
    return removed


def write_new(folder: Path, stem: str, text: str) -> Path:
    """`text` in a new file `stem[-K].json` of `folder`, written through to the disk and never replacing a file;
    OSError when it cannot be written, FileExistsError when every name is taken. As `copy_database`'s copy, it is
    written under a hidden name first and given its own name only when whole: a process killed part way (or a
    power cut) leaves no empty or cut-short file under a name that looks kept (the hidden file it leaves is removed
    by the next copy into `folder` made on the same machine)."""
    folder.mkdir(parents=True, exist_ok=True)

    def write_text_synced(partial: Path) -> None:
        with open(partial, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
    return _written_in(folder, stem, ".json", write_text_synced)


def copy_database(database: Path, folder: Path, stem: str) -> Path:
    """A copy of the SQLite database at `database`, in a new file `stem[-K].db` of `folder`, never replacing a file:
    one consistent state (SQLite's online backup, read by a connection of its own: what was last committed, so the
    caller holds the write lock while it is made, before any change of its own), a file of its own (no write-ahead
    log beside it), written through to the disk. It is written under a hidden name first and given its own name
    only when whole, so that a process killed part way leaves no broken file under a name that looks kept (the
    hidden file it leaves is removed by the next copy into `folder` made on the same machine). OSError or
    sqlite3.Error when it cannot be made (a copy cut short is removed), FileExistsError when every name is taken."""
    folder.mkdir(parents=True, exist_ok=True)
    remove_partials_left(folder)
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
        sync_file(partial)
        path = name_file(partial, folder, _names(stem, ".db"))
    finally:
        for left in (partial, *_sidecars(partial)):  # SQLite's own files beside a copy cut short go with it
            left.unlink(missing_ok=True)
    return path


_PARTIAL = ".partial-"  # in the hidden name of a file or folder being written: `.STEM.partial-PID-HOST-TOKEN`
# What link() says on a file system without hard links: EPERM (Linux's FAT), ENOTSUP/EOPNOTSUPP (macOS's FAT, SMB
# shares), ENOSYS (some FUSE file systems), EMLINK; EINVAL on Windows, where FAT and exFAT drives answer
# CreateHardLink with ERROR_INVALID_FUNCTION (and shares that have none with ERROR_NOT_SUPPORTED), both EINVAL to
# Python. Not EXDEV: a file of another file system can be renamed no more than linked (`move_new` copies it).
_NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS, errno.EINVAL}


def _sidecars(database: Path) -> list[Path]:
    return [database.with_name(database.name + suffix) for suffix in SQLITE_SIDECARS]


def _here() -> str:
    return safe_name(socket.gethostname(), "host")


def _partial_name(stem: str) -> str:
    """A hidden name for a file or folder of `stem` being written, naming this process and machine."""
    return f".{stem}{_PARTIAL}{os.getpid()}-{_here()}-{secrets.token_hex(4)}"


def _new_partial(folder: Path, stem: str) -> Path:
    """A new, empty hidden file of `folder` to write a copy into, named after this process."""
    while True:
        partial = folder / _partial_name(stem)
        try:
            with open(partial, "x"):
                return partial
        except FileExistsError:
            continue


def _dead_owner(name: str) -> int | None:
    """The process of this machine that was writing the hidden file or folder `name` (`_partial_name`; SQLite's
    files beside a copy have its name and their suffix) when it no longer runs; else None (one running now, one of
    another machine, a name of no process)."""
    owner = name.rpartition(_PARTIAL)[2]
    for suffix in SQLITE_SIDECARS:
        owner = owner.removesuffix(suffix)
    pid, _, rest = owner.partition("-")
    host = rest.rpartition("-")[0]  # the token holds no "-"; a machine's name may
    if not pid.isdigit() or host != _here() or process_alive(socket.gethostname(), int(pid)):
        return None
    return int(pid)


def move_new(source: Path, folder: Path) -> Path:
    """The file `source` moved into `folder` under its own name, or `stem-K` of it when that is taken, never
    replacing a file there (two copies whose names hold the same time both stay), the new name written through to
    the disk (`name_file`). A file of another file system (a copy given from another drive) is copied there whole
    first, as `write_new` writes one."""
    folder.mkdir(parents=True, exist_ok=True)
    stem, suffix = source.name.removesuffix(source.suffix), source.suffix
    try:
        moved = name_file(source, folder, _names(stem, suffix))
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        moved = _copied_in(source, folder, stem, suffix)
    source.unlink(missing_ok=True)  # linked to its new name (or already renamed there, or copied)
    return moved


def _copied_in(source: Path, folder: Path, stem: str, suffix: str) -> Path:
    """A copy of `source` in a new file `stem[-K]SUFFIX` of `folder` (`_written_in`)."""

    def copy_synced(partial: Path) -> None:
        shutil.copyfile(source, partial)
        sync_file(partial)
    return _written_in(folder, stem, suffix, copy_synced)


def _written_in(folder: Path, stem: str, suffix: str, write: Callable[[Path], None]) -> Path:
    """A new file `stem[-K]SUFFIX` of `folder` that `write` fills and syncs: written under a hidden name first and
    named only when whole (`name_file`), never replacing a file."""
    remove_partials_left(folder)
    partial = _new_partial(folder, stem)
    try:
        write(partial)
        return name_file(partial, folder, _names(stem, suffix))
    finally:
        partial.unlink(missing_ok=True)  # linked to its name (or renamed there), or a copy cut short


def name_file(whole: Path, folder: Path, names: Sequence[str]) -> Path:
    """Give the whole file `whole` the first of `names` free in `folder`, never replacing a file, and write the
    name through to the disk: a hard link, which fails on a name taken; where the file system has none (FAT, some
    network shares), the name is first taken by an empty file, then the file renamed over it. A link refused for
    another reason, or a rename that fails, is raised as it is (OSError), the name given back: no empty file is
    left under a name that looks kept. FileExistsError when every name is taken. `whole` keeps its own name when
    linked: the caller removes it."""
    for name in names:
        path = folder / name
        try:
            os.link(whole, path)
        except FileExistsError:
            continue
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
            if not _renamed_over_an_empty_file(whole, path):
                continue
        sync_folder(folder)  # the name too survives a power cut
        return path
    raise FileExistsError(f"{hint_path(folder)} holds too many files named {names[0]}")


def _renamed_over_an_empty_file(whole: Path, path: Path) -> bool:
    """`whole` renamed to `path`, whose name is first taken by an empty file (so that no other writer takes it
    meanwhile); False when `path` is taken."""
    try:
        with open(path, "x"):
            pass
    except FileExistsError:
        return False
    try:
        os.replace(whole, path)
    except BaseException:
        if whole.exists():  # not renamed: the empty file is given back (an interrupt once it is leaves it named)
            path.unlink(missing_ok=True)
        raise
    return True


def _names(stem: str, suffix: str) -> list[str]:
    return [f"{stem}{f'-{k}' if k else ''}{suffix}" for k in range(_TRIES)]
