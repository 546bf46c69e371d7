"""A RecordLens project: a folder with `project.db` (pages, labels, their history, runs) and `snapshots/`.

    project = open_project("work/shop")
    for info in project.pages(status="proposed"): ...
    labels = project.labels("12")                     # display order: labels[k] is drawn in colour k
    change = project.accept(labels[0].id, by=Provenance.person("ana"))
    project.restore("12", project.history("12")[-2].id, by=...)   # undo the last change

Every label change is one transaction that also writes its history entry, so after any crash the labels and
their history agree; the changes of one step of work (`one_step`: 700 proposals accepted at once) are one
transaction together. A change returns a `Change`: the affected records before and after. The history can
rebuild the page's labels as they were after any entry; `restore` does that and is itself a change.

A `Project` holds one SQLite connection: use it from one thread, and open another `Project` on the same folder
for a worker thread or process (WAL lets them all read while one writes).

A project of an earlier schema is brought up to this one when it is opened, and the RecordLens that made it can
no longer open it: before that, the database and the learnt models as they were are kept in `removed/`
(`SchemaUpgrade`), or nothing is changed; and it is not done while another process has the project open (`holders`,
or any connection to its database), nor committed while one opens it (`Project._alone`): an earlier RecordLens would
go on writing into a schema it does not know. Two processes of this RecordLens that open it at once take turns
(`UPGRADE_MARK`), the second finding it brought up to date. A command that only reads (`reading_as_it_is`) reads
such a project through a copy of its database brought up to date and thrown away (`read_as_it_is`), the project left
as it was (`ReadAsItWas`). Each is said once to the user: `take_upgrades` gives those this process made. Such a
command reads a project on a read-only mount or medium where it is (`read_where_it_is`); one that writes is refused
there (`db.only_readable`), naming `project copy`.
"""

from __future__ import annotations

import bisect
import contextlib
import difflib
import gc
import json
import os
import re
import shutil
import socket
import sqlite3
import tempfile
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path

import sqlite_utils

from .. import atomic, owner_files
from ..command_hints import command_name, hint_option, hint_path
from ..errors import full_disk, shortened
from ..page.dataset import PAGE_SUFFIXES, LoadedPage, dataset_pages, load_page, natural_key
from ..page.snapshot import read_file_bytes
from ..path_text import shown_bytes
from ..records.hygiene import weigh_proposals
from ..records.model import TextKeyIndex
from ..runs.evaluate import PageNotRead, page_or_why
from .adjudication import KEEP, MERGED, Adjudication
from .agent_data import AgentData
from .db import (
    BUSY_TIMEOUT_SECONDS,
    TRIES_WHILE_IT_CHANGES,
    Connection,
    Provenance,
    StoreError,
    connect,
    dumps,
    full_or_nearly,
    now,
    only_readable,
)
from .files import SNAPSHOTS, content_hash, remove_stale_files, snapshot_name_problem, snapshot_path
from .label_checks import LabelChecks
from .label_sets import Annotators
from .removed_files import REMOVED, SQLITE_SIDECARS, copy_database, name_file, stamped
from .runs import RUNNING_MARKS, Runs, mark_gone
from .schema import (
    LABEL_STATUSES,
    PAGE_STATUSES,
    REJECTED,
    SCHEMA_VERSION,
    TRUE_LABEL_STATUSES,
    TRUE_PAGE_STATUSES,
    SchemaError,
    migrate,
    sql_list,
)

__all__ = ["APP_OPEN_MARK", "Change", "Label", "PageInfo", "Project", "Provenance", "ReadAsItWas", "SchemaUpgrade",
           "StoreError", "history_numbers", "holders", "init_project", "open_project", "read_as_it_is",
           "read_where_it_is", "reading_as_it_is", "take_upgrades"]

PROJECT_DB = "project.db"
# The project's database as files: `project.db` and those SQLite keeps beside it (its write-ahead log, its index)
PROJECT_DB_FILES = frozenset({PROJECT_DB, *(PROJECT_DB + suffix for suffix in SQLITE_SIDECARS)})
# In a project folder: the mark (an `owner_files` lock) of the app window that has it open (hidden: not copied)
APP_OPEN_MARK = ".open-in-app"
# How long an upgrade waits to be alone in the project's database (`Project._alone`): a moment's reader (a reading
# command's copy of it) is waited for; a connection kept open (an earlier RecordLens's window or command) is a holder
ALONE_WAIT_SECONDS = 5.0
# In a project folder: the mark (an `owner_files` lock) of the process that may bring its database up to this schema,
# taken before its connection is opened (`_upgrading_alone`): another RecordLens of this version that would too waits
# for it holding no connection, so it never stands in the way of the upgrade's exclusive lock (hidden: not copied)
UPGRADE_MARK = ".upgrading"
# How long opening a project waits for another process's upgrade of it (a copy of a large database and its models)
UPGRADE_WAIT_SECONDS = 600.0
_UPGRADE_WAIT_PAUSE_SECONDS = 0.05
# What the holder of `UPGRADE_MARK` says it does (`owner_files` purpose): a mark left by a process killed while it
# held it tells an upgrade interrupted (said by the next opener) from a read's copy made (nothing to say)
_UPGRADING, _READING = "upgrading", "reading"
# In removed/: the database an upgrade keeps as it was (`project-schema-3.TIME.db`, TIME sortable as text) and its
# models beside it (`project-schema-3.TIME-models`)
_KEPT_STEM, _KEPT_MODELS = "project-schema-", "-models"
_KEPT_NAME = re.compile(rf"{_KEPT_STEM}(?P<found>\d+)\.(?P<stamp>.+)\.db")
# The commands of a message (`SchemaUpgrade.going_back`) a step further in than its lines: one each, to copy
_COMMAND_INDENT = "  "

_RECORD_COLUMNS = ("id", "page_id", "position", "xpaths", "unresolved", "status", "origin_id", "changed_by_id",
                   "derived_from", "created_at", "changed_at")
_JSON_COLUMNS = ("xpaths", "unresolved", "derived_from")
_SELECT_RECORDS = f"SELECT {', '.join(_RECORD_COLUMNS)} FROM records"

Row = dict[str, object]


@dataclass(frozen=True)
class Label:
    """One record on a page, as the app shows it."""

    id: int
    position: int
    xpaths: tuple[str, ...]
    status: str
    origin: Provenance                 # who or what first proposed it
    changed_by: Provenance | None      # who last accepted, rejected or changed it
    derived_from: tuple[int, ...]      # the records it was merged or split from
    unresolved: tuple[str, ...]        # XPaths that named no element on the page when checked
    created_at: str
    changed_at: str

    @property
    def is_true(self) -> bool:
        """Part of the ground truth: accepted as proposed, or changed by a person."""
        return self.status in TRUE_LABEL_STATUSES

    @property
    def flagged(self) -> bool:
        return bool(self.unresolved)


@dataclass(frozen=True)
class PageProposals:
    """An extractor's records for a page weighed against the records the page holds (`Project.weigh_proposals`)."""

    new: list[list[str]]  # the records the page lacks, to propose, in the order proposed
    # Of each record left out because records of the page cover its text already (with other XPaths): those records
    covered_by: list[list[Label]]
    # The page's proposals still undecided, made by the extractor that proposes now, that no record proposed now is,
    # nor covers the text of: the ones it no longer makes
    not_made: list[Label]
    # ... and those of other extractors (or other hands): not made now, as this extractor never made them; they stay
    # as they were, said for what they are, not as ones it no longer makes
    others: list[Label] = field(default_factory=list)


@dataclass(frozen=True)
class Change:
    """One history entry: the records a change touched, as they were before and after it."""

    id: int | None                     # None: the change turned out to change nothing and was not logged
    page: str
    at: str
    actor: Provenance
    action: str
    before: tuple[Label, ...]
    after: tuple[Label, ...]
    detail: dict[str, object] = field(default_factory=dict)

    @property
    def record(self) -> Label | None:
        """The one record a change produced (add, accept, edit, merge), if it produced exactly one."""
        return self.after[0] if len(self.after) == 1 else None

    @property
    def step(self) -> tuple[str, str] | None:
        """(id, name) of the step of work the change was part of (`Project.one_step`), None for a change made
        alone."""
        step = self.detail.get("step")
        return (str(step.get("id")), str(step.get("name"))) if isinstance(step, dict) else None

    @property
    def ends_a_merge(self) -> bool:
        """Whether the change is the keep a merge (Shift+T, `Adjudication.merge`) stores in one transaction right
        after its edit: the page's change before it is that edit, and the two are one action of the person's, one
        entry of a history, which no restore should land between (the record merged, the pair it leaves open)."""
        return self.action == KEEP and self.detail.get(MERGED) is True


@dataclass(frozen=True)
class PageInfo:
    name: str
    status: str
    url: str | None
    title: str | None
    charset: str | None
    snapshot: str                      # sha256 of the snapshot file
    suffix: str | None                 # None: the snapshot has no row (the database changed by hand)
    source: str | None
    warnings: tuple[str, ...]
    imported_at: str
    updated_at: str
    true_labels: int = 0
    proposed: int = 0
    flagged: int = 0
    rejected: int = 0  # kept, never deleted: the page list shows them so that no record seems lost
    edited: int = 0  # of the true labels, those a person changed after accepting them (the rest are accepted)

    @property
    def finished(self) -> bool:
        """Marked labelled or reviewed: its records are ground truth that export, score, synth and training take."""
        return self.status in TRUE_PAGE_STATUSES

    @property
    def unfinished_records(self) -> int:
        """Its accepted and edited records while it is not marked labelled or reviewed: ground truth no export,
        score or synth takes until it is (0 on a page marked so)."""
        return 0 if self.finished else self.true_labels


