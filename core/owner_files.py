"""Owner files: a file in a folder that says which process, on which host, is working in it (a site capture's
lock, a project copy being made), so that a second process can tell a live owner from one that was killed.

A lock (`take`, `release`, `holder`) is such a file that its process also holds an operating-system lock on
(flock; on Windows a locked byte): the system lets one process hold it, and frees it when the process ends,
however it ends, so a killed owner never leaves a lock that looks held, and a reused process id fools nothing.
The line in the file only names the holder in messages, and what it is doing when its taker said (`purpose`: one
lock guarding two kinds of work, say which holds it). Where the file system offers no such lock (some SMB or FUSE
mounts), `take` raises the system's error rather than `Held`, and `holder` judges the file by its line alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl

__all__ = ["Held", "Lock", "holder", "owner_line", "owner_named", "process_alive", "purpose_of", "release", "take",
           "taken_over"]

_WINDOWS_BYTE = 1 << 20  # the byte locked on Windows: far from the owner line, which stays readable
# What the system says when another process holds the lock (flock: EWOULDBLOCK, which is EAGAIN on Linux; EACCES
# on some; msvcrt: EACCES, or EDEADLOCK). Any other error says the lock cannot be had here at all (ENOLCK, say).
_HELD_ERRORS = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES} | (
    {errno.EDEADLOCK} if os.name == "nt" else set())  # (on Linux EDEADLOCK is a record lock's deadlock)


class Held(Exception):  # noqa: N818 - a state, not a failure
    """Another process holds the lock: `owner` (host, pid) as its file names it, None when it names none; `purpose`,
    what its line says it is doing ("" when it says nothing)."""

    def __init__(self, owner: tuple[str, int] | None, purpose: str = "") -> None:
        super().__init__(f"held by {owner}")
        self.owner = owner
        self.purpose = purpose


@dataclass
class Lock:
    """A lock this process holds (`take`), until `release`."""

    path: Path
    fd: int
    stale: list[tuple[str, int]]  # owners named by the file of a holder that ended without releasing (killed)
    stale_purpose: str = ""  # what that holder's line said it was doing ("" when it said nothing)


def owner_named(owner: tuple[str, int] | None) -> str:
    """The holder of a lock as a message names it: "process 4242 on host", or "another process" when its file
    names none."""
    return f"process {owner[1]} on {owner[0]}" if owner and owner[1] > 0 else "another process"


def taken_over(lock: Lock, whose: str) -> list[str]:
    """What to say of a lock `take` took over from a holder that ended without releasing it (killed), one line
    per such holder ([] for none): `whose` names its work, "an extract into run" ("... by process 4242 ended ...")."""
    return [f"{whose} by process {pid} ended without releasing its lock (it was killed); the lock is taken over"
            for _, pid in lock.stale]


def owner_line(purpose: str = "") -> str:
    """What an owner file holds: this host's name and this process's id, and what it is doing (`purpose`, if said)."""
    return f"{socket.gethostname()} {os.getpid()}{f' {purpose}' if purpose else ''}\n"


def process_alive(host: str, pid: int) -> bool:
    """Whether process `pid` of `host` runs. Another host's cannot be asked, so it is assumed to; a process of
    another user answers with a refusal, which means it runs."""
    if host != socket.gethostname():
        return True
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def take(path: Path, *, purpose: str = "", attempts: int = 5, pause_s: float = 0.05) -> Lock:
    """Take the lock at `path` for this process, its line saying `purpose` (what it holds it for, when the lock
    guards more than one kind of work); raises `Held` when another process holds it, and OSError when the lock
    cannot be had at all (its folder missing or read-only, a file system without locks: ENOLCK). A lock held only
    for a moment (another process looking who holds it, a holder releasing it) is tried again `attempts` times,
    `pause_s` apart."""
    for attempt in range(attempts):
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o644)
        try:
            locked = _lock(fd)
        except OSError:
            os.close(fd)
            raise
        if not locked:
            os.close(fd)
            if attempt == attempts - 1:
                raise Held(*_line(path))
            time.sleep(pause_s)
            continue
        if not _still_the_path(fd, path):
            os.close(fd)  # its holder released it (removed the file) between our open and our lock: again
            continue
        try:
            before, doing = _line(path)  # a line left by a holder that did not release: it was killed
            os.lseek(fd, 0, os.SEEK_SET)  # (Windows' lock moved the position to its far byte)
            os.ftruncate(fd, 0)
            os.write(fd, owner_line(purpose).encode("utf-8"))
        except OSError:  # a full disk, say: the lock is given back, not kept by a file descriptor lost, and its
            release(Lock(path, fd, []))  # file removed, as ours (a folder made for the work is left empty)
            raise
        return Lock(path, fd, [before] if before is not None else [], doing if before is not None else "")
    raise Held(*_line(path))


def release(lock: Lock) -> None:
    """Give the lock up and remove its file (before unlocking, where the system allows: a process waiting on
    the old file then sees that it is no longer the path's, and takes the next one)."""
    if os.name == "nt":  # pragma: no cover - an open file cannot be removed on Windows
        with contextlib.suppress(OSError):
            os.lseek(lock.fd, _WINDOWS_BYTE, os.SEEK_SET)
            msvcrt.locking(lock.fd, msvcrt.LK_UNLCK, 1)
        os.close(lock.fd)
        with contextlib.suppress(OSError):
            lock.path.unlink()
        return
    with contextlib.suppress(FileNotFoundError):
        lock.path.unlink()
    os.close(lock.fd)


def holder(path: Path) -> tuple[str, int] | None | bool:
    """Who holds the lock at `path`: False when no process does; else (host, pid) as its file names it, or None
    when it names none. Looking takes the lock for a moment (a `take` meanwhile tries again); a file this process
    may only read (another user's), or one on a file system without locks, is judged by its line alone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return False
    except OSError:
        return _live_owner(path)
    try:
        if _lock(fd):
            return False
        return _owner(path)
    except OSError:
        return _live_owner(path)
    finally:
        os.close(fd)  # closing the file gives back a lock taken here to look


def _live_owner(path: Path) -> tuple[str, int] | bool:
    """The owner its line names, if that process runs (a reused process id fools this): False otherwise."""
    owner = _owner(path)
    return owner if owner is not None and process_alive(*owner) else False


def _lock(fd: int) -> bool:
    """Lock the open file without waiting; False when another process holds it. Raises the OSError of a lock
    that cannot be had here (ENOLCK, EOPNOTSUPP: a file system without locks), which is no holder."""
    try:
        if os.name == "nt":  # pragma: no cover
            os.lseek(fd, _WINDOWS_BYTE, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        else:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in _HELD_ERRORS:
            return False
        raise
    return True


def _still_the_path(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False


def purpose_of(path: Path) -> str:
    """What the lock's line at `path` says its holder is doing ("" when it says nothing, or there is no line)."""
    return _line(path)[1]


def _owner(path: Path) -> tuple[str, int] | None:
    return _line(path)[0]


def _line(path: Path) -> tuple[tuple[str, int] | None, str]:
    """The owner (host, pid) the file's line names, None when it names none; and the purpose it says, or ""."""
    try:
        host, pid, *purpose = path.read_text(encoding="utf-8").strip().split(maxsplit=2)
        return (host, int(pid)), "".join(purpose)
    except (OSError, ValueError):
        return None, ""
