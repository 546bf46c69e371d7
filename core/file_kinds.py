"""What kind of file a path names, read from its mode: a regular file, or what else a user may have given.

Reading a FIFO waits for a writer forever and a device may never end, so every reader of a user's file asks
first (and again on the opened file, in case the name was swapped in between).
"""

from __future__ import annotations

import stat

__all__ = ["other_kind"]


def other_kind(mode: int) -> str | None:
    """None for a regular file; otherwise what it is, as a message says it ("a folder", "a FIFO (named pipe)",
    "a socket", "a device", or "not a regular file" for anything else)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"
