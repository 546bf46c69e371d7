"""Owner files: a file in a folder that says which process, on which host, is working in it (a site capture's
lock, a project copy being made), so that a second process can tell a live owner from one that was killed.

A lock (`take`, `release`) is an owner file created with O_EXCL: of two processes racing for it, one gets it. A
lock whose process is gone is taken over; one still being written (created, its line not yet in it) counts as
held."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

__all__ = ["Held", "holder", "owner_line", "process_alive", "release", "take"]

# An empty lock file younger than this is being written by its process (made, not written yet).
_EMPTY_LOCK_S = 10.0
_NO_PID = 0  # the pid of an owner that never wrote its line (killed between creating and writing the file)


class Held(Exception):  # noqa: N818 - a state, not a failure
    """The lock is held by a live process: `owner` (host, pid), or None while its owner is writing it."""

    def __init__(self, owner: tuple[str, int] | None) -> None:
        super().__init__(f"held by {owner}")
        self.owner = owner


def owner_line() -> str:
    """What an owner file holds: this host's name and this process's id."""
    return f"{socket.gethostname()} {os.getpid()}\n"


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


def holder(path: Path) -> tuple[str, int] | None | bool:
    """Who holds the lock at `path`: (host, pid) of a live process, None while its owner is writing it, False
    when no live process does (no file, or its process is gone)."""
    try:
        host, pid = path.read_text(encoding="utf-8").split()
        owner = (host, int(pid))
    except FileNotFoundError:
        return False
    except (OSError, ValueError):
        try:
            young = time.time() - path.stat().st_mtime < _EMPTY_LOCK_S
        except FileNotFoundError:
            return False
        if young:
            return None
        owner = (socket.gethostname(), _NO_PID)
    return owner if process_alive(*owner) else False


def take(path: Path) -> list[tuple[str, int]]:
    """Take the lock at `path` for this process; returns the owners of stale locks taken over (their process is
    gone: (host, 0) for one killed before it wrote its line). Raises `Held` when a live process holds it."""
    stale: list[tuple[str, int]] = []
    for _attempt in range(3):
        if _create(path):
            return stale
        try:
            text = path.read_text(encoding="utf-8").split()
            owner = (text[0], int(text[1]))
        except FileNotFoundError:
            continue  # released meanwhile: try again
        except (OSError, ValueError, IndexError):
            owner = (socket.gethostname(), _NO_PID)
        alive = holder(path)
        if alive is not False:
            raise Held(alive)
        stale.append(owner)
        path.unlink(missing_ok=True)
    raise Held(None)


def release(path: Path) -> None:
    path.unlink(missing_ok=True)


def _create(path: Path) -> bool:
    try:
        handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(handle, "w", encoding="utf-8") as lock:
        lock.write(owner_line())
    return True
