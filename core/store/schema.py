"""The project database's tables and the migrations that build them, one schema version at a time.

The version lives in `PRAGMA user_version`. `MIGRATIONS[k]` takes a database from version k to k + 1, so a
project made by any earlier RecordLens opens in a later one; a project from a *later* RecordLens is refused
rather than guessed at. Migrations run inside the caller's write transaction: two processes that open an old
project at once cannot both migrate it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from ..agent.actions import ACTIONS
from ..errors import RecordLensError

PAGE_STATUSES = ("new", "proposed", "labelled", "reviewed")
# What a person reads for each page status: "proposed" is a record's word (proposed / accepted / rejected / edited),
# so a page with proposals but not yet labelled is "in progress". One word, one meaning.
PAGE_STATUS_WORDS = {"new": "new", "proposed": "in progress", "labelled": "labelled", "reviewed": "reviewed"}
REJECTED = "rejected"  # a record's status that says "not a record" (a person turned it down, R)
LABEL_STATUSES = ("proposed", "accepted", REJECTED, "edited")
# Labels that count as ground truth: a person accepted them as proposed or changed them.
TRUE_LABEL_STATUSES = ("accepted", "edited")
# Pages whose true labels are complete: ground truth for export and scoring (new and proposed pages are not).
TRUE_PAGE_STATUSES = ("labelled", "reviewed")


def sql_list(values: tuple[str, ...]) -> str:
    """`('a', 'b')` for a CHECK or IN clause over our own constant names (never user input)."""
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


# Version 1: pages, snapshots, labels with provenance and history, runs with predictions and scores.
_V1 = f"""
CREATE TABLE snapshots (
    hash TEXT PRIMARY KEY,                 -- sha256 of the file's bytes
    suffix TEXT NOT NULL,                  -- '.mhtml' or '.html': snapshots/ab/<hash><suffix>
    size INTEGER NOT NULL,
    stored_at TEXT NOT NULL
);
CREATE TABLE pages (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,             -- the file stem: '12', '12_v3'
    snapshot TEXT NOT NULL REFERENCES snapshots(hash),
    url TEXT,
    title TEXT,
    charset TEXT,
    status TEXT NOT NULL DEFAULT 'new' CHECK (status IN {sql_list(PAGE_STATUSES)}),
    source TEXT,                           -- where the file was imported from
    warnings TEXT NOT NULL DEFAULT '[]',   -- JSON list: what reading the snapshot reported
    imported_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX pages_status ON pages(status);
-- Who or what produced a label or a change. '' rather than NULL, so that UNIQUE finds the same row again.
CREATE TABLE provenances (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'extractor', 'dataset')),
    name TEXT NOT NULL,                    -- a person, an extractor, or the records file a label came from
    version TEXT NOT NULL DEFAULT '',
    input_format TEXT NOT NULL DEFAULT '',
    seed TEXT NOT NULL DEFAULT '',
    UNIQUE (kind, name, version, input_format, seed)
);
-- AUTOINCREMENT: a deleted record's id is never reused, so restoring it from the history cannot collide.
CREATE TABLE records (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,             -- display (and colour) order; ties are broken by id
    xpaths TEXT NOT NULL,                  -- JSON list, verbatim as given (never normalised)
    unresolved TEXT NOT NULL DEFAULT '[]', -- JSON list: XPaths that named no element when last checked
    status TEXT NOT NULL CHECK (status IN {sql_list(LABEL_STATUSES)}),
    origin_id INTEGER NOT NULL REFERENCES provenances(id),
    changed_by_id INTEGER REFERENCES provenances(id),
    derived_from TEXT NOT NULL DEFAULT '[]', -- JSON list of record ids this one was merged or split from
    created_at TEXT NOT NULL,
    changed_at TEXT NOT NULL
);
CREATE INDEX records_page ON records(page_id, position, id);
-- One row per change, written in the change's own transaction. `before` and `after` hold the complete rows
-- of the records the change touched, so undoing the rows after an entry, newest first, gives the page's
-- labels as they were right after it.
CREATE TABLE label_history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    actor_id INTEGER NOT NULL REFERENCES provenances(id),
    action TEXT NOT NULL,                  -- add, accept, reject, edit, delete, merge, split, restore, status
    before TEXT NOT NULL DEFAULT '[]',
    after TEXT NOT NULL DEFAULT '[]',
    detail TEXT NOT NULL DEFAULT '{{}}'
);
CREATE INDEX label_history_page ON label_history(page_id, id);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    method TEXT NOT NULL,
    parameters TEXT NOT NULL DEFAULT '{{}}',  -- JSON: model, input format, seed, ...
    status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),
    started_at TEXT NOT NULL,
    ended_at TEXT,
    cost TEXT NOT NULL DEFAULT '{{}}'         -- JSON: tokens, dollars, seconds
);
CREATE TABLE predictions (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    records TEXT NOT NULL,                 -- JSON list of records, each a list of XPaths
    error TEXT,                            -- why the extractor gave nothing for this page, if it failed
    PRIMARY KEY (run_id, page_id)
);
CREATE TABLE scores (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    precision REAL NOT NULL,
    recall REAL NOT NULL,
    f1 REAL NOT NULL,
    predicted_records INTEGER NOT NULL,
    true_records INTEGER NOT NULL,
    hallucinated_records INTEGER NOT NULL,
    warnings TEXT NOT NULL DEFAULT '[]',
    scored_at TEXT NOT NULL,
    PRIMARY KEY (run_id, page_id)
);
"""

# Version 2: snapshot sites, tasks, trajectories and agent runs for the web-agent benchmarks.
_V2 = f"""
CREATE TABLE sites (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);
CREATE TABLE site_pages (
    site_id INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    url TEXT NOT NULL,                     -- the saved URL a link must match to stay inside the site
    page_id INTEGER NOT NULL REFERENCES pages(id),
    PRIMARY KEY (site_id, url)
);
CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    site_id INTEGER NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
    instruction TEXT NOT NULL,
    category TEXT NOT NULL DEFAULT '',
    gold_answer TEXT NOT NULL,
    normalisation TEXT NOT NULL DEFAULT 'exact',
    start_url TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE agent_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    method TEXT NOT NULL,                  -- e.g. 'fixed-window', 'dynamic-memory'
    parameters TEXT NOT NULL DEFAULT '{{}}',
    started_at TEXT NOT NULL,
    ended_at TEXT,
    cost TEXT NOT NULL DEFAULT '{{}}'
);
CREATE TABLE trajectories (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    actor_id INTEGER NOT NULL REFERENCES provenances(id),  -- the person who recorded it, or the agent
    agent_run_id INTEGER REFERENCES agent_runs(id) ON DELETE CASCADE,  -- NULL for a reference trajectory
    answer TEXT,
    success INTEGER,                       -- exact match against the task's gold answer; NULL until judged
    started_at TEXT NOT NULL,
    ended_at TEXT
);
CREATE TABLE steps (
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    action TEXT NOT NULL CHECK (action IN {sql_list(ACTIONS)}),
    target TEXT NOT NULL DEFAULT '{{}}',   -- JSON: label number, XPath, text, role and name, bounding box
    value TEXT,                            -- typed text, scroll amount, wait time or the answer
    url TEXT NOT NULL,
    screenshot TEXT,                       -- snapshots hash of the PNG, stored like a page snapshot
    thought TEXT,
    at TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, position)
);
"""

# Version 3: what the agent benchmarks need beyond v2: tasks with their file id, answer kind and normalisation
# rules (a JSON list in `normalisation`, which v2 filled with 'exact' = no rule); the run index and stop reason of
# a trajectory; each step's screenshot after, its time, the model's raw answer and the error of a failed step
# (a failed step whose answer named no action has action NULL); every raw model call.
_V3 = f"""
ALTER TABLE sites ADD COLUMN folder TEXT;
ALTER TABLE tasks ADD COLUMN external_id TEXT;
ALTER TABLE tasks ADD COLUMN answer_kind TEXT NOT NULL DEFAULT 'text';
UPDATE tasks SET normalisation = '[]' WHERE normalisation = 'exact';
UPDATE tasks SET normalisation = json_array(normalisation) WHERE json_valid(normalisation) = 0;
UPDATE tasks SET external_id = CAST(id AS TEXT) WHERE external_id IS NULL;
CREATE UNIQUE INDEX tasks_external_id ON tasks(site_id, external_id);
ALTER TABLE trajectories ADD COLUMN run_index INTEGER;
ALTER TABLE trajectories ADD COLUMN stop TEXT;
-- Rebuilt rather than altered: a CHECK cannot be relaxed in place, and action must now allow NULL.
CREATE TABLE steps_v3 (
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    action TEXT CHECK (action IN {sql_list(ACTIONS)}),  -- NULL: a failed step that named no action
    target TEXT NOT NULL DEFAULT '{{}}',   -- JSON: label number, XPath, text, role and name, bounding box
    value TEXT,                            -- typed text, scroll direction or the answer
    url TEXT NOT NULL,
    screenshot TEXT,                       -- hash of the PNG before the step, stored like a page snapshot
    screenshot_after TEXT,
    thought TEXT,
    seconds REAL,
    raw TEXT,                              -- the model's whole answer
    error TEXT,                            -- why the step failed; NULL when it was carried out
    at TEXT NOT NULL,
    PRIMARY KEY (trajectory_id, position)
);
INSERT INTO steps_v3 (trajectory_id, position, action, target, value, url, screenshot, thought, at)
    SELECT trajectory_id, position, action, target, value, url, screenshot, thought, at FROM steps;
