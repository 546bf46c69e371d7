"""Writing a file so that a crash leaves the old file or the new one, never half of one.

Every file RecordLens writes for the user (runs, exports, datasets, task files, site indexes, snapshots) goes
through here: a temporary file in the same folder, written and fsynced, given the mode a plain `open()` would
give it (0666 less the umask, not `mkstemp`'s 0600), renamed over the target, and the folder fsynced so that
the rename itself survives a power cut. (What the project's `removed/` keeps is placed otherwise, on purpose:
`store/removed_files.py` links a finished file under a name of its own, which fails where a rename would replace.)
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

__all__ = ["file_mode", "move_into_place", "sync_folder", "temporaries_of", "write_bytes", "write_text",
           "write_text_pieces", "copy_file"]


def write_bytes(path: str | Path, data: bytes, *, mode: int | None = None, durable: bool = True) -> Path:
    """Write `data` to `path` atomically; `mode` (default: from the umask) is set before the file appears.
    `durable=False` skips the fsyncs: a process stopped mid-write still leaves the old file or the new one, but a
    power cut may leave the old one or, on some file systems, an empty one (for what is rewritten often and is
    only a convenience, such as the app's settings, written on every page change; they read an empty file as
    the defaults)."""
    return _write_with(Path(path), lambda handle: handle.write(data), mode, durable)


def write_text(path: str | Path, text: str, *, mode: int | None = None, durable: bool = True) -> Path:
    return write_bytes(path, text.encode("utf-8"), mode=mode, durable=durable)


def write_text_pieces(path: str | Path, pieces: Iterable[str], *, mode: int | None = None) -> Path:
    """Write the text `pieces` to `path` atomically, each encoded (UTF-8) and written as it comes: a file too
    large to hold whole in memory (an export of a large project) is written in the memory of one piece. A process
    stopped part way leaves the old file or none, never part of the new one (its temporary file is removed, but
    for a kill -9, which leaves it hidden beside the target: `.NAME.*.tmp`, found by `temporaries_of`)."""
    return _write_with(Path(path), lambda handle: handle.writelines(piece.encode("utf-8") for piece in pieces), mode)


def copy_file(source: str | Path, path: str | Path, *, mode: int | None = None) -> Path:
    """Copy `source` to `path` atomically (the copy gets the umask's mode, whatever the source's)."""
    with open(source, "rb") as original:
        return _write_with(Path(path), lambda handle: shutil.copyfileobj(original, handle), mode)


def _write_with(target: Path, write: Callable[[BinaryIO], object], mode: int | None, durable: bool = True) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=_temporary_prefix(target), suffix=_TEMPORARY_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        move_into_place(Path(temporary), target, mode=mode, durable=durable)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


_TEMPORARY_SUFFIX = ".tmp"
# mkstemp's random part: 8 characters of this set (Python's tempfile, unchanged since 3.0)
_RANDOM_PART = "[a-z0-9_]{8}"


def _temporary_prefix(target: Path) -> str:
    return f".{_short_enough(target.name)}."


def temporaries_of(target: str | Path) -> list[Path]:
    """The temporary files beside `target` that writes of it made and did not finish (a kill -9 leaves them):
    the regular files named exactly as `_write_with` names them for `target` (`.NAME.RANDOM.tmp`), and no other,
    not even those of a target whose name starts with this one's (`.labels.jsonl.old.RANDOM.tmp`)."""
    target = Path(target)
    pattern = re.compile(re.escape(_temporary_prefix(target)) + _RANDOM_PART + re.escape(_TEMPORARY_SUFFIX))
    try:
        entries = list(os.scandir(target.parent))
    except OSError:  # no folder yet (nothing was written there), or not ours to read
        return []
    return sorted(Path(entry.path) for entry in entries
                  if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False))


_NAME_BYTES = 255  # the longest file name most file systems take (ext4, btrfs, xfs, tmpfs), in bytes
_TEMPORARY_BYTES = len(". .12345678.tmp")  # what mkstemp's prefix dots, random part and suffix add


def _short_enough(name: str) -> str:
    """`name` for a temporary file's name, its stem cut short (at a character) where the whole would pass the
    file system's limit: a page named with 245 bytes is a legal file, and its temporary file must be one too.
    The suffix stays, so that what looks for unfinished writes (`.N.json.*`) still finds them. Lengths are of the
    name's bytes on disk (`os.fsencode`): a name that is not valid UTF-8 (its bytes kept as surrogates) is one
    too, and must not stop the write."""
    room = _NAME_BYTES - _TEMPORARY_BYTES
    if _bytes(name) <= room:
        return name
    stem, suffix = os.path.splitext(name)
    if _bytes(suffix) > room // 2:  # a "suffix" that is most of the name: cut the whole name
        stem, suffix = name, ""
    return f"{_cut_to(stem, room - _bytes(suffix) - 1)}~{suffix}"


def _bytes(name: str) -> int:
    return len(os.fsencode(name))


def _cut_to(text: str, size: int) -> str:
    """The longest start of `text` (whole characters) whose bytes on disk fit in `size`."""
    kept = 0
    for end, character in enumerate(text):
        kept += _bytes(character)
        if kept > size:
            return text[:end]
    return text


def move_into_place(written: Path, target: Path, *, mode: int | None = None, durable: bool = True) -> None:
    """Rename a finished file (in `target`'s folder) over `target`, with its mode set and the folder synced
    (unless not `durable`)."""
    os.chmod(written, file_mode() if mode is None else mode)
    os.replace(written, target)
    if durable:
        sync_folder(target.parent)


def file_mode() -> int:
    """The mode a new file gets from `open()` in this process: 0666 less the umask."""
    return 0o666 & ~_umask()


def folder_mode() -> int:
    """The mode a new folder gets from `mkdir()` in this process: 0777 less the umask."""
    return 0o777 & ~_umask()


def _umask() -> int:
    # Linux states the umask without changing it; elsewhere set-and-restore is the only way to read it.
    with contextlib.suppress(OSError, ValueError), open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    current = os.umask(0o022)
    os.umask(current)
    return current


def sync_file(path: Path) -> None:
    """The file at `path`, written by other means (a copy, SQLite), written through to the disk."""
    with open(path, "rb") as written:
        os.fsync(written.fileno())


def sync_folder(folder: Path) -> None:
    if os.name != "posix":
        return  # Windows cannot open a folder for fsync; its rename is durable enough for our purposes
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
