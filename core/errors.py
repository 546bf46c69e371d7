"""The one exception family RecordLens raises for bad input: callers show `str(error)` to a person; and the one
wording of a full disk, which every write can meet, and of a system's error (`os_error_said`)."""

import errno
import os

from .command_hints import hint_path


class RecordLensError(Exception):
    """Base class: the message is a complete sentence a user can act on."""


class SnapshotError(RecordLensError):
    """A saved page (MHTML or HTML) cannot be read: truncated, not multipart, undecodable, too large..."""


class DatasetError(RecordLensError):
    """A dataset or run folder does not have the expected layout, or a records file is malformed."""


class AgentError(RecordLensError):
    """Something about a task, a trajectory or an episode that a person can fix or should know."""


def shortened(text: str, limit: int = 80) -> str:
    """A piece of input quoted in a message, cut to `limit` characters (a MIME boundary can be a million long)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


# What reading a file may meet for a moment (a flaky share, too many files open): a command stops, to be run again,
# rather than take the file for one that cannot be read (and give figures over fewer pages)
FOR_A_MOMENT = frozenset({errno.EIO, errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN, errno.EINTR,
                          errno.ETIMEDOUT, errno.ESTALE})


def is_for_a_moment(error: BaseException) -> bool:
    """Whether `error` is a read error that the same command may not meet again (`FOR_A_MOMENT`)."""
    return isinstance(error, OSError) and error.errno in FOR_A_MOMENT


def is_disk_full(error: BaseException) -> bool:
    """Whether a write failed because its disk (or the user's quota on it) is full."""
    return isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)


def full_disk(where: object | None, *, detail: str | None = None, then: str = "") -> str:
    """A full disk in one wording wherever it is met: the disk that holds `where` (a folder, named as a hint names a
    path, `hint_path`; or words such as "the project"; None: a disk not known), why when known (`detail`: the
    system's words, or the space left), and, with `then`, what to do once space is freed ("run the same command
    again: ...")."""
    named = hint_path(where) if isinstance(where, os.PathLike) else where
    disk = f"the disk that holds {named}" if named is not None else "a disk"
    said = f"{disk} is full" + (f" ({detail})" if detail else "")
    return f"{said}; free space and {then}" if then else said


def system_words(error: BaseException) -> str:
    """What `error` says, without the path Python's OSError repeats (`[Errno 13] Permission denied: '...'`): an
    OSError's own words (`strerror`), any other error as it says it. For a message that names the file itself."""
    return error.strerror if isinstance(error, OSError) and error.strerror else str(error)


def os_error_said(error: OSError) -> str:
    """A system's error in the one wording of every message that has only the error to go by: the file it names, as
    a hint names a path (`hint_path`), then its own words (`system_words`), not Python's
    `[Errno 5] Input/output error: '/x/y'`. Of a failed rename, the file it was to become (the error's second: the
    first is a temporary file of ours); an error that names no file (a full disk met by a write) is its words alone."""
    named = error.filename2 or error.filename
    return f"{hint_path(named)}: {system_words(error)}" if named else system_words(error)


def said_without_path(error: BaseException, path: object) -> str:
    """What `error` says of the file `path` without the path it begins with (`PATH: why`), for a message that names
    the file itself: the path as given, or as a hint names it (`hint_path`), as the error's module writes it."""
    said = str(error)
    for named in (hint_path(path), str(path)):
        if said.startswith(f"{named}: "):
            return said.removeprefix(f"{named}: ")
    return said
