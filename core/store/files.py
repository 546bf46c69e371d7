"""Snapshot files in a project: content-addressed by sha256, written atomically, read-only once stored.

`snapshots/ab/abcdef....mhtml`: the two-character folder keeps any one directory small. Identical bytes are
stored once however many pages or imports refer to them, and a stored file is never rewritten, so a label
made on a page can always be checked against exactly the page it was made on.

A write that is stopped (a kill -9 mid-import) leaves its hidden temporary file (`.HASH.html.RANDOM.tmp`). Each
write holds a shared lock on `snapshots/` while it writes; the next import takes that lock exclusively for a
moment and, when no write holds it, removes every leftover at once. Where the lock cannot be had (another import
writing now, or a file system without such locks) only leftovers untouched for minutes are removed, their age
judged on the folder's own clock: on a network share two machines use, a file's times are the server's, and
this machine's clock minutes off it must neither remove the other machine's write in flight nor keep a
leftover for ever. The same age, on the same clock, judges the leftovers of a killed JSONL or CSV export
(`remove_stale_files`), which the next export of that file removes.

The same lock guards a page's copy until its row names it (`snapshot_held`): an import shares it from before it
looks for the copy until its row is written, so that the copy it finds stored (the same bytes, another import's) is
not taken away meanwhile by the clean-up of that other import, whose row failed (a full disk): the clean-up takes
the lock alone, and removes only a copy it wrote itself that no row names.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: leftovers are removed by age alone
    fcntl = None  # type: ignore[assignment]

from .. import atomic
from ..errors import shortened
from .db import StoreError

SNAPSHOTS = "snapshots"
# A temporary snapshot file untouched this long belongs to a write that was stopped (a write touches its file
# as it goes); younger ones may be another import's, running now, and are left alone.
STALE_TEMPORARY_S = 300.0
# The file made for a moment to read the folder's clock (`_folder_now`): hidden, so a project's copy skips it.
_PROBE = ".clock."


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def snapshot_path(root: Path, digest: str, suffix: str) -> Path:
    """Where the saved copy of hash `digest` is; a StoreError when `digest` or `suffix` (read from the database, or
    from a removed page's copy, which may have been edited) is not of the form a stored file's name has, which
    could name a file outside `snapshots/` (`../../x`)."""
    problem = snapshot_name_problem(digest, suffix)
    if problem is not None:
        raise StoreError(problem)
    return root / SNAPSHOTS / digest[:2] / f"{digest}{suffix}"


def stored_file(root: Path, digest: str, suffix: str) -> Path | None:
    """The stored file a name that may be no stored file's names, or None when there is none: a trajectory step's
    screenshot is named by whatever wrote the trajectory (`step-1` in a file of someone's), so a name that is no
    hash is no fault there, only no screenshot of the project. (A snapshot row's hash is asked of `snapshot_path`,
    which refuses one that is not a hash: the project itself wrote it.)"""
    if snapshot_name_problem(digest, suffix) is not None:
        return None
    path = snapshot_path(root, digest, suffix)
    return path if path.is_file() else None


def snapshot_name_problem(digest: str, suffix: str) -> str | None:
    """Why `digest` and `suffix` name no stored file (a sha256 in lower-case hex, as `content_hash` writes it, and
    a suffix such as `.mhtml`), or None."""
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        return (f"{shortened(repr(digest))} is not the name of a saved copy (the {_DIGEST_LENGTH} hex digits of its "
                "sha256): the project's database or the copy it was read from was changed by hand")
    if not isinstance(suffix, str) or not _SUFFIX.fullmatch(suffix):
        return (f"{shortened(repr(suffix))} is not the suffix of a saved copy (such as .html or .mhtml): the "
                "project's database or the copy it was read from was changed by hand")
    return None


_DIGEST_LENGTH = 64  # hex digits of a sha256
_DIGEST = re.compile(f"[0-9a-f]{{{_DIGEST_LENGTH}}}")
_SUFFIX = re.compile(r"(\.[A-Za-z0-9]{1,16})?")  # ".mhtml", ".png"; no separator, no "..": inside its folder


def store_snapshot(root: Path, data: bytes, suffix: str) -> str:
    """Write `data` under its hash unless it is already there; returns the hash. A write that fails raises its
    OSError naming the file it was to be (the system names none for a write refused part way: a full disk, a
    file-size limit), so that what is said of it is said of the project's copy, not of the page read. A page's copy,
    which its import takes away again should the page's row fail, is stored inside `snapshot_held`."""
    digest = content_hash(data)
    path = snapshot_path(root, digest, suffix)
    made = not path.parent.exists()
    try:
        with _writers_lock(root, exclusive=False, wait=True):
            if path.is_file() and path.stat().st_size == len(data):  # looked at under the lock (`snapshot_held`)
                return digest
            # Read-only tells people and tools that a stored snapshot is evidence, not a working copy.
            atomic.write_bytes(path, data, mode=atomic.file_mode() & (stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH))
    except OSError as error:
        if made:
            _remove_if_empty(root, path.parent)
        if error.filename is None:
            raise OSError(error.errno, error.strerror, str(path)) from error
        raise
    return digest


@contextmanager
def snapshot_held(root: Path, digest: str, suffix: str, *, named: Callable[[str], bool]) -> Iterator[None]:
    """Hold the saved copy of hash `digest` while the body of the `with` stores it (`store_snapshot`) and writes the
    row that names it: the writers' lock is shared from before the copy is looked for until that row is written, so
    that the clean-up of another import of the same bytes, whose row failed (it takes the lock alone), cannot take
    away the copy this one found stored and is about to name. Should the body fail, the copy is taken away again
    (`_remove_unused_snapshot`) if it was not there before it and no row names it then (`named`, asked of its
    hash); so is a snapshot folder the body made and left empty."""
    there_before = True
    try:
        with _writers_lock(root, exclusive=False, wait=True):
            there_before = stored_file(root, digest, suffix) is not None
            yield
    except BaseException:
        if not there_before:  # its row not stored (a full disk, a file-size limit, Ctrl+C): the copy may be no page's
            _remove_unused_snapshot(root, digest, suffix, named)
        raise


def _remove_unused_snapshot(root: Path, digest: str, suffix: str, named: Callable[[str], bool]) -> bool:
    """Remove the saved copy of hash `digest` that an import wrote for a page whose row could then not be stored (its
    database full, or at a file-size limit), unless `named` (the database names it: another page of those bytes) or
    a write is under way (another import's, which may have found this copy stored and be about to name it: see
    `snapshot_held`): a copy no row names is no page's, and a full disk or a limit met would otherwise leave one
    behind each time. Whether removed (or was never there)."""
    path = snapshot_path(root, digest, suffix)
    with _writers_lock(root, exclusive=True, wait=False) as no_writer:
        if not no_writer or named(digest):
            return False
        try:
            path.unlink()
        except FileNotFoundError:
            pass  # never written (the write failed): its folder, if it made one, goes all the same
        except OSError:
            return False  # not ours to remove: left as it is
        with contextlib.suppress(OSError):  # the folder holds other copies: kept
            path.parent.rmdir()
        return True


def _remove_if_empty(root: Path, folder: Path) -> None:
    """Remove a snapshot folder a failed write made (a full disk) and left empty; only while no other write is
    under way (the cleaning's lock), which might be about to write into it."""
    with _writers_lock(root, exclusive=True, wait=False) as no_writer:
        if no_writer:
            with contextlib.suppress(OSError):  # not empty after all, or gone: left as it is
                folder.rmdir()


def remove_stale_temporaries(root: Path, older_than_s: float = STALE_TEMPORARY_S) -> int:
    """Remove the temporary files (`.NAME.*.tmp`, see core/atomic) of snapshot writes that never finished: all of
    them when no write is under way, else those untouched for `older_than_s`; returns how many were removed (a
    clock probe a killed cleaning left, see `_folder_now`, is removed too but not counted: it held no snapshot)."""
    if not (root / SNAPSHOTS).is_dir():
        return 0
    with _writers_lock(root, exclusive=True, wait=False) as no_writer:
        return _remove_temporaries(root, 0.0 if no_writer else older_than_s)


def _remove_temporaries(root: Path, older_than_s: float) -> int:
    removed = 0
    folder = root / SNAPSHOTS
    # When no write is under way every one goes, whatever its time says (a file from a clock ahead, too).
    now = _folder_now(folder) if older_than_s else math.inf
    for temporary in folder.glob("*/.*.tmp"):
        removed += _remove_if_stale(temporary, now, older_than_s) is not None
    # The top level holds no snapshot, only the clock's probe a cleaning killed in its instant may have left: it
    # goes too, uncounted, since the count tells of snapshot writes an import left unfinished.
    for probe in folder.glob(f"{_PROBE}*.tmp"):
        _remove_if_stale(probe, now, older_than_s)
    return removed


class Removed(NamedTuple):
    """What a cleaning removed: how many files, and their size in bytes."""

    files: int
    size: int


def remove_stale_files(paths: Sequence[Path], folder: Path, older_than_s: float = STALE_TEMPORARY_S) -> Removed:
    """Remove those of `paths` (temporary files in `folder`, which a write running now may be streaming into)
    untouched for `older_than_s`, their age judged on `folder`'s own clock as the snapshots' leftovers are (see
    the module notes): a write in flight touches its file as it goes and is left alone."""
    if not paths:
        return Removed(0, 0)  # nothing to judge: no clock probe made in the folder
    now = _folder_now(folder)
    sizes = [size for path in paths if (size := _remove_if_stale(path, now, older_than_s)) is not None]
    return Removed(len(sizes), sum(sizes))


def _remove_if_stale(temporary: Path, now: float, older_than_s: float) -> int | None:
    """Remove `temporary` if untouched for `older_than_s` by the time `now`; its size if removed, else None."""
    try:
        found = temporary.lstat()
        if now - found.st_mtime >= older_than_s:
            temporary.unlink()
            return found.st_size
    except OSError:
        pass  # gone already (another import cleaned it, or its write finished), or not ours to remove
    return None


def _folder_now(folder: Path) -> float:
    """The time now by the clock that stamps `folder`'s files: a new file's modification time (the file server's
    clock on a share), read from the open file so that another cleaning removing it cannot take it away; this
    machine's clock where the folder takes no new file (nothing could be removed from it either)."""
    try:
        fd, probe = tempfile.mkstemp(prefix=_PROBE, suffix=".tmp", dir=folder)
    except OSError:
        return time.time()
    try:
        return os.fstat(fd).st_mtime
    finally:
        os.close(fd)  # before the unlink, which Windows refuses for an open file
        with contextlib.suppress(OSError):  # gone already (another cleaning), or left to the next one
            os.unlink(probe)


@contextmanager
def _writers_lock(root: Path, *, exclusive: bool, wait: bool) -> Iterator[bool]:
    """The lock on `snapshots/` that writes share and the cleaning takes alone (flock on the folder, freed by the
    system however its holder ends); yields whether it is held. Not waited for unless `wait`; never held where
    the system has no such lock (Windows, or a file system that refuses it): a write then goes ahead as before."""
    folder = root / SNAPSHOTS
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        yield _flock(fd, exclusive, wait)
    finally:
        os.close(fd)  # gives the lock back


def _flock(fd: int, exclusive: bool, wait: bool) -> bool:
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | (0 if wait else fcntl.LOCK_NB))
    except OSError:
        return False
    return True