@dataclass(frozen=True)
class SchemaUpgrade:
    """A project brought up from an earlier schema by this process, and where its database as it was is kept."""

    root: Path
    found: int         # the schema version it had
    to: int            # the one it has now
    kept: Path         # the database as it was (in the project's removed/)
    models: Path | None = None  # a copy of its models/ as it was, beside `kept`; None: it had no learnt model
    # an earlier upgrade of it killed before it ended (`UPGRADE_MARK` left behind): its process, as a message names
    # it, and whether it had committed (this upgrade is its own, said for it: it could not say it) or not (redone)
    interrupted: str = ""
    made_by_interrupted: bool = False

    def message(self) -> str:
        """What the user is told, once, a sentence a line, so that a terminal and a message box show it whole: the
        earlier RecordLens cannot open it now, what is kept, and how to go back to it: commands that run as printed
        (`going_back`). Each path as every message names one (`hint_path`)."""
        # An earlier RecordLens that marked none of what it had open (its window, a command) could not be told from
        # none (`holders`): it would go on writing, unaware, into a schema it does not know
        lines = [f"{hint_path(self.root)}: project brought up from schema {self.found} to {self.to}.",
                 *self._interruption(),
                 "Earlier RecordLens versions can no longer open it:",
                 "an earlier RecordLens that has it open still (a window, or a command begun before) must be closed "
                 "now.",
                 f"The database as it was is kept in {hint_path(self._named(self.kept))}.",
                 f"Its learnt models as they were are kept in {hint_path(self._named(self.models))}." if self.models
                 else "It had no learnt model.",
                 "To go back to an earlier version, put it back as project.db, and models/ as it was:",
                 "run, while no RecordLens has the project open (the changes and models made since are lost):",
                 *(f"{_COMMAND_INDENT}{command}" for command in self.going_back())]
        return shown_bytes("\n  ".join(lines))

    def going_back(self) -> list[str]:
        """The commands (a POSIX shell's, as every hint) that put the project back as it was: run from its folder,
        each name quoted for the shell (`hint_path`), a line each and chained (`&&`), so that pasted whole they stop
        at the first that fails: a `cd` into a folder since moved never lets the deletions run where the shell is."""
        # SQLite replays a write-ahead log left beside the database (by a crash) onto the file put back: the
        # project would be at this schema again, so the log and its index go first (what they hold since the
        # upgrade is lost by going back all the same)
        database = [f"rm -f {hint_path(PROJECT_DB + '-wal')} {hint_path(PROJECT_DB + '-shm')}",
                    f"cp {hint_path(self._named(self.kept))} {hint_path(PROJECT_DB)}"]
        # A training here writes its model over the project's and the one it sets aside over the one set aside
        # before, in a format the earlier RecordLens may not read: models/ goes back as it was too (gone, if none)
        models = [f"rm -rf {hint_path(_MODELS)}"]
        if self.models:
            models.append(f"cp -R {hint_path(self._named(self.models))} {hint_path(_MODELS)}")
        commands = [f"cd {hint_path(self.root.absolute())}", *database, *models]
        return [f"{command} &&" for command in commands[:-1]] + commands[-1:]

    def _named(self, kept: Path) -> str:
        """A file or folder kept in the project, named from the project's folder (`removed/NAME`: no space in it)."""
        try:
            return kept.relative_to(self.root).as_posix()
        except ValueError:
            return str(kept)

    def _interruption(self) -> list[str]:
        if not self.interrupted:
            return []
        if self.made_by_interrupted:
            return [f"It was brought up by {self.interrupted}, which was interrupted (killed) before it could say so."]
        return [f"An earlier upgrade of it, by {self.interrupted}, was interrupted (killed) before it finished.",
                "Nothing of it was committed; it has now been done.",
                "Anything it kept in removed/ is the project as it was then: go back to what is named below."]


@dataclass(frozen=True)
class ReadAsItWas:
    """A project of an earlier schema this process read without changing it (`read_as_it_is`)."""

    root: Path
    found: int         # the schema version it has, and keeps
    to: int            # the one the copy read was brought up to
    interrupted: str = ""  # an upgrade of it killed before it ended: its process, as a message names it

    def message(self) -> str:
        """What the user is told, once: the project was left as it was, and what will change that."""
        said = (f"{hint_path(self.root)}: project of an earlier RecordLens (schema {self.found}), read as it is and "
                f"left as it was (that RecordLens still opens it); a command that writes to it brings it up to "
                f"schema {self.to}, which earlier versions cannot open")
        if self.interrupted:
            said += (f"\n  An upgrade of it, by {self.interrupted}, was interrupted (killed) before it finished."
                     "\n  Nothing of it was committed.")
        return shown_bytes(said)


_upgrades: list[SchemaUpgrade | ReadAsItWas] = []  # made by this process and not yet said (`take_upgrades`)
_upgrades_lock = threading.Lock()  # projects are opened by worker threads too


def take_upgrades() -> list[SchemaUpgrade | ReadAsItWas]:
    """The projects this process brought up from an earlier schema, or read as they are, since it last asked,
    oldest first, each given once: the command line says them on stderr when a command ends, the app in its status
    bar."""
    with _upgrades_lock:
        made = list(_upgrades)
        _upgrades.clear()
    return made


def _noted(said: SchemaUpgrade | ReadAsItWas) -> None:
    """`said` kept to be said (`take_upgrades`); a project read as it is again before that is said once, and not
    at all once brought up to date (a command that read it, then wrote to it)."""
    with _upgrades_lock:
        if isinstance(said, SchemaUpgrade):
            _upgrades[:] = [u for u in _upgrades if not (isinstance(u, ReadAsItWas) and u.root == said.root)]
        if said not in _upgrades:
            _upgrades.append(said)


def init_project(folder: str | Path) -> Project:
    """Create a project folder (or make an empty folder one) and open it. Its database is made whole under a hidden
    name and only then named `project.db` (`_new_database`): an init stopped part way (a full disk, a kill) leaves
    no `project.db` that the next init would take for a project and every command for a broken one. A `project.db`
    that such a stop left all the same (an earlier RecordLens made it in place, or a kill between the two steps of
    `_name_it`'s naming without hard links) is taken over, as it holds nothing (`_left_by_an_unfinished_init`): its
    tables are made where it is, as opening it would make them. Inits of one folder run one at a time
    (`_initialising`): an empty `project.db` may be another init's, under way, which is never taken over."""
    root = Path(folder)
    _refuse_a_project(root)  # before anything is made in its folder
    if (holding := project_holding(root)) is not None:
        raise StoreError(f"{hint_path(root)} lies inside the RecordLens project {hint_path(holding)}: a project is not "
                         "made inside another (its snapshots/ or any folder of it); choose a folder outside it")
    if root.exists() and not root.is_dir():
        raise StoreError(f"{hint_path(root)} exists and is not a folder{_a_saved_page(root)}")
    made = [folder for folder in (root, root / SNAPSHOTS) if not folder.exists()]
    (root / SNAPSHOTS).mkdir(parents=True, exist_ok=True)
    with _initialising(root, made) as locked:
        _refuse_a_project(root, locked=locked, meanwhile=" (made meanwhile)")
        if not (root / PROJECT_DB).exists():
            _new_database(root)
    return _open(root)


def project_holding(folder: Path) -> Path | None:
    """The RecordLens project that `folder` lies inside (a folder above it holds a `project.db`), else None: where a
    new project is refused and the app offers none."""
    for above in Path(os.path.abspath(folder)).parents:
        if (above / PROJECT_DB).is_file():
            return above
    return None


def _refuse_a_project(root: Path, *, locked: bool = True, meanwhile: str = "") -> None:
    """Refuse to init a folder whose `project.db` is a project's, or could be: anything but what an init that did not
    finish leaves (`_left_by_an_unfinished_init`). An empty file is such a leftover only while no init of the folder
    is under way, which only its lock tells: where none can be had (`locked` False), it is said, not taken over."""
    database = root / PROJECT_DB
    if not database.exists():
        return
    if not _left_by_an_unfinished_init(root):
        raise StoreError(f"{hint_path(root)} is already a RecordLens project{meanwhile}")
    if not locked and database.stat().st_size == 0:
        raise StoreError(f"{hint_path(database)} is empty (0 bytes): another `recordlens project init` may be making "
                         "the project right now, which this file system offers no lock to tell; once none runs, "
                         "delete it and create the project again")


# Held (`owner_files`) by `project init` from its look under the lock at the folder to the database named: hidden,
# and gone once the init ends
_INIT_LOCK = ".init.lock"


@contextmanager
def _initialising(root: Path, made: Sequence[Path]) -> Iterator[bool]:
    """Hold `root`'s init lock while the project is made there, refusing at once (naming it) an init that holds it:
    where hard links are missing (`_name_it`), a project's name is an empty file for a moment, which a second init
    would take for a leftover and make its project in, to be replaced by the first's database. Yields whether the
    lock is held: False where none can be had (a file system without locks, a full disk), the init going on. When
    making the project fails, the folders the init `made` (the project's, its `snapshots/`) are removed again while
    still empty, the lock given back first: a failed init leaves nothing of itself. An init refused for another
    under way removes none: they are that init's too."""
    try:
        lock = owner_files.take(root / _INIT_LOCK)
    except owner_files.Held as held:
        raise StoreError(f"{hint_path(root)} is being made a RecordLens project by "
                         f"{owner_files.owner_named(held.owner)} right now (`recordlens project init`): open it once "
                         "that init is done") from None
    except OSError:
        lock = None
    try:
        yield lock is not None
    except BaseException:
        _given_back(lock)
        if not (root / PROJECT_DB).exists():  # (else another init made the project meanwhile: the folders are its own)
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()
        raise
    _given_back(lock)


def _given_back(lock: owner_files.Lock | None) -> None:
    if lock is not None:
        owner_files.release(lock)


def _new_database(root: Path) -> None:
    """`root`'s `project.db`, made with every table under a hidden name beside it, written through to the disk and
    only then given its name, never over a `project.db` another init made meanwhile. The hidden name is the one
    `atomic` gives a file being written (`.project.db.RANDOM.tmp`), so that what a killed init leaves is removed
    by the next init once it is minutes old, as a killed export's leftovers are."""
    database = root / PROJECT_DB
    remove_stale_files(atomic.temporaries_of(database), root)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{PROJECT_DB}.", suffix=".tmp", dir=root)
    except OSError as error:
        raise _not_made(root, error) from None
    os.close(fd)
    made = Path(name)
    try:
        _make_tables(root, made)
        _name_it(made, database)
    except (OSError, sqlite3.Error) as error:
        raise _not_made(root, error) from None
    finally:
        made.unlink(missing_ok=True)  # linked to its name already, or an init that failed


def _make_tables(root: Path, made: Path) -> None:
    """Every table of this schema in the new database file `made`, which is then written through to the disk."""
    conn = sqlite3.connect(made)
    try:
        conn.execute("PRAGMA journal_mode = MEMORY")  # no journal file beside it for a kill to leave
        Project(root, sqlite_utils.Database(conn, execute_plugins=False)).upgrade(keep_earlier=False)
    finally:
        conn.close()
    os.chmod(made, atomic.file_mode())  # the mode SQLite gives a database it makes, not mkstemp's private 0600
    atomic.sync_file(made)