DROP TABLE steps;
ALTER TABLE steps_v3 RENAME TO steps;
CREATE TABLE model_calls (
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,              -- calls in the order they were made
    position INTEGER NOT NULL,             -- the step the call produced
    system TEXT,
    prompt TEXT NOT NULL,
    images INTEGER NOT NULL DEFAULT 0,     -- screenshots sent with the prompt (stored with the step)
    answer TEXT,                           -- the raw text; NULL when the call failed
    usage TEXT NOT NULL DEFAULT '{{}}',    -- JSON: prompt, completion, total tokens
    seconds REAL NOT NULL DEFAULT 0,
    error TEXT,
    PRIMARY KEY (trajectory_id, ordinal)
);
"""

PROVENANCE_KINDS_V1 = ("person", "extractor", "dataset")
PROVENANCE_KINDS = (*PROVENANCE_KINDS_V1, "agent")
AGENT_RUN_STATUSES = ("running", "finished", "failed")


def _v4(conn: sqlite3.Connection) -> None:
    """Version 4: agents have a provenance kind of their own ("agent"; v3 stored them as kind "extractor" with
    version "agent"), and an agent run has a status and an error ("failed": the model endpoint failed).

    The provenance CHECK cannot be altered in place, and a rebuild of `provenances` is impossible inside the
    caller's transaction: labels, history and trajectories reference it, foreign keys are on, and
    `PRAGMA foreign_keys` cannot change inside a transaction (DROP TABLE would fail on the references). The
    CHECK only gains a value, so no stored row can violate the new one: that is the case SQLite's ALTER TABLE
    documentation allows to make by rewriting the table's SQL in sqlite_master (writable_schema), bumping
    schema_version so that every connection reloads the schema. Everything else is plain SQL.
    """
    old = f"kind IN {sql_list(PROVENANCE_KINDS_V1)}"
    new = f"kind IN {sql_list(PROVENANCE_KINDS)}"
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'provenances'").fetchone()
    if old not in sql:
        raise SchemaError("the provenances table is not as RecordLens made it; cannot migrate it to version 4")
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    conn.execute("PRAGMA writable_schema = ON")
    try:
        conn.execute("UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'provenances'",
                     (sql.replace(old, new),))
        conn.execute(f"PRAGMA schema_version = {version + 1}")
    finally:
        conn.execute("PRAGMA writable_schema = OFF")
    # An agent and an extractor of the same name never shared a row (version "agent" told them apart), so the
    # UNIQUE (kind, name, version, input_format, seed) still holds after the change.
    conn.execute("UPDATE provenances SET kind = 'agent', version = '' WHERE kind = 'extractor' AND version = 'agent'")
    conn.execute("ALTER TABLE agent_runs ADD COLUMN status TEXT")
    conn.execute("ALTER TABLE agent_runs ADD COLUMN error TEXT")
    conn.execute("UPDATE agent_runs SET status = CASE WHEN ended_at IS NULL THEN 'running' ELSE 'finished' END")


# Version 5: other annotators' label sets, kept apart from the project's own labels (see label_sets.py).
_V5 = """
CREATE TABLE annotator_pages (
    annotator TEXT NOT NULL,               -- the second annotator's name
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    source TEXT,                           -- the records file the page's labels came from
    imported_at TEXT NOT NULL,
    PRIMARY KEY (annotator, page_id)
);
CREATE TABLE annotator_labels (
    annotator TEXT NOT NULL,
    page_id INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,             -- the record's place in the annotator's file
    xpaths TEXT NOT NULL,                  -- JSON list, verbatim
    PRIMARY KEY (annotator, page_id, position)
);
"""

# Version 6: each page's label check, remembered with a digest of what it was made from (see label_checks.py).
_V6 = """
CREATE TABLE label_checks (
    page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
    digest TEXT NOT NULL,                  -- of the snapshot, the page's true records and the checker's version
    result TEXT NOT NULL                   -- JSON: the PageCheck
);
"""

# Version 7: each score says which page reader made it (`runs.PAGE_READER_VERSION`): one made by another reads
# pages otherwise, and is made again. Scores stored before have none (NULL): made by an earlier RecordLens, maybe
# with an earlier reader, they are made again too. RecordLens refuses a later schema, so no earlier one can
# store a score here that this column would not tell apart.
_V7 = """
ALTER TABLE scores ADD COLUMN page_reader INTEGER;
"""

# Version 8: each score says the latest label change (its `label_history` id) committed when the labels it scores
# were read. A change committed later has a larger id whatever the clocks said: an edit whose transaction began
# before the score's labels were read (its time earlier) but committed after, or one made after the clock stepped
# back, leaves the score stale. A score stored before gets the id just below the first change made after it by the
# clock, so that every change its time was before stays after it (a clock stepped back can only make it stale), and
# one that comes back later with a removed page's copy made before has none (NULL) and is judged by its time. A score
# stored before that is older than its run's end (made while the run ran, or before a resume replaced predictions:
# schema 8 drops a page's score when its predictions change, earlier ones did not) is marked made by an earlier page
# reader, so it is made again.
_V8 = """
ALTER TABLE scores ADD COLUMN changes_seen INTEGER;
CREATE TEMP TABLE changes_from AS
    SELECT at, MIN(id) OVER (ORDER BY at DESC, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS first_id
    FROM label_history;
CREATE INDEX temp.changes_from_at ON changes_from(at, first_id);
UPDATE scores SET changes_seen = COALESCE(
    (SELECT first_id FROM changes_from WHERE at > scores.scored_at ORDER BY at, first_id LIMIT 1) - 1,
    (SELECT MAX(id) FROM label_history), 0);
DROP TABLE temp.changes_from;
UPDATE scores SET page_reader = NULL
    WHERE (SELECT r.ended_at FROM runs r WHERE r.id = scores.run_id) IS NULL
       OR scored_at < (SELECT r.ended_at FROM runs r WHERE r.id = scores.run_id);
"""

# Version 9: each trajectory says the version of its task it was stored for: the `tasks.task_digest` of the task as a
# reference was recorded for it, or an episode run on it. A task changed later (`--replace-tasks`, the agent window)
# no longer takes a reference of an earlier version for its own. A trajectory stored before has none (NULL):
# recorded before versions were kept, it counts as it did.
_V9 = """
ALTER TABLE trajectories ADD COLUMN task_digest TEXT;
"""

# Version 10: a run's prediction of a page whose score went because the prediction changed (`runs --add` of its folder
# gone on since: `Runs.add_predictions`) keeps the label change that score had seen, until the page is scored again:
# its stale score is then said to be the run's doing, not its labels', whatever other scores of the run were made
# (the run's latest score of another page, or the one that went, said nothing of this page). A prediction stored
# before has none (NULL): said as "labels or predictions changed" (`Runs.score_dropped_unsaid`), unless the page's
# labels changed after the run's latest score, or the page came into the project after it. Nothing records which
# predictions were stored before this upgrade (a prediction has no time; the upgrade leaves only the database as it
# was, in removed/): one stored since that never had a score to lose has none either, and is said alike.
_V10 = """
ALTER TABLE predictions ADD COLUMN score_dropped_seen INTEGER;
"""


# Version 11: whether a Type step pressed Enter after its text (`Step.submit`): a person's typing committed by leaving
# the field did not, and replay must not submit its form. A step stored before has none (NULL): Enter, as the
# grammar's Type always was.
_V11 = """
ALTER TABLE steps ADD COLUMN submit INTEGER;
"""


# Version 12: each score keeps the content hash (`files.content_hash`) of the saved copy's bytes it read: the copy is
# changed since it was scored when its bytes now hash otherwise, whatever its file's time says (a project copied
# without its files' times is no change; a copy changed by hand, scored, then put back as it was stored is one). A
# score stored before has none (NULL): judged by its time, as before (its copy written after it into bytes that are
# no longer those it was stored as).
_V12 = """
ALTER TABLE scores ADD COLUMN copy_hash TEXT;
"""


# A migration is a SQL script or, when SQL alone cannot say it, a function of the connection.
MIGRATIONS: tuple[str | Callable[[sqlite3.Connection], None], ...] = (
    _V1, _V2, _V3, _v4, _V5, _V6, _V7, _V8, _V9, _V10, _V11, _V12)
SCHEMA_VERSION = len(MIGRATIONS)
# A removed page's copy (`page_removal`) written at this schema version or a later one is put back as it is: the
# migrations since only added tables, and columns its rows may leave empty (v7: a score's page reader; empty, the
# score is made again; v8: the label change a score saw; empty, it is judged by its time; v9: a trajectory's task
# version, in a table no page's copy holds; v10: the label change a prediction's dropped score saw; empty, its stale
# score is said as its labels' or its prediction's doing; v11: a step's Enter, in a table no page's copy holds; v12:
# the hash of the saved copy's bytes a score read; empty, the copy is judged by its time). A migration that changes
# the rows of a table with a page_id moves it to its own version.
PAGE_COPIES_SINCE = 6


class SchemaError(RecordLensError):
    """The project database was made by a newer RecordLens, or is not a RecordLens project at all."""


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to `target` inside the open transaction; returns the version found."""
    found = schema_version(conn)
    if found > SCHEMA_VERSION:
        raise SchemaError(f"this project uses schema version {found}, newer than this RecordLens "
                          f"understands ({SCHEMA_VERSION}): update RecordLens to open it")
    for version in range(found, target):
        step = MIGRATIONS[version]
        if callable(step):
            step(conn)
        else:
            for statement in _statements(step):
                conn.execute(statement)
        # PRAGMA user_version is transactional: it commits or rolls back with the tables it describes.
        conn.execute(f"PRAGMA user_version = {version + 1}")
    return found


def _statements(script: str) -> list[str]:
    """Split a script into statements: `executescript` would commit the caller's transaction first."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    return statements
