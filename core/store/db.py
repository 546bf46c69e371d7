"""The project database connection: pragmas, write transactions, timestamps (`core.moments`) and provenance rows.

Durability and concurrency, the reasoning behind the settings:

- **WAL.** Readers never wait for a writer and a writer never waits for readers, so the app can show a page
  while the CLI imports into the same project.
- **synchronous=NORMAL.** In WAL mode a commit is appended to the `-wal` file by `write()` and is durable
  against a *process* crash (SIGKILL, segfault) as soon as COMMIT returns: the bytes are in the operating
  system's page cache and the next opener replays them. Only a power loss or an OS crash can lose the last
  commits (never corrupt the database); FULL would fsync on every edit to cover that, at a cost per keystroke.
- **BEGIN IMMEDIATE + busy_timeout.** Every write takes the write lock when it starts. A deferred transaction
  that reads first and writes later fails at once with "database is locked" when another process wrote
  meanwhile (SQLite cannot wait there without risking a deadlock); an immediate one simply waits its turn,
  up to the busy timeout.
- **foreign_keys=ON** is per connection in SQLite, so it is set on every open.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Self

import sqlite_utils

from ..command_hints import hint_path
from ..errors import RecordLensError, full_disk, is_disk_full
from ..file_kinds import database_closed, database_opened
from ..moments import now as now  # the store's modules import now and stamp from here
from ..moments import stamp as stamp
from ..path_text import json_text
from .removed_files import REMOVED

# Long enough for the slowest write (one large page imported with its labels); a wait, never a failure.
BUSY_TIMEOUT_SECONDS = 30.0
# Opening a WAL database writes its -shm index (32 kB) and -wal beside it: with less than this free on its disk, the
# "disk I/O error" SQLite gives when it cannot is the disk being full, not a broken database.
ROOM_TO_OPEN_BYTES = 1_000_000
# A write lock not free within this is held by someone else's long write: said (`waiting_notice`) before the wait.
QUICK_LOCK_SECONDS = 0.25
# How many times a write made of what was read outside its transaction (a removed run's copy, a label set set aside,
# a score) is made again when another process changed what it read meanwhile, before it gives up, said
TRIES_WHILE_IT_CHANGES = 3
waiting_notice: Callable[[], None] | None = None  # the CLI prints a line; the default says nothing
# How many of the faults SQLite's check finds in a damaged database are said (the check stops at one more)
DAMAGE_FINDINGS_SAID = 3


class StoreError(RecordLensError):
    """A project operation that cannot be done: no such page or record, a name already taken, ..."""


def _begin_immediate(conn: sqlite3.Connection) -> None:
    """Take the write lock; when another process holds it past a moment, say so (`waiting_notice`), then wait
    for it up to the busy timeout as before: a silent wait of up to 30 s reads as a hang."""
    conn.execute(f"PRAGMA busy_timeout = {int(QUICK_LOCK_SECONDS * 1000)}")
    try:
        conn.execute("BEGIN IMMEDIATE")
        return
    except sqlite3.OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
    if waiting_notice is not None:
        waiting_notice()
    conn.execute("BEGIN IMMEDIATE")


def dumps(value: object) -> str:
    """`value` as the database's JSON: text as it is, a path whose bytes are not UTF-8 kept whole as JSON escapes
    (`path_text.json_text`; SQLite takes no lone surrogate)."""
    return json_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def connect(path: Path, *, read_only: bool = False) -> sqlite_utils.Database:
    """The project's database at `path`, for reading and writing, or with `read_only` for reading alone (a
    project on a read-only mount or medium: what copy and every command that only reads need); a database that
    cannot be opened, or only for reading when asked for writing (`only_readable`), raises StoreError saying why
    and what to do (`cannot_open`). While the connection lives, its files are
    known under any other name (`file_kinds.database_opened`): none is opened as a plain file by a hard link."""
    try:
        db = _read_only(path) if read_only else _read_write(path)
    except sqlite3.DatabaseError as error:
        raise StoreError(cannot_open(path, error)) from None
    database_opened(path, db)
    return db


def _read_write(path: Path) -> sqlite_utils.Database:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_SECONDS)
    try:
        db = sqlite_utils.Database(conn, execute_plugins=False)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        db.execute("PRAGMA foreign_keys = ON")
        db.enable_wal()
        db.execute("PRAGMA synchronous = NORMAL")
        # SQLite opens a file it cannot write for reading alone, without a word, where a killed process left the
        # write-ahead log's files beside it: a command that writes would then fail at each write, after its reads
        if only_readable(path):
            raise StoreError(f"{hint_path(path)}: cannot open the project database for changes: "
                             + _read_only_advice(path))
    except BaseException:
        conn.close()
        raise
    return db


def only_readable(database: Path) -> bool:
    """Whether the project database at `database` can be read but not changed where it is: its folder or the file
    cannot be written (a read-only mount or medium). A database that is not there, or is empty, is not: opening it
    says why it cannot be opened."""
    try:
        held = database.is_file() and database.stat().st_size > 0
    except OSError:
        return False
    return held and not _writable(database)


def _writable(database: Path) -> bool:
    """Whether SQLite can write the database and the files of its write-ahead log beside it (its lock files)."""
    return os.access(database.parent, os.W_OK) and os.access(database, os.W_OK)


def _read_only(path: Path) -> sqlite_utils.Database:
    """SQLite's read-only mode reads a WAL database only where its shared-memory file exists or can be made; in
    a read-only folder without one, the database is opened as immutable, which is exact only when no write is
    left in its write-ahead log (none is: a project closed cleanly leaves no log; one that holds writes is
    refused rather than read without them)."""
    uri = path.resolve().as_uri()
    try:
        return _probed(sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_SECONDS))
    except sqlite3.OperationalError as error:
        if "unable to open" not in str(error):
            raise
    wal = path.with_name(f"{path.name}-wal")
    if wal.is_file() and wal.stat().st_size > 0:
        raise StoreError(f"{hint_path(path)}: cannot be read where it is: its latest changes are in {wal.name}, "
                         f"which SQLite reads only where it can write beside it, and the folder is read-only; copy "
                         f"the whole folder (`cp -r {hint_path(path.parent)} NEW`, which takes {wal.name} too) and "
                         "use the copy")
    return _probed(sqlite3.connect(f"{uri}?immutable=1", uri=True))


def _probed(conn: sqlite3.Connection) -> sqlite_utils.Database:
    """`conn`, once a first read has shown that SQLite can read it (opening alone checks nothing)."""
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except BaseException:
        conn.close()
        raise
    return sqlite_utils.Database(conn, execute_plugins=False)


def _damaged(text: str) -> bool:
    return "malformed" in text or "not a database" in text


def damaged_advice(path: Path) -> str:
    """What to do with a damaged project database at `path`: the one wording every refusal gives."""
    return ("the file is damaged (cut short by a full disk or a copy that stopped, written over, or written by two "
            "programs at once without SQLite's locks, as in a network or synced folder or when copied over while "
            "open): " + _remedy(path))


def _remedy(path: Path) -> str:
    """How to go on from the damaged project database at `path`: a backup, else the copy an upgrade kept in the
    project's removed/ (when one is there), and SQLite's `.recover` of the damaged file as the last resort."""
    kept = _kept_by_an_upgrade(path.parent)
    # A write-ahead log left beside the damaged file (a crash leaves one) is its latest writes, and would be read
    # into the copy put back in its place: it goes aside with the file.
    return (f"put back a copy from a backup (the pages are still in {hint_path(path.parent / 'snapshots')})"
            + (f" or, without one, the copy of the database the last upgrade kept, {hint_path(kept)} (as it was "
               "before that upgrade: without what was changed since)" if kept is not None else "")
            + f", and keep the damaged file aside ({path.name}-wal with it, if there): "
            + f"`sqlite3 {hint_path(path)} .recover` may rescue labels made since the backup")


def _kept_by_an_upgrade(root: Path) -> Path | None:
    """The newest database an upgrade kept in the project's removed/ (`Project._keep_as_it_was`, the only thing
    that writes a `.db` there), None when there is none."""
    try:
        kept = [path for path in (root / REMOVED).glob("*.db") if path.is_file() and not path.name.startswith(".")]
        return max(kept, key=lambda path: path.stat().st_mtime_ns, default=None)
    except OSError:
        return None


def damage_found(db: sqlite_utils.Database) -> list[str]:
    """What SQLite's full check of the database finds wrong, its first findings ([] for a database found whole).
    PRAGMA integrity_check, not quick_check: quick_check reads no index against its table, and an index that no
    longer matches its table is what makes a query answer wrongly without an error (a page "not there")."""
    try:
        rows = db.execute(f"PRAGMA integrity_check({DAMAGE_FINDINGS_SAID + 1})").fetchall()
    except sqlite3.DatabaseError as error:  # damaged where the check itself must read to begin
        if not _damaged(str(error).lower()):
            raise
        return [str(error)]
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found


def refuse_damaged(db: sqlite_utils.Database, path: Path, *, stopped: str) -> None:
    """Nothing when SQLite's check finds the project database at `path` whole; else StoreError saying that it is
    damaged, what the check finds, that what the command does (`stopped`: "no label was checked") was not done,
    and what to do."""
    found = damage_found(db)
    if not found:
        return
    said = ", ".join(f'"{line}"' for line in found[:DAMAGE_FINDINGS_SAID])
    more = " and more" if len(found) > DAMAGE_FINDINGS_SAID else ""
    raise StoreError(f"{hint_path(path)}: the project database is damaged, and {stopped} (a damaged database answers "
                     f"wrongly without saying so): SQLite's check of it says {said}{more}; {_remedy(path)}")


def cannot_open(path: Path, error: sqlite3.Error) -> str:
    """Why the project database at `path` cannot be opened, and what to do: one message."""
    text = str(error).lower()
    if _damaged(text):
        hint = "; " + damaged_advice(path)
    elif (full := _full_disk(path, text)) is not None:
        hint = "; " + full
    elif not _writable(path):
        hint = "; " + _read_only_advice(path)
    else:
        hint = ""
    return f"{hint_path(path)}: cannot open the project database ({error}){hint}"


def _read_only_advice(path: Path) -> str:
    """Why the project database at `path`, which cannot be written, does not open for a command that changes it,
    and what to do: the one wording of every such refusal."""
    which = "the folder" if not os.access(path.parent, os.W_OK) else "the database file"
    return (f"{which} is read-only, and the project opens for changes only where SQLite can write its lock files "
            f"beside the database: `recordlens project copy {hint_path(path.parent)} NEW` copies the project to a "
            "folder you can write to (copy reads it where it is, and so does every command that only reads it, as "
            "export and labels check)")


def full_or_nearly(error: BaseException, folder: Path) -> bool:
    """Whether a write into `folder` failed for want of room: the system's or SQLite's own "full", or SQLite's
    bare "disk I/O error" with all but no room left (it says no more when it cannot grow a journal or a WAL)."""
    if is_disk_full(error) or getattr(error, "sqlite_errorname", None) == "SQLITE_FULL":
        return True
    if "disk i/o error" not in str(error).lower():
        return False
    try:
        return shutil.disk_usage(folder).free < ROOM_TO_OPEN_BYTES
    except OSError:
        return False


def _full_disk(path: Path, text: str) -> str | None:
    """Why SQLite could not open or write the database at `path` when the disk that holds it is (all but) full:
    said with the room left, and that nothing is lost (the database is whole; only its lock files could not be
    made); None when there is room, or the room cannot be known."""
    if "disk i/o error" not in text and "full" not in text:
        return None
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return None
    little = free < ROOM_TO_OPEN_BYTES
    if not little and "full" not in text:  # SQLite's own "disk is full" may be a quota's, with room left on the disk
        return None
    room = "nothing free" if free < 1000 else f"{free / 1000:,.0f} kB free"
    return full_disk(path.parent, detail=room if little else None,
                     then="open the project again: nothing in it is lost")


@dataclass(frozen=True)
class Provenance:
    """Who or what produced a label or made a change: a person, an extractor run, or a dataset file."""

    kind: str
    name: str
    version: str = ""
    input_format: str = ""
    seed: str = ""

    @classmethod
    def person(cls, name: str) -> Provenance:
        return cls("person", name)

    @classmethod
    def extractor(cls, name: str, version: str, input_format: str = "", seed: int | str | None = None) -> Provenance:
        return cls("extractor", name, version, input_format, "" if seed is None else str(seed))

    @classmethod
    def agent(cls, name: str) -> Provenance:
        """A web agent's episodes (`name` says model, memory and browser: "agent:gemini-2.5-pro/window:3/qt")."""
        return cls("agent", name)

    @classmethod
    def dataset(cls, source: str) -> Provenance:
        """Labels imported from a records file: `source` says which (e.g. `nexteval-synth-dev/gt/12.json`)."""
        return cls("dataset", source)

    @property
    def is_person(self) -> bool:
        return self.kind == "person"

    def __str__(self) -> str:
        details = ", ".join(x for x in (self.input_format, f"seed {self.seed}" if self.seed else "") if x)
        text = f"{self.kind} {self.name}" + (f" {self.version}" if self.version else "")
        return f"{text} ({details})" if details else text


