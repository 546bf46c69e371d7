"""What kind of file a path names, read from its mode: a regular file, or what else a user may have given.

Reading a FIFO waits for a writer forever and a device may never end, so every reader of a user's file reads
it through `read_regular_file` (or, to stream it or read only its start, `open_regular_file` and `read_start`),
which asks first (and again on the opened file, in case the name was swapped in between). A file of a SQLite
database that may be open is told by the names beside it, or, under another name (a hard link), by its device and
inode being those of a database this process opened, never by opening it (`sqlite_file_in_use`); none of these
readers opens them.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
import weakref
from pathlib import Path
from typing import BinaryIO

from .command_hints import hint_path
from .wording import with_article

__all__ = ["SQLITE_SIDECARS", "DatabaseFile", "NotRegularFile", "TooLarge", "database_closed", "database_opened",
           "link_to_nothing", "not_a_file", "not_a_page_file", "not_regular", "open_regular_file", "other_kind",
           "read_regular_file", "read_start", "sqlite_file_in_use", "unreadable_kind"]

# The files SQLite keeps beside a database X: X-journal while it writes one (rollback mode), X-wal and X-shm (its
# write-ahead log and the log's shared index) while any connection has it open in WAL mode, as a project's is kept
SQLITE_SIDECARS = ("-journal", "-wal", "-shm")
_SIDECAR_NAMES = {"-journal": "rollback journal", "-wal": "write-ahead log", "-shm": "shared-memory index"}
# The databases this process has open, each by the path it was opened at, kept until its connection is closed or its
# object is freed (`database_opened`): another name of one of their files (a hard link) is told by its device and
# inode.
_OPEN_DATABASES: weakref.WeakKeyDictionary[object, Path] = weakref.WeakKeyDictionary()
_OPEN_DATABASES_LOCK = threading.Lock()  # the app's jobs open and close projects in threads of their own


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


class DatabaseFile(OSError):
    """A file of a SQLite database that may be open (`sqlite_file_in_use`), refused before it is opened."""

    def __init__(self, phrase: str) -> None:
        super().__init__(errno.EBUSY, phrase)


class TooLarge(OSError):
    def __init__(self, size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size:,} bytes, more than the limit of {limit:,} bytes")
        self.size, self.limit = size, limit


def _refuse_other_kinds(mode: int) -> None:
    phrase = not_regular(mode)
    if phrase is not None:
        raise NotRegularFile(other_kind(mode) or "", phrase)


def open_regular_file(path: str | Path) -> BinaryIO:
    """A regular file opened to be read in binary, for a reader that streams it (hashes it in chunks) or reads
    only its start; the caller closes it (a `with` block). Anything else raises NotRegularFile before it is opened
    and without waiting (O_NONBLOCK: opening a FIFO would otherwise wait for a writer, forever); the mode is asked
    again of the open file, in case the name was swapped in between. A symbolic link to nothing raises
    FileNotFoundError saying so (`link_to_nothing`), not "No such file or directory" of a name that is there. A
    file of a database SQLite may have open raises DatabaseFile, and is not opened (`sqlite_file_in_use`: closing
    it would drop this process's own locks on it, were it the database this process has open)."""
    _refuse_other_kinds(_mode(path))
    if (database := sqlite_file_in_use(Path(path))) is not None:
        raise DatabaseFile(database)
    # O_BINARY on Windows, whose os.open reads text otherwise (line ends changed, a Ctrl+Z taken for the end)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    stream = os.fdopen(fd, "rb")
    try:
        _refuse_other_kinds(os.fstat(fd).st_mode)
    except BaseException:
        stream.close()
        raise
    return stream


def read_regular_file(path: str | Path, max_bytes: int | None = None) -> bytes:
    """A regular file's bytes, opened by `open_regular_file` (which refuses anything else, and a file of an open
    database, unopened). A file over `max_bytes` raises TooLarge, as does one that grows past the limit after its
    size was asked (read no further than one byte past it)."""
    with open_regular_file(path) as stream:
        if max_bytes is None:
            return stream.read()
        size = os.fstat(stream.fileno()).st_size
        if size > max_bytes:
            raise TooLarge(size, max_bytes)
        data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(len(data), max_bytes)
    return data


def read_start(path: str | Path, size: int) -> bytes:
    """The first `size` bytes of a regular file (all of a shorter one), the rest never read: what tells a file's
    format. Opened by `open_regular_file`, as `read_regular_file` opens it."""
    with open_regular_file(path) as stream:
        return stream.read(size)


def unreadable_kind(path: str | Path, error: OSError, what: str) -> str | None:
    """What the `what` ("tasks file", "records file") at `path` is, when that is why `read_regular_file` raised
    `error`, as a message says it after the file's name: "a folder, not a tasks file", "a FIFO (named pipe), not a
    regular file", "another name (a hard link) of /p/project.db, a database in use (...), not a tasks file", "a
    symbolic link to a file that does not exist (../moved.jsonl)", "a symbolic link loop", "no such tasks file";
    None when the error says nothing of what it is (permissions, a failing disk: the caller gives its words)."""
    if isinstance(error, NotRegularFile) and error.kind == "a folder":
        return f"a folder, not {with_article(what)}"
    if isinstance(error, NotRegularFile):
        return error.strerror
    if isinstance(error, DatabaseFile):
        return f"{error.strerror}, not {with_article(what)}"
    if isinstance(error, FileNotFoundError):
        return link_to_nothing(Path(path)) or f"no such {what}"
    if error.errno == errno.ELOOP:
        return "a symbolic link loop"  # as `not_a_file` says it
    return None


def _mode(path: str | Path) -> int:
    """The mode of what `path` names; for a link to nothing, a FileNotFoundError that says so and where it points."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        if (link := link_to_nothing(Path(path))) is None:
            raise
        raise FileNotFoundError(errno.ENOENT, link, str(path)) from None


def link_to_nothing(path: Path) -> str | None:
    """"a symbolic link to a file that does not exist (../moved/7.json)" when `path` is a link whose target is not
    there (where it points, as the link holds it); None for anything else (a link loop included)."""
    try:
        target = os.readlink(path)
    except OSError:  # not a link, or nothing there
        return None
    try:
        os.stat(path)
    except FileNotFoundError:
        return f"a symbolic link to a file that does not exist ({hint_path(target)})"
    except OSError:  # a link loop, or a target that cannot be asked: said as such by the caller
        return None
    return None


def not_a_file(path: Path, what: str) -> str | None:
    """Why `path` cannot be read as a `what` ("page file", "records file"): "a folder, not a records file", a FIFO,
    a symlink loop, a dangling link, no such file...; None for a regular file. Only the mode is asked, nothing is
    opened: a FIFO is not waited on, and a folder is said as such on every system (reading one is refused as
    "permission denied" on Windows)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return link_to_nothing(path) or "no such file or folder"
    except OSError as error:
        if error.errno == errno.ELOOP:
            return "a symbolic link loop"
        return f"cannot be read ({error.strerror or error})"
    if other_kind(mode) == "a folder":
        return f"a folder, not {with_article(what)}"
    return not_regular(mode)


def not_a_page_file(path: Path) -> str | None:
    """Why `path` cannot be a page file (a folder, a FIFO, a symlink loop, a dangling link...), or None."""
    return not_a_file(path, "page file")


def database_opened(path: Path, connection: object) -> None:
    """Say that this process opened the SQLite database at `path` through `connection` (kept in mind while that
    object lives, or until `database_closed`): `sqlite_file_in_use` then knows its files under any other name."""
    with _OPEN_DATABASES_LOCK:
        _OPEN_DATABASES[connection] = Path(os.path.abspath(path))


def database_closed(connection: object) -> None:
    """Say that `connection` (given to `database_opened`) is closed."""
    with _OPEN_DATABASES_LOCK:
        _OPEN_DATABASES.pop(connection, None)


def sqlite_file_in_use(path: Path) -> str | None:
    """What `path` is when it is a file of a SQLite database that a process may have open, told from the names
    beside it alone: one of SQLite's own files beside a database ("SQLite's write-ahead log of the database
    project.db"), or a database with one of them beside it; None otherwise. Such a file is never opened here, only
    named: on POSIX systems closing any descriptor of a file drops every lock this process holds on it, SQLite's
    own included, and another process then takes the database for unused and deletes its write-ahead log under
    this process's open connection (its writes lost, or the database corrupted). A database that no connection
    has open has none of them beside it (the last to close removes them). A symbolic link is judged by what it
    leads to as well: opening it opens that file. So is a hard link, whose name and folder say nothing: by its
    device and inode, when they are those of a file of a database this process opened (`database_opened`)."""
    said = _sqlite_file_named(path)
    if said is None and path.is_symlink():
        said = _sqlite_file_named(path.resolve())
    return said or _another_name_of_an_open_database(path)


def _sqlite_file_named(path: Path) -> str | None:
    """`sqlite_file_in_use`, from the names beside `path` as it is written."""
    for suffix in SQLITE_SIDECARS:
        database = path.name.removesuffix(suffix)
        if database != path.name and database and path.with_name(database).is_file():
            return f"SQLite's {_SIDECAR_NAMES[suffix]} of the database {database}"
    beside = next((path.name + suffix for suffix in SQLITE_SIDECARS if path.with_name(path.name + suffix).exists()),
                  None)
    return None if beside is None else f"a database in use (SQLite's {beside} is beside it)"


def _another_name_of_an_open_database(path: Path) -> str | None:
    """"another name (a hard link) of /p/project.db-wal, SQLite's write-ahead log of the database project.db" when
    `path` is a file with more than one name and the same file (device and inode, asked of the system: nothing is
    opened) as a database this process opened (`database_opened`) or a file SQLite keeps beside it; None otherwise.
    Only this process's own locks are dropped by opening such a file: another process's database reached by a hard
    link is read harmlessly, and an output written over that name replaces the name, not the database."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if found.st_nlink < 2:  # its one name is the one given, judged by the names beside it
        return None
    with _OPEN_DATABASES_LOCK:
        databases = list(_OPEN_DATABASES.values())
    for database in databases:
        for file in (database, *(database.with_name(database.name + suffix) for suffix in SQLITE_SIDECARS)):
            if _same_file(file, found):
                what = _sqlite_file_named(file) or "a SQLite database"
                return f"another name (a hard link) of {hint_path(file)}, {what}"
    return None


def _same_file(path: Path, found: os.stat_result) -> bool:
    try:
        other = os.stat(path)
    except OSError:
        return False
    return (other.st_dev, other.st_ino) == (found.st_dev, found.st_ino)