def _name_it(made: Path, database: Path) -> None:
    """Give the whole database file `made` the name `database`, never replacing a file of that name, as a copy in
    `removed/` is named (`name_file`): where the file system has no hard links (FAT, some shares), an empty file
    holds the name for a moment, which no other init takes over meanwhile (the init lock is held, `_initialising`)."""
    try:
        name_file(made, database.parent, [database.name])
    except FileExistsError:
        raise StoreError(f"{hint_path(database.parent)} is already a RecordLens project (made meanwhile)") from None


def _not_made(root: Path, error: OSError | sqlite3.Error) -> BaseException:
    """The refusal of an init whose database could not be made (nothing of it is left): a full disk in its one
    wording; another failure of a file as it is, of SQLite as it says it."""
    if full_or_nearly(error, root):
        detail = error.strerror if isinstance(error, OSError) else str(error)
        return StoreError(f"cannot create the project database in {hint_path(root)}: "
                          + full_disk(root, detail=detail, then="create the project again (nothing of it was made)"))
    if isinstance(error, OSError):
        return error
    return StoreError(f"cannot create the project database in {hint_path(root)} ({error}); nothing of it was made")


def _left_by_an_unfinished_init(root: Path) -> bool:
    """Whether `root`'s `project.db` is what a `project init` stopped part way by an earlier RecordLens (which made
    it in place) left, holding nothing of a project: the file empty (0 bytes, without a write-ahead log holding
    writes beside it) or a database of no table (its tables never committed), in a folder that holds no saved page
    and none of the folders a project in use makes (`removed/`, `models/`). A project's database emptied by a crash
    is never taken for one while the project's pages are there: it is said as that (`open_project`)."""
    database = root / PROJECT_DB
    try:
        if not database.is_file() or not _holds_no_table(database):
            return False
        return not any(path.is_file() for path in (root / SNAPSHOTS).rglob("*")) and not any(
            (root / folder).exists() for folder in (REMOVED, _MODELS))
    except OSError:
        return False


_MODELS = "models"  # the project's selector models (`learnt_model.PROJECT_MODEL`'s folder)


def _holds_no_table(database: Path) -> bool:
    """Whether SQLite reads no table and no schema version in `database` (read only: nothing is written to it);
    an empty file does so only without a write-ahead log holding writes beside it."""
    if database.stat().st_size == 0:
        wal = database.with_name(f"{database.name}-wal")
        return not wal.is_file() or wal.stat().st_size == 0
    try:
        db = connect(database, read_only=True)
    except StoreError:
        return False  # damaged, foreign or unreadable: not ours to take over
    try:
        tables = db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]
        return tables == 0 and int(db.execute("PRAGMA user_version").fetchone()[0]) == 0
    except sqlite3.Error:
        return False
    finally:
        db.close()


def _not_a_project(root: Path) -> str:
    """Why `root` cannot be opened as a project, with what the user most likely meant."""
    pages = dataset_pages(root)  # DIR/html/, or DIR/mhtml/ beside DIR/gt/: as the importer takes a dataset
    if pages is not None and (root / "gt").is_dir():
        return (f"{hint_path(root)} is not a RecordLens project (no {PROJECT_DB}) (a dataset: commands take it as "
                f"{hint_option('--pages', pages)} {hint_option('--gt', root / 'gt')}, and `{command_name()} import "
                f"{hint_path(root)} --project P` brings it into a project); create one with `{command_name()} project "
                "init DIR`")
    if not root.exists():
        # a mistyped name more likely than a project not made yet: name the projects beside it that it resembles
        near = _projects_named_like(root)
        if near:
            return f"there is no folder {hint_path(root)}; did you mean {' or '.join(map(hint_path, near))}?"
        return (f"there is no folder {hint_path(root)}; create a project there with "
                f"`{command_name()} project init {hint_path(root)}`")
    if not root.is_dir():  # `project init` of a file would be refused: a project is a folder
        return (f"{hint_path(root)} is a file, not a RecordLens project (a folder holding {PROJECT_DB})"
                f"{_a_saved_page(root) or f'; create one with `{command_name()} project init DIR`'}")
    from .import_layout import project_folder_of  # it reads this module's PROJECT_DB

    holding = project_folder_of(root)  # its snapshots/ (or a folder in them): a project inside it is not meant
    if holding is not None:
        return (f"{hint_path(root)} lies in the RecordLens project {hint_path(holding)}: give the project itself, "
                f"{hint_option('--project', holding)}")
    return (f"{hint_path(root)} is not a RecordLens project (no {PROJECT_DB}); create one with "
            f"`{command_name()} project init {hint_path(root)}`")


def _a_saved_page(path: Path) -> str:
    """For a saved page given where a project folder goes, how to make a project of it; "" for another file."""
    if path.suffix.lower() not in PAGE_SUFFIXES:
        return ""
    return (f" (a saved page: `{command_name()} project init P` creates a project P, then "
            f"`{command_name()} import {hint_path(path)} --project P` brings the page into it)")


def _projects_named_like(root: Path) -> list[Path]:
    parent = root.parent if root.parent.is_dir() else None
    if parent is None:
        return []
    try:
        projects = {p.name: p for p in parent.iterdir() if (p / PROJECT_DB).is_file()}
    except OSError:
        return []
    return [projects[name] for name in difflib.get_close_matches(root.name, list(projects), n=2, cutoff=0.75)]


def open_project(folder: str | Path) -> Project:
    root = Path(folder)
    if root.name == PROJECT_DB and root.is_file():  # the database itself (a file manager's "open with" gives it)
        root = root.parent
    if not (root / PROJECT_DB).is_file():
        raise StoreError(_not_a_project(root))
    if (root / PROJECT_DB).stat().st_size == 0:
        # SQLite would take it for a new database and the next import would start a project over the old
        # one's snapshots: what a crash or a full disk left is said, and nothing is written
        raise StoreError(_empty_database(root))
    return _open(root)


def _empty_database(root: Path) -> str:
    """Why a project whose `project.db` is empty (0 bytes) is not opened, and how to go on: in a folder without a
    saved page, what an unfinished `project init` leaves, which `project init` takes over; else a project's
    database emptied by a crash or a full disk, which only a backup brings back."""
    database = root / PROJECT_DB
    initialising = owner_files.holder(root / _INIT_LOCK)
    if initialising is not False:  # the name an init without hard links takes for a moment (`_name_it`)
        who = owner_files.owner_named(initialising if isinstance(initialising, tuple) else None)
        return (f"{hint_path(database)} is empty (0 bytes): {who} is making the project right now (`recordlens "
                "project init`); open it once that init is done")
    if _left_by_an_unfinished_init(root):
        return (f"{hint_path(database)} is empty (0 bytes) and the folder holds no saved page: a `recordlens project "
                f"init` that did not finish (a full disk, a kill) leaves it so; `{command_name()} project init "
                f"{hint_path(root)}` makes the project there (if it was a project that held labels, put "
                "back a copy of its project.db from a backup instead)")
    return (f"{hint_path(database)} is empty (0 bytes), not a project database: a crash or a full disk may have "
            f"emptied it; put back a copy from a backup (the pages are still in {hint_path(root / SNAPSHOTS)})")


def _open(root: Path) -> Project:
    with _upgrading_alone(root):
        if _reading and of_an_earlier_schema(root / PROJECT_DB):
            return read_as_it_is(root)
        if _reading and only_readable(root / PROJECT_DB):  # a command that only reads, on a read-only mount
            return read_where_it_is(root)
        project = Project(root, connect(root / PROJECT_DB))  # a refusal says why and what to do (db.cannot_open)
        try:
            project.upgrade()
        except BaseException:
            project.close()
            raise
        return project


@contextmanager
def _upgrading_alone(root: Path) -> Iterator[None]:
    """Inside, this process is the only one of this RecordLens that opens the project at `root` to bring it up to
    date, or to copy it as it is for a read (`UPGRADE_MARK`, waited for up to `UPGRADE_WAIT_SECONDS`): an upgrade
    is committed only once every other connection to the database is closed (`Project._alone`), and two processes
    that each held one while waiting for the other would both be refused. A database of this schema (as SQLite
    reads it, with its write-ahead log: `_schema_version_of`) needs no upgrade, and takes no mark. Where no mark
    can be had (a read-only folder, a file system without locks), the project is opened as before the mark."""
    if _schema_version_of(root / PROJECT_DB) == SCHEMA_VERSION:
        _mark_left_given_back(root)
        yield
        return
    try:
        mark = owner_files.take(root / UPGRADE_MARK, purpose=_READING if _reading else _UPGRADING,
                                attempts=int(UPGRADE_WAIT_SECONDS / _UPGRADE_WAIT_PAUSE_SECONDS),
                                pause_s=_UPGRADE_WAIT_PAUSE_SECONDS)
    except owner_files.Held as held:
        raise StoreError(f"{hint_path(root)} is being brought up to schema {SCHEMA_VERSION} by "
                         f"{owner_files.owner_named(held.owner)}, which has not finished in "
                         f"{UPGRADE_WAIT_SECONDS / 60:g} minutes ({hint_path(root / UPGRADE_MARK)}); open the project "
                         "once it has") from None
    except OSError:
        mark = None
    try:
        yield
        _said_interrupted(root, mark)
    finally:
        _given_back(mark)


def _mark_left_given_back(root: Path) -> None:
    """The mark an upgrade killed after its migration was committed left beside a database that says so already,
    which no upgrade takes over now: taken, the upgrade said, and removed."""
    if not (root / UPGRADE_MARK).exists():
        return
    try:
        mark = owner_files.take(root / UPGRADE_MARK, attempts=1)
    except (owner_files.Held, OSError):
        return  # its holder runs (and gives it back), or no mark can be had here
    try:
        _said_interrupted(root, mark)
    finally:
        _given_back(mark)


def _said_interrupted(root: Path, mark: owner_files.Lock | None) -> None:
    """An upgrade of `root` killed before it ended, whose mark `mark` took over (its line says it was upgrading; a
    read's copy changes nothing), said with what opening the project noted of it: the upgrade this process made (the
    killed one had committed nothing: SQLite rolled its migration back), or its read as it is; nothing noted, the
    killed one had committed its upgrade, said now for it as it could not (`_upgrade_left_unsaid`)."""
    if mark is None or not mark.stale or mark.stale_purpose != _UPGRADING:
        return
    by = owner_files.owner_named(mark.stale[0])
    with _upgrades_lock:
        for k in reversed(range(len(_upgrades))):
            if _upgrades[k].root == root:
                _upgrades[k] = replace(_upgrades[k], interrupted=by)
                return
    left = _upgrade_left_unsaid(root, by)
    if left is not None:
        _noted(left)