class Connection:
    """What every part of the Project API shares: the database, its folder and the write transaction."""

    def __init__(self, root: Path, db: sqlite_utils.Database) -> None:
        self.root = root
        self.db = db

    def close(self) -> None:
        self.db.close()
        database_closed(self.db)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def writing(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction (BEGIN IMMEDIATE). Nested use joins the outer transaction."""
        conn = self.db.conn
        if conn.in_transaction:
            yield self.db
            return
        _begin_immediate(conn)
        try:
            yield self.db
            conn.execute("COMMIT")
        except BaseException:
            # Also after a failed COMMIT, which leaves the transaction open in SQLite.
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def one(self, sql: str, params: tuple[object, ...] = ()) -> sqlite3.Row | tuple | None:
        return self.db.execute(sql, params).fetchone()

    def page_id(self, name: str) -> int:
        row = self.one("SELECT id FROM pages WHERE name = ?", (name,))
        if row is None:
            raise StoreError(f"no page named {name!r} in the project {hint_path(self.root)}")
        return int(row[0])

    def provenance_id(self, who: Provenance) -> int:
        """The row for `who`, added the first time it is seen (call inside a write transaction)."""
        key = (who.kind, who.name, who.version, who.input_format, who.seed)
        self.db.execute("INSERT INTO provenances (kind, name, version, input_format, seed) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT DO NOTHING", key)
        row = self.one("SELECT id FROM provenances WHERE kind = ? AND name = ? AND version = ? "
                       "AND input_format = ? AND seed = ?", key)
        assert row is not None
        return int(row[0])

    def provenances(self) -> dict[int, Provenance]:
        rows = self.db.execute("SELECT id, kind, name, version, input_format, seed FROM provenances")
        return {row[0]: Provenance(*row[1:]) for row in rows}


def database_problem(error: sqlite3.Error, again: str = "run this again", database: Path | None = None) -> str:
    """What a refusal of the project's database means to the user, and what to do: one line. `again`: how the
    user repeats what was refused (a command is run again, an edit in the app done again). `database`: the
    project's database file, named in what to do with it when damaged (else "project.db")."""
    text = str(error).lower()
    if "locked" in text or "busy" in text:
        hint = (f"; another process (the app, or another command) is writing to the project: {again} when it "
                "is done")
    elif "full" in text:  # said once, in the one wording of a full disk
        return full_disk("the project", detail=f"its database: {error}", then=f"{again} (what was stored is intact)")
    elif "readonly" in text or "read-only" in text:
        hint = "; the project's folder or database cannot be written"
    elif _damaged(text):  # met by a query (the open found nothing wrong): said as a refused open says it
        hint = "; " + damaged_advice(database or Path("project.db"))
    else:
        hint = ""
    return f"the project's database: {error}{hint}"
