"""What kind of file a path names, read from its mode: a regular file, or what else a user may have given.

Reading a FIFO waits for a writer forever and a device may never end, so every reader of a user's file reads
it through `read_regular_file`, which asks first (and again on the opened file, in case the name was swapped in
between).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

__all__ = ["NotRegularFile", "TooLarge", "not_a_file", "not_a_page_file", "not_regular", "other_kind",
           "read_regular_file"]


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


def not_regular(mode: int) -> str | None:
    """None for a regular file; otherwise the phrase a message gives it: "a FIFO (named pipe), not a regular
    file", or just "not a regular file" when the kind has no name of its own."""
    kind = other_kind(mode)
    if kind is None or kind == "not a regular file":
        return kind
    return f"{kind}, not a regular file"


class NotRegularFile(OSError):
    """A path that names something other than a regular file; `kind` is what it is (`other_kind`)."""

    def __init__(self, kind: str, phrase: str) -> None:
        super().__init__(errno.EINVAL, phrase)
        self.kind = kind


class TooLarge(OSError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size:,} bytes, more than the limit of {limit:,} bytes")
        self.size, self.limit = size, limit


def _refuse_other_kinds(mode: int) -> None:
    phrase = not_regular(mode)
    if phrase is not None:
        raise NotRegularFile(other_kind(mode) or "", phrase)


def read_regular_file(path: str | Path, max_bytes: int | None = None) -> bytes:
    """A regular file's bytes; anything else raises NotRegularFile before a byte is read and without waiting
    (O_NONBLOCK: opening a FIFO would otherwise wait for a writer, forever), and a file over `max_bytes` raises
    TooLarge. The mode is asked before opening and again of the open file, in case the name was swapped in
    between; a file that grows past the limit after that check is still cut off and refused."""
    _refuse_other_kinds(os.stat(path).st_mode)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as stream:
        status = os.fstat(stream.fileno())
        _refuse_other_kinds(status.st_mode)
        if max_bytes is None:
            return stream.read()
        if status.st_size > max_bytes:
            raise TooLarge(status.st_size, max_bytes)
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(len(data), max_bytes)
    return data


def not_a_file(path: Path, what: str) -> str | None:
    """Why `path` cannot be read as a `what` ("page file", "records file"): "a folder, not a records file", a FIFO,
    a symlink loop, a dangling link, no such file...; None for a regular file. Only the mode is asked, nothing is
    opened: a FIFO is not waited on, and a folder is said as such on every system (reading one is refused as
    "permission denied" on Windows)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to a file that does not exist" if path.is_symlink() else "no such file or folder"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link loop"
        return f"cannot be read ({error.strerror or error})"
    if other_kind(mode) == "a folder":
        return f"a folder, not a {what}"
    return not_regular(mode)


def not_a_page_file(path: Path) -> str | None:
    """Why `path` cannot be a page file (a folder, a FIFO, a symlink loop, a dangling link...), or None."""
    return not_a_file(path, "page file")