def _upgrade_left_unsaid(root: Path, by: str) -> SchemaUpgrade | None:
    """The upgrade of `root` that the process `by` committed and was killed before saying: the newest database kept
    in removed/ is the one it kept (every upgrade keeps one, under the mark), and its models beside it. None when
    none is there (removed/ deleted by hand: there is nothing to go back to)."""
    kept = sorted((found for found in map(_kept_database, _files_in(root / REMOVED)) if found is not None),
                  key=lambda found: found[1])
    if not kept:
        return None
    path, _, found = kept[-1]
    models = path.with_name(f"{path.stem}{_KEPT_MODELS}")
    return SchemaUpgrade(root, found, SCHEMA_VERSION, path, models if models.is_dir() else None, interrupted=by,
                         made_by_interrupted=True)


def _kept_database(path: Path) -> tuple[Path, str, int] | None:
    """A database an upgrade kept in removed/ (`Project._keep_as_it_was`): its path, its time stamp (as the name
    says it, sortable) and the schema it was of; None for another file."""
    named = _KEPT_NAME.fullmatch(path.name)
    return (path, named["stamp"], int(named["found"])) if named else None


def _schema_version_of(database: Path) -> int | None:
    """The schema version of the database at `database` (SQLite's user_version, with what its write-ahead log
    holds), None where it cannot be read (no file, an empty one, not a database). Read through SQLite, never by
    opening the file: closing any descriptor of a file drops every lock this process holds on it (POSIX), SQLite's
    own included, and another process would then take the project for unused and delete its write-ahead log under
    this process's open connection (its writes then lost, or the database corrupted). SQLite keeps its descriptors
    open while the process holds a lock on the file."""
    try:
        if not database.is_file() or database.stat().st_size == 0:
            return None
        db = connect(database, read_only=True)
    except (OSError, StoreError):
        return None
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error:
        return None
    finally:
        db.close()


def of_an_earlier_schema(database: Path) -> bool:
    """Whether the project's database was made by an earlier RecordLens (asked without writing to it; a database
    that is not there, empty, foreign or of a later RecordLens is opened as usual, which says why not)."""
    version = _schema_version_of(database)
    return version is not None and 0 < version < SCHEMA_VERSION


def holders(root: Path) -> list[str]:
    """The other processes that have the project at `root` open, or work in it, right now, as the marks they hold
    there say (`owner_files` locks: an app window's, `APP_OPEN_MARK`; a run's or an import's under way, in
    `runs.RUNNING_MARKS`; a training's of its model, `learnt_model.TRAINING_LOCK`), each as "an app window of
    process 4242 on host (ROOT/.open-in-app)"; this process's own are left out. An earlier RecordLens that
    kept no such mark (those before the app window's) cannot be told from none here (an upgrade meets it by its
    connection to the database: `Project._alone`)."""
    from .learnt_model import TRAINING_LOCK  # a module that opens projects: named on use

    marks = {root / APP_OPEN_MARK: "an app window",
             **dict.fromkeys(_files_in(root / RUNNING_MARKS), "a run or an import"),
             root / TRAINING_LOCK: "a training of its model"}
    here = (socket.gethostname(), os.getpid())
    said = []
    for mark, what in marks.items():
        owner = False if mark_gone(mark) else owner_files.holder(mark)
        if owner is not False and owner != here:
            said.append(f"{what} of {owner_files.owner_named(owner if isinstance(owner, tuple) else None)} "
                        f"({hint_path(mark)})")
    return said


def _files_in(folder: Path) -> list[Path]:
    try:
        return sorted(path for path in folder.iterdir() if path.is_file())
    except OSError:
        return []


_reading: list[dict[Path, Path]] = []  # of each `reading_as_it_is` under way: project folder -> its copy's folder
_reading_lock = threading.Lock()


@contextmanager
def reading_as_it_is() -> Iterator[None]:
    """While inside (a command that only reads), `open_project` reads a project of an earlier schema as it is
    (`read_as_it_is`) rather than bring it up to date: brought up to date where it is, it could no longer be opened
    by the RecordLens that made it, for a read. Each project's copy is made once, and thrown away at the end."""
    copies: dict[Path, Path] = {}
    with _reading_lock:
        _reading.append(copies)
    try:
        yield
    finally:
        with _reading_lock:
            _reading.remove(copies)
        for folder in copies.values():
            shutil.rmtree(folder, ignore_errors=True)


def read_as_it_is(root: Path) -> Project:
    """The project at `root`, of an earlier schema, to be read without changing it (noted once: `ReadAsItWas`): a
    copy of its database brought up to date in a temporary folder, with the project's folder (its saved pages) as its
    own. Made once per project inside `reading_as_it_is`, and thrown away at its end; else thrown away when closed.
    What is written to it goes with it."""
    with _reading_lock:
        copies = _reading[-1] if _reading else None
        made = copies.get(root.resolve()) if copies is not None else None
        if made is None:
            made = _upgraded_copy(root)
            if copies is not None:
                copies[root.resolve()] = made
    try:
        return _ReadCopy(root, connect(made / PROJECT_DB), None if copies is not None else made)
    except BaseException:
        if copies is None:
            shutil.rmtree(made, ignore_errors=True)
        raise


def _upgraded_copy(root: Path) -> Path:
    """A temporary folder holding a copy of the database of `root` (one consistent state: SQLite's online backup,
    read only), brought up to this schema."""
    folder = Path(tempfile.mkdtemp(prefix="recordlens-read-"))
    try:
        source = connect(root / PROJECT_DB, read_only=True)
        try:
            found = int(source.execute("PRAGMA user_version").fetchone()[0])
            copy = sqlite3.connect(folder / PROJECT_DB)
            try:
                source.conn.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
        with Project(root, connect(folder / PROJECT_DB)) as copied:
            copied.upgrade(keep_earlier=False)
    except BaseException as error:
        shutil.rmtree(folder, ignore_errors=True)
        if isinstance(error, OSError | sqlite3.Error) and full_or_nearly(error, folder.parent):
            raise StoreError(f"{hint_path(root)} was made by an earlier RecordLens, and is read through a copy "
                             "brought up to date, which could not be made: "
                             + full_disk(folder.parent, detail=getattr(error, "strerror", None) or str(error),
                                         then="run the command again (or set TMPDIR to a folder with room)")
                             ) from None
        raise
    _noted(ReadAsItWas(root, found, SCHEMA_VERSION))
    return folder


def read_where_it_is(root: Path, *, any_schema: bool = False) -> Project:
    """The project at `root`, which cannot be written where it is (`db.only_readable`: a read-only mount or medium),
    opened to be read alone. One of another schema is refused, as nothing can bring it up to this one there (an
    earlier one is read through a copy: `read_as_it_is`), unless `any_schema` (a copy of the project, brought up to
    date once made, reads it as it is)."""
    database = root / PROJECT_DB
    project = Project(root, connect(database, read_only=True))
    version = project.schema_version()
    if version > SCHEMA_VERSION or (version < SCHEMA_VERSION and not any_schema):
        project.close()
        newer = version > SCHEMA_VERSION
        raise StoreError(f"{hint_path(database)} is read-only and was made by {'a later' if newer else 'an earlier'} "
                         f"RecordLens (schema version {version}, this one reads {SCHEMA_VERSION}): "
                         + ("update RecordLens to read it" if newer else
                            f"`{command_name()} project copy {hint_path(root)} NEW` copies it to a folder you can "
                            "write to, where it is brought up to date"))
    return project


@contextmanager
def _savepoint(conn: sqlite3.Connection) -> Iterator[None]:
    """What is written inside, all or none within the write transaction open on `conn`."""
    name = f"step_{uuid.uuid4().hex}"
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield
    except BaseException:
        # A full disk may have rolled the whole transaction back already: then there is nothing to take back.
        if conn.in_transaction:
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")


