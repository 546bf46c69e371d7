"""Owner files: a file in a folder that says which process, on which host, is working in it (a capture's lock, a
project copy being made), so that a second process can tell a live owner from one that was killed."""

from __future__ import annotations

import os
import socket

__all__ = ["owner_line", "process_alive"]


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