class Project(Connection):
    """The Python API over one project folder (see the module notes): pages, labels and their history here;
    extractor runs in `project.runs`, agent-benchmark data in `project.agent`, other annotators' label sets in
    `project.annotators`, the remembered checks of the labels in `project.label_checks`, the adjudication
    decisions that change no label in `project.adjudication`."""

    def __init__(self, root: Path, db: sqlite_utils.Database) -> None:
        super().__init__(root, db)
        self.runs = Runs(self)
        self.agent = AgentData(self)
        self.annotators = Annotators(self)
        self.label_checks = LabelChecks(self)
        self.adjudication = Adjudication(self)
        self._step: dict[str, str] | None = None

    @contextmanager
    def one_step(self, name: str) -> Iterator[None]:
        """The changes made inside are one step of the person's work (accept 240 proposals at once): their history
        entries say so, and the history shows them as one (`history_steps`). A step inside a step is the outer one.

        A step is one write transaction, all of its changes or none: one that fails part way (a record deleted
        meanwhile, a full disk, the process killed) leaves none of them stored, so that the page never holds half
        a step that no undo step stands for; and 700 changes are one commit, not 700. A step begun inside a write
        transaction already open (another step's, an import's) is a savepoint of it: failing, it takes back its
        own changes, even when its caller catches the error and the outer transaction goes on to commit."""
        outer = self._step
        self._step = outer or {"id": uuid.uuid4().hex[:12], "name": name}
        try:
            joined = self.db.conn.in_transaction  # another step's, or an import's: this one is a savepoint of it
            with self.writing(), (_savepoint(self.db.conn) if joined else nullcontext()):
                yield
        finally:
            self._step = outer

    @contextmanager
    def reading(self) -> Iterator[None]:
        """What is read inside is one state of the project: as last committed when the first read inside was made,
        whatever another process (the app, another command) commits meanwhile. A long read (an export, minutes on a
        large project) so never joins a page's status read before a change to its records read after it. WAL lets
        the writers go on while it reads; they never wait for it. Reads only: a write inside would join this
        transaction (`writing`) and fail where another process wrote since. Inside a transaction already open, the
        reads are part of that one."""
        conn = self.db.conn
        if conn.in_transaction:
            yield
            return
        conn.execute("BEGIN")  # deferred: the state is taken by the first read inside
        try:
            yield
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if conn.in_transaction:
            conn.execute("COMMIT")

    def upgrade(self, *, keep_earlier: bool = True) -> None:
        """Create or migrate the schema; a no-op, without taking the write lock, when it is current. A project of
        an earlier schema first has its database and its learnt models as they were kept in `removed/` (a
        StoreError, and nothing changed, when they cannot be), then is migrated alone in its database (`_alone`),
        and the upgrade noted to be said (`take_upgrades`). `keep_earlier=False`: no copy kept and nothing noted (a
        project's copy, its source left as it was)."""
        if self.schema_version() == SCHEMA_VERSION:
            return
        for _ in range(TRIES_WHILE_IT_CHANGES):
            if self._upgraded(keep_earlier):
                return
        raise StoreError(f"{hint_path(self.root)} was made by an earlier RecordLens and was written to by another "
                         f"process each time it was about to be brought up to schema {SCHEMA_VERSION}; nothing was "
                         "changed: close every other RecordLens that has it open, then open the project again")

    def _upgraded(self, keep_earlier: bool) -> bool:
        """One try of `upgrade`: False when another process wrote to the database between the copy kept of it and
        the migration (the copy would lack that write), everything of the try undone, to be tried again."""
        kept: Path | None = None
        models: Path | None = None
        removed_was_there = (self.root / REMOVED).exists()
        try:
            with self.writing() as db:
                found = self.schema_version()  # again, under the write lock: another process may have migrated it
                tables = [t for t in db.table_names() if t != "sqlite_sequence"]
                if found == 0 and tables:
                    raise SchemaError(f"{hint_path(self.root / PROJECT_DB)} is an SQLite database but not a RecordLens "
                                      "project")
                if not (keep_earlier and 0 < found < SCHEMA_VERSION):  # a new project's tables, or a copy's
                    migrate(db.conn)
                    return True
                self._refuse_while_held(found)  # before anything is done
                kept = self._keep_as_it_was(found)  # with the write lock held: nothing committed in between
                models = self._keep_models(found, kept)
                copied = self._data_version()
            # The migration is committed with no other connection to the database open, and none opened meanwhile:
            # an earlier RecordLens that opens the project now reads the schema only once it is the new one, which
            # it refuses; one that read it before (its connection still open) is met here, marked or not
            with self._alone(found), self.writing() as db:
                if self._data_version() != copied:  # written to between the copy and the lock (then closed)
                    raise _WrittenMeanwhile
                migrate(db.conn)
                # again before the commit: a mark taken meanwhile without the database read (a migration takes
                # seconds on a large project)
                self._refuse_while_held(found)
        except BaseException as error:
            # the migration was rolled back: the database is still the one kept
            if models is not None:
                shutil.rmtree(models, ignore_errors=True)
            if kept is not None:
                kept.unlink(missing_ok=True)
                if not removed_was_there:  # made for it: nothing of the upgrade is left
                    with contextlib.suppress(OSError):
                        (self.root / REMOVED).rmdir()
            if isinstance(error, _WrittenMeanwhile):
                return False
            raise
        _noted(SchemaUpgrade(self.root, found, SCHEMA_VERSION, kept, models))
        return True

    @contextmanager
    def _alone(self, found: int) -> Iterator[None]:
        """This connection alone in the project's database while inside (SQLite's exclusive locking mode: the lock
        a write takes is kept until the mode ends). Meanwhile no other connection reads the database: a process
        that opens the project waits (its busy timeout), then reads it as it is left. The lock is not had while
        another connection is open, idle ones too (each holds a shared lock on the file while open: how SQLite
        knows the last to close), which is said as a holder after `ALONE_WAIT_SECONDS` (an earlier RecordLens that
        marks nothing is met so too); a moment's reader (a reading command's copy) is waited for."""
        conn = self.db.conn
        # A connection this process dropped unclosed holds its lock until the collector frees it (Python's sqlite3
        # connections are in a reference cycle): freed now, it is not taken for another process's. In the main
        # thread only: the app's collector runs in its GUI thread alone (a Qt object freed in another crashes it);
        # its job threads open a project the window has open, brought up to date already, and never come here
        if threading.current_thread() is threading.main_thread():
            gc.collect()
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(ALONE_WAIT_SECONDS * 1000)}")
            try:
                conn.execute("BEGIN IMMEDIATE")  # the exclusive lock, kept past the commit by the mode
                conn.execute("COMMIT")
            except sqlite3.OperationalError as error:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
                raise StoreError(self._held_said(found, [
                    "another connection to its database, kept open by another process (an earlier RecordLens "
                    f"that marks nothing, or another program reading {hint_path(self.root / PROJECT_DB)}) or left "
                    "open by this one"])) from None
            finally:
                conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
            yield
        finally:
            conn.execute("PRAGMA locking_mode = NORMAL")
            with contextlib.suppress(sqlite3.Error):  # the mode's lock is given back at the next read
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()

    def _data_version(self) -> int:
        """SQLite's count of the commits other connections made (compared within this connection only)."""
        return int(self.one("PRAGMA data_version")[0])

    def _refuse_while_held(self, found: int) -> None:
        """Refuse to bring the project up from schema `found` while another process has it open (`holders`)."""
        held = holders(self.root)
        if held:
            raise StoreError(self._held_said(found, held))

    def _held_said(self, found: int, held: Sequence[str]) -> str:
        return (f"{hint_path(self.root)} was made by an earlier RecordLens (schema {found}) and is held right now by "
                f"{' and '.join(held)}: it is brought up to schema {SCHEMA_VERSION} only once no other RecordLens "
                "has it open (an earlier one would go on writing into a schema it does not know); close it first, "
                "then open the project again; nothing was changed")

    def _keep_models(self, found: int, kept: Path) -> Path | None:
        """A copy of the project's learnt models as they are, beside `kept` (`keep_learnt_models`), or why it is
        not migrated."""
        from .learnt_model import keep_learnt_models  # a module that opens projects: named on use

        try:
            return keep_learnt_models(self.root, kept.parent, f"{kept.stem}{_KEPT_MODELS}")
        except OSError as error:
            raise self._not_kept(found, kept.parent, error, "its learnt models as they were are kept") from None

    def _keep_as_it_was(self, found: int) -> Path:
        """A copy of the database of schema `found`, in a new file of removed/, or why it is not migrated."""
        folder = self.root / REMOVED
        try:
            return copy_database(self.root / PROJECT_DB, folder, stamped(f"{_KEPT_STEM}{found}", now()))
        except (OSError, sqlite3.Error) as error:
            raise self._not_kept(found, folder, error, "its database as it was is kept") from None

    def _not_kept(self, found: int, folder: Path, error: OSError | sqlite3.Error, what: str) -> StoreError:
        """The refusal of an upgrade that keeps what it says (`what`: "its database as it was is kept") in `folder`,
        which failed."""
        full = full_or_nearly(error, folder if folder.is_dir() else self.root)
        why = (full_disk(folder, detail=getattr(error, "strerror", None) or str(error)) if full
               else f"{hint_path(folder)} cannot be written: {getattr(error, 'strerror', None) or error}")
        return StoreError(f"{hint_path(self.root)} was made by an earlier RecordLens (schema {found}) and is brought "
                          f"up to schema {SCHEMA_VERSION} only once {what}, which failed ({why}); nothing "
                          "was changed: " + ("free space" if full else f"make {hint_path(folder)} writable")
                          + " and open it again, or open it with the RecordLens it was made with")

    def schema_version(self) -> int:
        return int(self.one("PRAGMA user_version")[0])

    # Pages ------------------------------------------------------------------------------------------------

    def pages(self, status: str | None = None) -> list[PageInfo]:
        """Every page (or those with one status), in natural name order, with its label counts."""
        where, params = ("WHERE p.status = ?", (status,)) if status else ("", ())
        infos = self._page_rows(where, params)
        return sorted(infos, key=lambda info: natural_key(info.name))

    def pages_changed_since(self, change_id: int) -> list[PageInfo]:
        """The pages with a history entry newer than `change_id` (a `last_change_id`), as `pages` gives them: what
        a list read at that entry shows anew after an edit, without reading every page's counts. A page removed
        since is not among them (its entries went with it), nor one put back by `restore-page` (its keep their
        older ids)."""
        infos = self._page_rows("WHERE p.id IN (SELECT page_id FROM label_history WHERE id > ?)", (change_id,))
        return sorted(infos, key=lambda info: natural_key(info.name))

    def page_names(self, statuses: tuple[str, ...] | None = None) -> list[str]:
        """Every page's name (or those of pages with one of `statuses`), in natural name order, as `pages` lists
        them: none of their label counts made (a query per page each)."""
        where, params = (f"WHERE status IN ({', '.join('?' * len(statuses))})", statuses) if statuses else ("", ())
        names = [name for (name,) in self.db.execute(f"SELECT name FROM pages {where}", params)]
        return sorted(names, key=natural_key)

    def page(self, name: str) -> PageInfo:
        for info in self._page_rows("WHERE p.name = ?", (name,)):
            return info
        raise StoreError(f"no page named {name!r} in the project {hint_path(self.root)}")

    def has_page(self, name: str) -> bool:
        return self.one("SELECT 1 FROM pages WHERE name = ?", (name,)) is not None

    def snapshot_file(self, name: str) -> Path:
        """Where the page's saved copy is; a StoreError when its row names none (changed by hand: a snapshot that
        is not a hash, a suffix that is a path, or no row of the snapshot at all)."""
        info = self.page(name)
        if (problem := snapshot_row_problem(info)) is not None:
            # the page named: a command that stops at it (train, import's closing check) says which page it was
            raise StoreError(f"page {name}: {problem}")
        return snapshot_path(self.root, info.snapshot, info.suffix)

    def saved_copy_problem(self, name: str) -> str | None:
        """Why page `name`'s saved copy cannot be read, said to follow "page NAME: " (its row changed by hand so
        that it names no saved copy, `snapshot_file`; the file gone from `snapshots/`, its path written as a hint
        writes it, with what to do; or bytes that cannot be read as a page, emptied by hand, in `load`'s words), or
        None. The one test of it: `labels check` names such a page and checks the others, and `score --project` and
        `runs --compare` leave it out of their figures (`scoring.copies_not_read`), so that all three agree.

        Cheap where it can be (a read and a hash: 80 pages' copies in some 35 ms, where parsing them takes 2 s): a
        copy still the bytes it was stored as (their hash its name) was read as a page when it was stored, as by every
        score stored of it, and is not parsed again; only a copy changed by hand is (an emptied one fails at once)."""
        info = self.page(name)
        if (problem := snapshot_row_problem(info)) is not None:
            return problem
        path = snapshot_path(self.root, info.snapshot, info.suffix)
        if not path.is_file():
            return (f"its saved copy {hint_path(path)} is missing (deleted by hand?): put it back, or take the page "
                    "out of the project (recordlens project remove-page)")

        def parsed_if_changed() -> None:  # its error says why, as `score` says it when it parses the same bytes
            data = read_file_bytes(path)
            if content_hash(data) != info.snapshot:
                self.load(name, data=data)

        unread = page_or_why(parsed_if_changed)
        return unread.why if isinstance(unread, PageNotRead) else None

    def load(self, name: str, *, data: bytes | None = None) -> LoadedPage:
        """Read and parse a page's snapshot (the DOM, text map and XPaths labels refer to); `data`: its bytes, read
        already by a caller that checks them too (`load_page`)."""
        return load_page(self.snapshot_file(name), name, data=data)

    def add_page(self, name: str, snapshot: str, suffix: str, size: int, *, url: str | None = None,
                 title: str | None = None, charset: str | None = None, source: str | None = None,
                 warnings: Sequence[str] = (), status: str = "new") -> PageInfo:
        """Register a page whose snapshot file is already stored (see `store_files.store_snapshot`)."""
        _check(status, PAGE_STATUSES, "page status")
        at = now()
        with self.writing() as db:
            if self.has_page(name):
                raise StoreError(f"a page named {name!r} is already in the project")
            db.execute("INSERT INTO snapshots (hash, suffix, size, stored_at) VALUES (?, ?, ?, ?) "
                       "ON CONFLICT DO NOTHING", (snapshot, suffix, size, at))
            db.execute("INSERT INTO pages (name, snapshot, url, title, charset, status, source, warnings, "
                       "imported_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (name, snapshot, url, title, charset, status, source, dumps(list(warnings)), at, at))
        return self.page(name)

    def set_source(self, name: str, source: str) -> None:
        """Say anew where a page came from (its labels, status and history untouched)."""
        with self.writing() as db:
            self.page_id(name)  # the store's "no page named" error
            db.execute("UPDATE pages SET source = ? WHERE name = ?", (source, name))

    def set_status(self, page: str, status: str, by: Provenance) -> Change:
        _check(status, PAGE_STATUSES, "page status")
        with self.writing() as db:
            page_id = self.page_id(page)
            old = self.one("SELECT status FROM pages WHERE id = ?", (page_id,))[0]
            at = now()
            if old == status:
                return Change(None, page, at, by, "status", (), (), {"from": old, "to": status})
            db.execute("UPDATE pages SET status = ?, updated_at = ? WHERE id = ?", (status, at, page_id))
            return self._log(page, page_id, self.provenance_id(by), "status", [], [], {"from": old, "to": status})

    # Labels -----------------------------------------------------------------------------------------------

    def labels(self, page: str, statuses: Iterable[str] | None = None) -> list[Label]:
        """A page's records in display order (position, then id); optionally only some statuses."""
        rows = self._rows(self.page_id(page)).values()
        wanted = set(statuses) if statuses is not None else None
        provenances = self.provenances()
        return [_label(row, provenances) for row in rows if wanted is None or row["status"] in wanted]

    def true_records(self, page: str) -> list[list[str]]:
        """The ground truth of a page as NEXT-EVAL records (lists of XPaths), verbatim, in display order (as
        `labels` gives them). Only the XPaths are read: scoring asks this of every page of a run."""
        marks = ", ".join("?" * len(TRUE_LABEL_STATUSES))
        cursor = self.db.execute(f"SELECT xpaths FROM records WHERE page_id = ? AND status IN ({marks}) "
                                 "ORDER BY position, id", (self.page_id(page), *TRUE_LABEL_STATUSES))
        return [json.loads(xpaths) for (xpaths,) in cursor]

    def add_record(self, page: str, xpaths: Sequence[str], origin: Provenance, *, status: str | None = None,
                   unresolved: Sequence[str] = (), by: Provenance | None = None,
                   adjudicated: str | None = None, before: int | None = None) -> Change:
        """One record, after the page's last (or in front of record `before`: see `add_records`)."""
        return self.add_records(page, [xpaths], origin, status=status, unresolved=[unresolved], by=by,
                                adjudicated=adjudicated, before=None if before is None else [before])

    def add_records(self, page: str, records: Sequence[Sequence[str]], origin: Provenance, *,
                    status: str | None = None, unresolved: Sequence[Sequence[str]] | None = None,
                    by: Provenance | None = None, page_status: str = "proposed",
                    adjudicated: str | None = None, before: Sequence[int | None] | None = None) -> Change:
        """Add records after the page's last one, in one change; or, with `before`, record k in front of the
        page's record `before[k]` (None: after the last), the records behind it moving down in the same change
        (so that records added with "apply to siblings" are numbered in page order).

        An extractor's records arrive `proposed` and a person's or a dataset's `accepted`, unless `status` says
        otherwise. Records move a `new` page to `page_status`: `proposed` ("in progress") for a person's first
        record as well as an extractor's proposals, `labelled` for a dataset's labels, so that a restore to
        before them takes the page back to new. XPaths are kept verbatim; `unresolved[k]` lists
        those of record k that resolve to nothing (kept and flagged, never dropped)."""
        status = status or ("proposed" if origin.kind == "extractor" else "accepted")
        _check(status, LABEL_STATUSES, "label status")
        _check(page_status, PAGE_STATUSES, "page status")
        actor = by or origin
        with self.writing() as db:
            page_id = self.page_id(page)
            origin_id, actor_id = self.provenance_id(origin), self.provenance_id(actor)
            first = self.one("SELECT COALESCE(MAX(position), 0) + 1 FROM records WHERE page_id = ?", (page_id,))[0]
            at = now()
            added = []
            for k, xpaths in enumerate(records):
                row: Row = {"id": None, "page_id": page_id, "position": first + k, "xpaths": list(xpaths),
                            "unresolved": list(unresolved[k]) if unresolved else [], "status": status,
                            "origin_id": origin_id, "changed_by_id": actor_id if actor.is_person else None,
                            "derived_from": [], "created_at": at, "changed_at": at}
                added.append(self._insert(row))
            moved = self._place(page_id, added, before) if before is not None and added else []
            detail = _adjudication(adjudicated)
            if records and db.execute(
                    "UPDATE pages SET status = ?, updated_at = ? WHERE id = ? AND status = 'new'",
                    (page_status, at, page_id)).rowcount:
                detail["page_status"] = {"from": "new", "to": page_status}
            # The records that moved down are in the change as they were and as they are, as an edit's are, so
            # that a restore (an undo) puts them back and the history numbers them right.
            return self._log(page, page_id, actor_id, "add", [old for old, _ in moved],
                             added + [new for _, new in moved], detail)

    def weigh_proposals(self, page: str, records: Sequence[Sequence[str]], keys: TextKeyIndex | None,
                        by: Provenance | None = None) -> PageProposals:
        """An extractor's `records` for a page against the records it holds now, in any status
        (`hygiene.weigh_proposals`): those it lacks, those left out because its records cover their text already,
        and its undecided proposals that the extractor no longer makes. `keys`: the page's text keys, as the
        extractor read the page (None: records are compared by their XPaths alone). `by`: the extractor proposing
        them: only its own earlier proposals (of any version or model of it) are ones it no longer makes, another's
        are `others` (None: every undecided proposal is taken for its own)."""
        labels = self.labels(page)
        weighed = weigh_proposals(records, [label.xpaths for label in labels], keys)
        undecided = [label for i, label in enumerate(labels)
                     if label.status == "proposed" and i not in weighed.made_again]
        return PageProposals(weighed.new, [[labels[i] for i in held] for held in weighed.covered_by],
                             [label for label in undecided if _made_by(label, by)],
                             [label for label in undecided if not _made_by(label, by)])

    def _place(self, page_id: int, added: list[Row], before: Sequence[int | None]) -> list[tuple[Row, Row]]:
        """Put the just added rows in front of the records `before` names (None, or a record not on the page:
        last), moving down the records that must make room, and return those (as they were, as they are)."""
        new_ids = {row["id"] for row in added}
        slots: dict[int | None, list[Row]] = {}
        for row, target in zip(added, before, strict=True):
            slots.setdefault(target, []).append(row)
        order: list[Row] = []
        for row in self._rows(page_id).values():
            if row["id"] not in new_ids:
                order += slots.pop(row["id"], [])
                order.append(row)
        order += [row for rows in slots.values() for row in rows]
        moved: list[tuple[Row, Row]] = []
        # Records in front of the first added one keep their places as they are (ties of a split's pieces too)
        first = next(k for k, row in enumerate(order) if row["id"] in new_ids)
        position = max((row["position"] for row in order[:first]), default=0)
        for row in order[first:]:
            # An existing record keeps its place when it is already behind the one before it (positions can
            # have gaps, after a delete): only the records that must make room move.
            position = position + 1 if row["id"] in new_ids else max(position + 1, row["position"])
            if row["position"] == position:
                continue
            if row["id"] in new_ids:
                row["position"] = position  # the row the change logs as added: its place as it ends up
                self._update(row)
            else:
                new = {**row, "position": position}
                self._update(new)
                moved.append((row, new))
        return moved

    def accept(self, record_id: int, by: Provenance, *, adjudicated: str | None = None) -> Change:
        """The record becomes `accepted`; `adjudicated` names the other annotator whose version decided it (a
        record the project had rejected, taken over from theirs), kept in the history entry."""
        return self._change_record(record_id, by, "accept", _adjudication(adjudicated), status="accepted")

    def reject(self, record_id: int, by: Provenance) -> Change:
        return self._change_record(record_id, by, "reject", status=REJECTED)

    def edit(self, record_id: int, xpaths: Sequence[str], by: Provenance, *,
             unresolved: Sequence[str] = (), adjudicated: str | None = None) -> Change:
        """Replace a record's XPaths (a click that adds or removes an element); the record becomes `edited`.
        `adjudicated` names the other annotator whose version decided it (kept in the history entry).

        The same XPaths again change nothing (no `edited` status, no history entry)."""
        with self.writing():
            before = self._row(record_id)
            if before["xpaths"] == list(xpaths):
                label = _label(before, self.provenances())
                return Change(None, self._page_name(before), now(), by, "edit", (label,), (label,))
            return self._change_record(record_id, by, "edit", _adjudication(adjudicated), status="edited",
                                       xpaths=list(xpaths), unresolved=[x for x in unresolved if x in xpaths])

    def delete(self, record_id: int, by: Provenance, *, adjudicated: str | None = None) -> Change:
        with self.writing() as db:
            row = self._row(record_id)
            db.execute("DELETE FROM records WHERE id = ?", (record_id,))
            return self._log(self._page_name(row), row["page_id"], self.provenance_id(by), "delete", [row], [],
                             _adjudication(adjudicated))

    def merge(self, record_ids: Sequence[int], by: Provenance) -> Change:
        """One record with the XPaths of all (first record's order, then new ones), where the first one was."""
        if len(set(record_ids)) < 2:
            raise StoreError("merging needs at least two different records")
        with self.writing() as db:
            rows = [self._row(i, "a record selected") for i in dict.fromkeys(record_ids)]
            if len({row["page_id"] for row in rows}) > 1:
                raise StoreError("records on different pages cannot be merged")
            xpaths = list(dict.fromkeys(x for row in rows for x in row["xpaths"]))
            unresolved = list(dict.fromkeys(x for row in rows for x in row["unresolved"]))
            merged = self._derived(rows[0], by, xpaths, unresolved, [row["id"] for row in rows])
            merged["position"] = min(row["position"] for row in rows)
            for row in rows:
                db.execute("DELETE FROM records WHERE id = ?", (row["id"],))
            return self._log(self._page_name(rows[0]), rows[0]["page_id"], merged["changed_by_id"], "merge",
                             rows, [self._insert(merged)])

    def split(self, record_id: int, parts: Sequence[Sequence[str]], by: Provenance,
              before: Sequence[int | None] | None = None) -> Change:
        """Replace a record by several, each a subset of its XPaths; they take its place in the order, or with
        `before`, part k goes in front of the page's record `before[k]` (None: after the last), as `add_records`
        places records (so that a merge of two records far apart splits back into page order)."""
        with self.writing() as db:
            row = self._row(record_id)
            own = set(row["xpaths"])
            if len(parts) < 2 or any(not part for part in parts):
                raise StoreError("a split needs at least two non-empty parts")
            strays = [x for part in parts for x in part if x not in own]
            if strays:
                raise StoreError("a split can only use the record's own XPaths (changed meanwhile, in another "
                                 f"window?); not one of them: {strays[0]}")
            if before is None:  # its place: in front of the record that followed it (None: it was the last)
                order = list(self._rows(row["page_id"]))
                following = order[order.index(record_id) + 1] if order.index(record_id) + 1 < len(order) else None
                before = [following] * len(parts)
            db.execute("DELETE FROM records WHERE id = ?", (record_id,))
            pieces = [self._derived(row, by, list(part), [x for x in row["unresolved"] if x in part], [record_id])
                      for part in parts]
            added = [self._insert(piece) for piece in pieces]
            moved = self._place(row["page_id"], added, before)
            return self._log(self._page_name(row), row["page_id"], pieces[0]["changed_by_id"], "split",
                             [row, *(old for old, _ in moved)], added + [new for _, new in moved])

    def flag_unresolved(self, page: str, loaded: LoadedPage | None = None) -> int:
        """Recheck which XPaths of every record name no element; returns the number of flagged records.

        Flags are derived from the snapshot, which never changes, so this writes no history entry."""
        dom = (loaded or self.load(page)).page
        with self.writing() as db:
            flagged = 0
            for row in self._rows(self.page_id(page)).values():
                missing = [x for x in row["xpaths"] if dom.resolve(x) is None]
                flagged += bool(missing)
                if missing != row["unresolved"]:
                    db.execute("UPDATE records SET unresolved = ? WHERE id = ?", (dumps(missing), row["id"]))
            return flagged

    # History ----------------------------------------------------------------------------------------------

    def history(self, page: str) -> list[Change]:
        """Every change to a page's labels and status, oldest first."""
        page_id = self.page_id(page)
        provenances = self.provenances()
        rows = self.db.execute("SELECT id, at, actor_id, action, before, after, detail FROM label_history "
                               "WHERE page_id = ? ORDER BY id", (page_id,)).fetchall()
        return [Change(hid, page, at, provenances[actor], action,
                       tuple(_label(r, provenances) for r in json.loads(before)),
                       tuple(_label(r, provenances) for r in json.loads(after)), json.loads(detail))
                for hid, at, actor, action, before, after, detail in rows]

    def last_change_id(self, page: str | None = None) -> int | None:
        """The id of the page's latest history entry (of any page's without `page`; None before any), without
        reading the history. Ids grow in the order changes are committed, whatever the clock says."""
        row = (self.one("SELECT MAX(id) FROM label_history") if page is None
               else self.one("SELECT MAX(id) FROM label_history WHERE page_id = ?", (self.page_id(page),)))
        return None if row is None else row[0]

    def first_change_id(self, page: str) -> int | None:
        """The id of the page's oldest history entry (None before any), without reading the history: a page put
        back by `restore-page` keeps its entries' ids, so its oldest is older than any page imported since."""
        row = self.one("SELECT MIN(id) FROM label_history WHERE page_id = ?", (self.page_id(page),))
        return None if row is None else row[0]

    def restore(self, page: str, history_id: int | None, by: Provenance, *, why: str | None = None) -> Change:
        """Put the page's labels back as they were right after entry `history_id` (None: before any entry);
        `why` says what the restore is to a person (an undo of "accept"), kept in the entry's detail.

        The page's status goes back too when a later entry moved it (marked labelled, or new -> proposed by a
        proposal), so restoring to before any change does not leave a page marked labelled with none of the
        records it was labelled with. The restore is itself a change, so it can be undone the same way."""
        with self.writing() as db:
            page_id = self.page_id(page)
            if history_id is not None and self.one("SELECT 1 FROM label_history WHERE id = ? AND page_id = ?",
                                                   (history_id, page_id)) is None:
                # said without the entry's id, which the history list shows nowhere (it numbers changes 1, 2, …)
                raise StoreError(f"that change is no longer in page {page}'s history (the page removed and "
                                 "imported again meanwhile?)")
            current = self._rows(page_id)
            target = dict(current)
            status = self.one("SELECT status FROM pages WHERE id = ?", (page_id,))[0]
            target_status = status
            later = db.execute("SELECT h.action, h.before, h.after, h.detail, p.kind FROM label_history h "
                               "JOIN provenances p ON p.id = h.actor_id WHERE h.page_id = ? AND h.id > ? "
                               "ORDER BY h.id DESC", (page_id, history_id or 0))
            for action, before, after, detail, actor in later:
                for row in json.loads(after):
                    target.pop(row["id"], None)
                for row in json.loads(before):
                    target[row["id"]] = {**row, "page_id": page_id}  # this page's, whatever an old row says
                target_status = status_moved(action, json.loads(detail), actor).get("from", target_status)
            changed = sorted(i for i in current.keys() | target.keys() if current.get(i) != target.get(i))
            detail: dict[str, object] = {"to": history_id, **({"why": why} if why else {})}
            if target_status != status:
                db.execute("UPDATE pages SET status = ?, updated_at = ? WHERE id = ?", (target_status, now(), page_id))
                detail["page_status"] = {"from": status, "to": target_status}
            elif not changed and not self._decisions_differ(page_id, history_id):
                return Change(None, page, now(), by, "restore", (), (), detail)
            for record_id in changed:
                if record_id not in target:
                    db.execute("DELETE FROM records WHERE id = ?", (record_id,))
                elif record_id in current:
                    self._update(target[record_id])
                else:
                    self._insert(target[record_id])
            return self._log(page, page_id, self.provenance_id(by), "restore",
                             [current[i] for i in changed if i in current],
                             [target[i] for i in changed if i in target], detail)

    def log_decision(self, page: str, by: Provenance, action: str, detail: dict[str, object]) -> Change:
        """A history entry of a decision that changes no record (`project.adjudication.keep`): undone and redone
        by `restore` as every change is."""
        with self.writing():
            return self._log(page, self.page_id(page), self.provenance_id(by), action, [], [], detail)

    # Internals --------------------------------------------------------------------------------------------

    def _decisions_differ(self, page_id: int, history_id: int | None) -> bool:
        """Whether the decisions in force on the page (kept versions) are not those right after `history_id`: a
        restore to it that puts back no record must still be logged, since the decisions follow the history."""
        return self.adjudication.differ_after(page_id, history_id)

    def _page_rows(self, where: str, params: tuple[object, ...]) -> list[PageInfo]:
        rows = self.db.execute(f"""
            SELECT p.name, p.status, p.url, p.title, p.charset, p.snapshot, s.suffix, p.source, p.warnings,
                   p.imported_at, p.updated_at,
                   (SELECT COUNT(*) FROM records r WHERE r.page_id = p.id
                                                   AND r.status IN {sql_list(TRUE_LABEL_STATUSES)}),
                   (SELECT COUNT(*) FROM records r WHERE r.page_id = p.id AND r.status = 'proposed'),
                   (SELECT COUNT(*) FROM records r WHERE r.page_id = p.id AND r.unresolved != '[]'),
                   (SELECT COUNT(*) FROM records r WHERE r.page_id = p.id AND r.status = 'rejected'),
                   (SELECT COUNT(*) FROM records r WHERE r.page_id = p.id AND r.status = 'edited')
            FROM pages p LEFT JOIN snapshots s ON s.hash = p.snapshot {where}""", params).fetchall()
        # LEFT JOIN: a page whose snapshot lost its row (the database changed by hand) is still listed, with no
        # suffix, and said by what reads its copy (`snapshot_file`), not dropped from every list without a word
        return [_page_info(row) for row in rows]

    def _rows(self, page_id: int) -> dict[int, Row]:
        cursor = self.db.execute(f"{_SELECT_RECORDS} WHERE page_id = ? ORDER BY position, id", (page_id,))
        return {row["id"]: row for row in map(_decode, cursor)}

    def _row(self, record_id: int, gone: str = "the record selected") -> Row:
        """A record's row; where it is gone, `gone` names it in the refusal as the person chose it. Never by its
        id: a database id is shown nowhere, the person knows a record by its number on the page."""
        found = self.one(f"{_SELECT_RECORDS} WHERE id = ?", (record_id,))
        if found is None:
            raise StoreError(f"{gone} is no longer in the project (deleted meanwhile, in another window?)")
        return _decode(found)

    def _page_name(self, row: Row) -> str:
        return self.one("SELECT name FROM pages WHERE id = ?", (row["page_id"],))[0]

    def _insert(self, row: Row) -> Row:
        values = [dumps(row[c]) if c in _JSON_COLUMNS else row[c] for c in _RECORD_COLUMNS]
        cursor = self.db.execute(f"INSERT INTO records ({', '.join(_RECORD_COLUMNS)}) "
                                 f"VALUES ({', '.join('?' * len(_RECORD_COLUMNS))})", values)
        return {**row, "id": cursor.lastrowid}

    def _update(self, row: Row) -> None:
        columns = _RECORD_COLUMNS[1:]
        values = [dumps(row[c]) if c in _JSON_COLUMNS else row[c] for c in columns]
        self.db.execute(f"UPDATE records SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                        [*values, row["id"]])

    def _derived(self, source: Row, by: Provenance, xpaths: list[str], unresolved: list[str],
                 parents: list[int]) -> Row:
        at = now()
        return {**source, "id": None, "xpaths": xpaths, "unresolved": unresolved, "status": "edited",
                "changed_by_id": self.provenance_id(by), "derived_from": parents, "created_at": at,
                "changed_at": at}

    def _change_record(self, record_id: int, by: Provenance, action: str, detail: dict[str, object] | None = None,
                       **changes: object) -> Change:
        with self.writing():
            before = self._row(record_id)
            if all(before[k] == v for k, v in changes.items()):
                # Rejecting a rejected record, accepting an accepted one, an edit to the same XPaths: nothing
                # changes, so nothing is stored or logged (and nothing needs undoing).
                label = _label(before, self.provenances())
                return Change(None, self._page_name(before), now(), by, action, (label,), (label,))
            actor_id = self.provenance_id(by)
            after = {**before, **changes, "changed_by_id": actor_id, "changed_at": now()}
            self._update(after)
            return self._log(self._page_name(before), before["page_id"], actor_id, action, [before], [after], detail)

    def _log(self, page: str, page_id: int, actor_id: int, action: str, before: list[Row], after: list[Row],
             detail: dict[str, object] | None = None) -> Change:
        at = now()
        detail = {**(detail or {}), **({"step": self._step} if self._step else {})}
        cursor = self.db.execute(
            "INSERT INTO label_history (page_id, at, actor_id, action, before, after, detail) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (page_id, at, actor_id, action, dumps(before), dumps(after), dumps(detail)))
        provenances = self.provenances()
        return Change(cursor.lastrowid, page, at, provenances[actor_id], action,
                      tuple(_label(r, provenances) for r in before), tuple(_label(r, provenances) for r in after),
                      detail)


def _adjudication(annotator: str | None) -> dict[str, object]:
    """A history entry's note of the other annotator whose record an adjudication took, deleted or merged."""
    return {"adjudicated": annotator} if annotator else {}


def status_moved(action: str, detail: dict[str, object], actor: str = "") -> dict[str, str]:
    """The page status a history entry moved from and to ({} when it moved none): a status entry says it in its
    detail, a label change that moved it (a proposal, a restore) under "page_status". A dataset's labels, added
    with its page on import, moved it from new to labelled; projects older than that note say it nowhere (a
    dataset's labels that replace a page's later come in a step of work, and say what they moved)."""
    moved = detail if action == "status" else detail.get("page_status")
    if moved is None and action == "add" and actor == "dataset" and "step" not in detail:
        moved = {"from": "new", "to": "labelled"}
    return moved if isinstance(moved, dict) and "from" in moved else {}


def history_numbers(history: Sequence[Change]) -> list[dict[int, int]]:
    """For each change (oldest first, as `Project.history` gives them), the number each record it touched had on
    the page: its 1-based place in display order, the badge and the list's number. A record the change made or
    changed gets its number right after the change, a record it removed the number it had just before it.

    The history holds whole rows, so the page's records are replayed from the first entry on (as
    `history_records` does), keeping their order as a sorted list of keys: sorting the whole page again after
    each change took half a minute for a page of 10,000 records accepted one by one (20,000 changes)."""
    numbers: list[dict[int, int]] = []
    order = _DisplayOrder()
    for change in history:
        touched = {label.id: number for label in change.before if (number := order.number(label.id)) is not None}
        order.replace(change.before, change.after)
        touched.update((label.id, number) for label in change.after if (number := order.number(label.id)) is not None)
        numbers.append(touched)
    return numbers


class _DisplayOrder:
    """The page's records in display order (position, then id) while a history is replayed: a record's number is
    its place among them, found by bisection; a change moves only the records it holds."""

    def __init__(self) -> None:
        self._keys: list[tuple[int, int]] = []  # (position, id), sorted
        self._key_of: dict[int, tuple[int, int]] = {}

    def number(self, record_id: int) -> int | None:
        key = self._key_of.get(record_id)
        return None if key is None else bisect.bisect_left(self._keys, key) + 1

    def replace(self, before: Sequence[Label], after: Sequence[Label]) -> None:
        """The records of a change's `before` out of the page, those of its `after` in."""
        gone = [key for label in before if (key := self._key_of.pop(label.id, None)) is not None]
        come = [(label.position, label.id) for label in after]
        for key in come:
            if (old := self._key_of.get(key[1])) is not None:
                gone.append(old)
            self._key_of[key[1]] = key
        if len(gone) + len(come) > 64:  # a change of many records (a restore, 10,000 proposals): sorted again
            self._keys = sorted(self._key_of.values())
            return
        for key in gone:
            del self._keys[bisect.bisect_left(self._keys, key)]
        for key in come:
            bisect.insort(self._keys, key)


def history_records(history: Sequence[Change]) -> Iterator[list[Label]]:
    """The page's records in display order (badge and list numbers) right after each change, oldest first: the
    history holds whole rows, so they are replayed from the first entry on."""
    current: dict[int, Label] = {}
    for change in history:
        follow_change(current, change)
        yield sorted(current.values(), key=lambda label: (label.position, label.id))


def follow_change(records: dict[int, Label], change: Change) -> None:
    """`records` (a page's, by id) made as `change` left them: the history's rows are whole records, before and
    after."""
    for label in change.before:
        records.pop(label.id, None)
    records.update((label.id, label) for label in change.after)


def history_actions(changes: Sequence[Change]) -> list[list[Change]]:
    """The changes (oldest first: a page's history, or a step of it) as the person's actions, each one entry of a
    history: a merge's edit and the keep stored with it (`Change.ends_a_merge`) are one, every other change one of
    its own. Restoring to an action restores to its last change, so never between a merge's two."""
    grouped: list[list[Change]] = []
    for change in changes:
        if grouped and change.ends_a_merge:
            grouped[-1].append(change)
        else:
            grouped.append([change])
    return grouped


def history_steps(history: Sequence[Change]) -> list[list[Change]]:
    """The changes (oldest first) in steps of work: the changes of one `Project.one_step` that follow each other
    are one step, every other change a step of its own. A merge's edit and keep are one step (a step inside
    another is the outer one); inside a step of several, they are still one action (`Change.ends_a_merge`)."""
    steps: list[list[Change]] = []
    for change in history:
        if steps and change.step is not None and steps[-1][-1].step == change.step:
            steps[-1].append(change)
        else:
            steps.append([change])
    return steps


def _check(value: str, allowed: tuple[str, ...], what: str) -> None:
    if value not in allowed:
        raise StoreError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")


def _decode(values: Sequence[object]) -> Row:
    row = dict(zip(_RECORD_COLUMNS, values, strict=True))
    for column in _JSON_COLUMNS:
        row[column] = json.loads(row[column])
    return row


def _made_by(label: Label, extractor: Provenance | None) -> bool:
    """Whether `label` was first proposed by `extractor` (None: by whoever proposes now, for a caller that does not
    say): the same extractor by its name, whatever its version or model (a learnt selector's proposals are the
    shipped one's to withdraw, and gemini's of another model gemini's)."""
    return extractor is None or (label.origin.kind == extractor.kind and label.origin.name == extractor.name)


def _label(row: Row, provenances: dict[int, Provenance]) -> Label:
    changed_by = row["changed_by_id"]
    return Label(
        id=row["id"], position=row["position"], xpaths=tuple(row["xpaths"]), status=row["status"],
        origin=provenances[row["origin_id"]], changed_by=provenances[changed_by] if changed_by else None,
        derived_from=tuple(row["derived_from"]), unresolved=tuple(row["unresolved"]),
        created_at=row["created_at"], changed_at=row["changed_at"])


def _page_info(row: Sequence[object]) -> PageInfo:
    (name, status, url, title, charset, snapshot, suffix, source, warnings, imported_at, updated_at,
     true_labels, proposed, flagged, rejected, edited) = row
    return PageInfo(name, status, url, title, charset, snapshot, suffix, source, _stored_warnings(warnings),
                    imported_at, updated_at, int(true_labels), int(proposed), int(flagged),
                    int(rejected), int(edited))


def snapshot_row_problem(info: PageInfo) -> str | None:
    """Why a page's row names no saved copy, the database changed by hand (a snapshot that is not a hash, a suffix
    that is a path, `snapshot_name_problem`; or no row of the snapshot at all: `_page_rows` lists the page with no
    suffix), said to follow "page NAME: "; None for a row that names one (whether the file is there or not)."""
    return row_problem(info.snapshot, info.suffix)


def row_problem(snapshot: str, suffix: str | None) -> str | None:
    """`snapshot_row_problem` of a page's snapshot column and its snapshot row's suffix (None: no such row), for a
    reader of the rows themselves (a copy of a project of any schema)."""
    if suffix is None:
        return (f"its saved copy {shortened(repr(snapshot))} has no row in the project's snapshots table: the "
                "project's database was changed by hand")
    return snapshot_name_problem(snapshot, suffix)


def _stored_warnings(column: object) -> tuple[str, ...]:
    """A page's stored warnings (a JSON list); a column changed by hand into anything else is said as the page's one
    warning, rather than stop every list of the pages at it."""
    try:
        warnings = json.loads(column)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        warnings = None
    if not isinstance(warnings, list):
        return (f"the warnings stored with the page ({shortened(repr(column))}) cannot be read: the project's "
                "database was changed by hand",)
    return tuple(str(warning) for warning in warnings)


class _WrittenMeanwhile(Exception):  # noqa: N818 - a state, not a failure
    """Another process wrote to the database between the copy an upgrade kept of it and the upgrade's lock."""


class _ReadCopy(Project):
    """A project read through a copy of its database (`read_as_it_is`), whose folder (`throw_away`) goes when it is
    closed, unless the reading it was made for (`reading_as_it_is`) keeps it until it ends."""

    def __init__(self, root: Path, db: sqlite_utils.Database, throw_away: Path | None) -> None:
        super().__init__(root, db)
        self._throw_away = throw_away

    def close(self) -> None:
        super().close()
        if self._throw_away is not None:
            shutil.rmtree(self._throw_away, ignore_errors=True)
