"""Runs in a project: an extractor applied to pages (method, parameters, when, cost), its predictions and the
per-page scores against the project's labels at the time they were computed."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import math
import os
import shutil
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from .. import atomic, owner_files
from ..errors import RecordLensError, is_for_a_moment
from ..moments import stored_moment
from ..page.dataset import (
    PAGE_READER_VERSION,  # kept with each score (schema 7): another reader's is stale
    lands_outside,
)
from ..page.snapshot import read_file_bytes
from ..path_text import json_text, shown_bytes, stored_text
from ..records.model import save_records
from ..records.score import DatasetScore, PageFigures
from ..runs.run_files import (
    ADDED_FROM,
    COPIED_COST,
    ENDED,
    FAILED,
    LEFT_OUT,
    META_DIR,
    NOT_IN_PROJECT,
    STOPPED,
    STORED_COST,
    not_in_project,
    spent_said,
)
from ..wording import counted, listed
from .db import TRIES_WHILE_IT_CHANGES, StoreError, dumps, now
from .files import content_hash, snapshot_name_problem, snapshot_path
from .removed_files import REMOVED, hidden_folder, name_folder, safe_name, stamped
from .run_matching import KEPT_FOR_ADDING, first_folder
from .schema import TRUE_LABEL_STATUSES, TRUE_PAGE_STATUSES, sql_list

if TYPE_CHECKING:  # the project holds its runs (`project.runs`): it imports this module
    from .project import Project

RUN_STATUSES = ("running", "finished", "failed", "cancelled")
DELETED_RUNS = "runs"  # inside the project's `removed/`: the runs deleted, each a run folder `--add` stores again
INTERRUPTED = "interrupted"  # the outcome of a run still "running" whose process is gone (killed, the power lost)
# In a project folder: the owner mark of each run a process carries out now (`Runs.start`), a lock of
# `owner_files` (hidden: a copy of the project is not carried out by anyone)
RUNNING_MARKS = ".running"

_log = logging.getLogger(__name__)


def stale_words(stale: Sequence[str], earlier: Sequence[str], later: Sequence[str] = (), *,
                relabelled: Sequence[str] = (), names: bool = True) -> str:
    """`stale` pages in a few words, those scored by an `earlier` page reader and those scored by a `later` one
    (another install of a newer RecordLens sharing the project) said apart from those whose labels changed since,
    each with its pages listed (`names`). A page `relabelled` since its score (its labels changed, or it was marked
    labelled or no longer) is said so whoever scored it: that is what a person can act on, and a score of labels no
    longer there would be stale under any reader; each page is said once."""
    by_earlier, by_later, changed_since = set(earlier), set(later), set(relabelled)
    changed = [page for page in stale if page in changed_since or (page not in by_earlier and page not in by_later)]
    older = [page for page in stale if page in by_earlier and page not in changed_since]
    newer = [page for page in stale if page in by_later and page not in changed_since]
    parts = [f"{counted(len(pages), 'page')} {why}" + (f" ({listed(pages)})" if names else "")
             for pages, why in ((changed, "labelled, changed or unmarked since it was scored"),
                                (older, "scored by an earlier RecordLens"),
                                (newer, "scored by a later RecordLens")) if pages]
    return "; ".join(parts)


def records_digest(records: object) -> str:
    """A digest of a page's records as read (a list of lists, as JSON gives them and `add_predictions` stores them),
    the same for equal records and only for them: a stored run's and a folder's predictions compared page by page,
    neither held whole."""
    text = json.dumps(records, ensure_ascii=True)  # ASCII: a lone surrogate too
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class StoredRun:
    """What every run a project keeps has, an extractor's (`project.runs`) or an agent's (`project.agent`)."""

    id: int
    method: str
    parameters: dict[str, object]
    status: str
    started_at: str
    ended_at: str | None
    cost: dict[str, object]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Self:
        """From the columns id, method, parameters, status, started_at, ended_at and cost (parameters and cost
        as JSON), then the columns of the subclass's own fields."""
        run_id, method, parameters, status, started_at, ended_at, cost, *own = row
        return cls(run_id, method, json.loads(parameters), status, started_at, ended_at, json.loads(cost), *own)


@dataclass(frozen=True)
class RunInfo(StoredRun):
    predicted_pages: int               # pages it holds records or a failure for
    failed_pages: int                  # of those, pages it failed on (no records)
    scored_pages: int
    precision: float | None            # means of the stored per-page scores; None before scoring, or some gone
    recall: float | None
    f1: float | None
    # Of the scored pages, those the run holds records for (not failed on, not left unextracted), and the mean F1
    # over them: a run of part of the project reads apart from a bad run (`f1` counts the others as 0).
    scored_with_prediction: int
    f1_with_prediction: float | None
    # The latest rowid of its predictions: a page's prediction stored or replaced (`add_predictions`) is a new row
    # with a rowid above every other, so that a run whose records changed reads apart from the run it was, its
    # counts the same (Review tells runs changed elsewhere by it)
    predictions_stamp: int
    # The labelled pages whose stored score went with a change of the run's prediction of them since it was scored
    # (`add_predictions`: a stopped run's folder added again once its extract went on). Its means would then be of
    # the scores left alone, a figure the run never had (one of the pages it held as they were, and of the pages it
    # had not reached, scored as empty): they are None until it is scored again, its counts those of the scores left.
    scores_dropped: int
    owner_gone: bool = False  # "running", but no process holds its owner mark: it will never end

    @property
    def outcome(self) -> str:
        """The status a person reads: a run that ended before its last page (its budget, a failing endpoint) is
        "stopped", though every page it reached is stored; one still running whose process is gone (killed, the
        power lost) is "interrupted", its pages kept as they were."""
        if self.status == "running" and self.owner_gone:
            return INTERRUPTED
        return "stopped" if self.status == "finished" and self.cost.get(STOPPED) else self.status

    @property
    def spent(self) -> str:
        """What the run spent on a model, in words ("3 requests, 1,360 tokens (…)", answers whose tokens are unknown
        said beside them: `run_files.spent_said`), as `recordlens runs`, Review and the app's Propose say it; "" for
        a run of a method that calls none."""
        return spent_said(self.cost)


_TRUTH = sql_list(TRUE_PAGE_STATUSES)  # the statuses of a page a run is scored on

# The scores of run r whose page it holds records for (a prediction stored without an error).
_PREDICTED = ("JOIN predictions d ON d.run_id = s.run_id AND d.page_id = s.page_id "
              "WHERE s.run_id = r.id AND d.error IS NULL")


# A label change (label_history h) that could move its page's truth: one that touched a true record before or after
# (a proposal added or rejected leaves the truth as it was). A change of the page's mark alone does not: the records
# are its truth under either mark a run is scored on (labelled -> reviewed, the app's V, changes no figure), and
# whether it is scored at all is its mark now (`_RELABELLED`).
_MOVES_TRUTH = "(" + " OR ".join(
    f"EXISTS (SELECT 1 FROM json_each(h.{side}) r WHERE json_extract(r.value, '$.status') IN "
    f"{sql_list(TRUE_LABEL_STATUSES)})" for side in ("before", "after")) + ")"
# Page p's score s in a run (NULL when it has none) no longer scores its labels: p is labelled since, or no longer,
# or a change that could move its truth came after s. A change is after the score when its history id is above the
# latest the score saw (schema 8): ids follow the order of commits, times do not (a transaction begun before the
# labels were read and committed after; a clock stepped back). A score stored before says none, and is judged by
# its time.
_RELABELLED = f"""((s.page_id IS NULL AND p.status IN {_TRUTH})
    OR (s.page_id IS NOT NULL AND p.status NOT IN {_TRUTH})
    OR EXISTS (SELECT 1 FROM label_history h WHERE h.page_id = p.id
               AND (CASE WHEN s.changes_seen IS NULL THEN h.at > s.scored_at ELSE h.id > s.changes_seen END)
               AND {_MOVES_TRUTH}))"""


@dataclass(frozen=True)
class RunDeletion:
    """What deleting a run took out of the project."""

    run: RunInfo
    predictions: int
    scores: int
    kept: Path  # the run folder its predictions were written to first (`runs --add` stores it again)


@dataclass(frozen=True)
class _HeldRun:
    """A run as the project holds it, as stored: its row (id, method, parameters, status, started_at, ended_at and
    cost, the last two as JSON) and its predictions (page, records as JSON, why it failed), by page."""

    row: tuple[object, ...]
    pages: tuple[tuple[str, str, str | None], ...]

    @property
    def stored_run(self) -> StoredRun:
        return StoredRun.from_row(self.row)

    @property
    def predictions(self) -> dict[str, list[list[str]]]:
        return {page: json.loads(records) for page, records, _ in self.pages}

    @property
    def errors(self) -> dict[str, str]:
        return {page: error for page, _, error in self.pages if error is not None}


@dataclass(frozen=True)
class StoredScore(PageFigures):
    hallucinated_records: int
    warnings: tuple[str, ...]
    scored_at: str
    page_reader: int | None = None  # the page reader that made it (`PAGE_READER_VERSION`); None: an earlier RecordLens
    # The latest label change committed when its labels were read (schema 8); None: one from a removed page's copy
    # made before, judged by its time
    changes_seen: int | None = None


class Runs:
    """A project's extractor runs, their predictions and their scores: `project.runs`."""

    def __init__(self, store: Project) -> None:
        self._store = store

    def add(self, method: str, parameters: Mapping[str, object] | None = None, *,
                started_at: str | None = None) -> int:
        with self._store.writing() as db:
            cursor = db.execute("INSERT INTO runs (method, parameters, started_at) VALUES (?, ?, ?)",
                                (method, dumps(dict(parameters or {})), started_at or now()))
            return int(cursor.lastrowid)

    def start(self, method: str, parameters: Mapping[str, object] | None = None) -> int:
        """A run this process carries out now, page by page (the app's Propose session): added with its owner
        mark, a lock this process holds until `finish` and that the system frees however the process ends, so
        that a run whose process was killed reads as interrupted rather than running for ever. The mark is taken
        before the run is committed: no one sees the run without it.

        Where no mark can be had (`.running/` cannot be made, a file system without locks), the run is carried out
        all the same, unmarked, with a warning logged: this process knows it as its own, so it reads as running
        here until `finish`; another process judges it by the owner line written in its mark file, where one could
        be written (which a reused process id fools), else reads it as interrupted."""
        mark: Path | None = None
        try:
            with self._store.writing():
                run_id = self.add(method, parameters)
                mark = self._mark(run_id)
                try:
                    take_mark(mark)  # Held (raised here) leaves no run
                except OSError as error:
                    _log.warning("run %d of %s runs without its owner mark in %s (%s): other processes may read it "
                                 "as interrupted while it runs", run_id, self._store.root, RUNNING_MARKS,
                                 error.strerror or error)
                    keep_unmarked(mark)
        except BaseException:
            if mark is not None:
                release_mark(mark)  # the run was not committed: its mark would mark nothing
            raise
        return run_id

    def finish(self, run_id: int, *, status: str = "finished", cost: Mapping[str, object] | None = None,
                   ended_at: str | None = None, source: str | None = None) -> None:
        """The run ended: its status, end and cost. `source`: the folder a stored run was just brought up to date
        from (`runs --add` of its folder, or of a copy of it, gone on since), which it names from then on
        (`run_origin`, a deleted run's copy): that folder holds what the run holds now, the first may not."""
        if status not in RUN_STATUSES:
            raise StoreError(f"unknown run status {status!r}; expected one of {', '.join(RUN_STATUSES)}")
        with self._store.writing() as db:
            self._require(run_id)
            db.execute("UPDATE runs SET status = ?, ended_at = ?, cost = ? WHERE id = ?",
                       (status, ended_at or now(), dumps(dict(cost or {})), run_id))
            if source is not None:
                (parameters,) = self._store.one("SELECT parameters FROM runs WHERE id = ?", (run_id,))
                db.execute("UPDATE runs SET parameters = ? WHERE id = ?",
                           (dumps({**json.loads(parameters), "source": source}), run_id))
        release_mark(self._mark(run_id))  # once its end is committed: never "interrupted" in between

    def _mark(self, run_id: int) -> Path:
        return Path(self._store.root) / RUNNING_MARKS / f"run-{run_id}"

    def _owner_gone(self, run_id: int) -> bool:
        """Whether no live process holds the run's mark (one added by `add`, never marked, is judged the same:
        made before marks were, or by a process that did not finish it)."""
        return mark_gone(self._mark(run_id))

    def _status(self, run_id: int) -> str | None:
        row = self._store.one("SELECT status FROM runs WHERE id = ?", (run_id,))
        return str(row[0]) if row else None

    def keep_cost(self, run_id: int, cost: Mapping[str, object]) -> None:
        """A running run's cost so far (what it paid for is kept as it goes), its status and end left alone."""
        with self._store.writing() as db:
            self._require(run_id)
            db.execute("UPDATE runs SET cost = ? WHERE id = ?", (dumps(dict(cost)), run_id))

    def add_predictions(self, run_id: int, predictions: Mapping[str, Sequence[Sequence[str]]],
                        errors: Mapping[str, str] | None = None) -> None:
        """Store (or replace) a run's records for some pages in one transaction; `errors` says why a page
        has none (the extractor failed on it). A page whose records or failure change loses its stored score
        (made of what the run held before), in the same transaction: it is stale until scored again, whatever
        the clocks of the run and of the score said."""
        errors = errors or {}
        with self._store.writing() as db:
            self._require(run_id)
            for page in dict.fromkeys([*predictions, *errors]):
                page_id = self._store.page_id(page)
                error = errors.get(page)
                row = (dumps([list(record) for record in predictions.get(page, [])]),
                       None if error is None else stored_text(error))
                held = db.execute("SELECT records, error, score_dropped_seen FROM predictions "
                                  "WHERE run_id = ? AND page_id = ?", (run_id, page_id)).fetchone()
                if held is not None and tuple(held[:2]) == row:
                    continue
                # The label change the score that goes had seen, kept with the prediction until the page is scored
                # again (`predictions_changed_since_scored`); one changed twice keeps the first score's
                scored = db.execute("SELECT COALESCE(changes_seen, 0) FROM scores WHERE run_id = ? AND page_id = ?",
                                    (run_id, page_id)).fetchone()
                dropped = scored[0] if scored is not None else held[2] if held is not None else None
                db.execute("INSERT OR REPLACE INTO predictions (run_id, page_id, records, error, score_dropped_seen) "
                           "VALUES (?, ?, ?, ?, ?)", (run_id, page_id, *row, dropped))
                db.execute("DELETE FROM scores WHERE run_id = ? AND page_id = ?", (run_id, page_id))

    def errors(self, run_id: int) -> dict[str, str]:
        """Page -> why the run has no records for it (the extractor failed on it), for the pages it failed on."""
        self._require(run_id)
        rows = self._store.db.execute("SELECT p.name, d.error FROM predictions d JOIN pages p ON p.id = d.page_id "
                                      "WHERE d.run_id = ? AND d.error IS NOT NULL", (run_id,))
        return {name: str(error) for name, error in rows}

    def page_names(self, run_id: int) -> list[str]:
        """The pages the run holds records or a failure for (the keys of `predictions`, none of its records read)."""
        self._require(run_id)
        rows = self._store.db.execute("SELECT p.name FROM predictions d JOIN pages p ON p.id = d.page_id "
                                      "WHERE d.run_id = ?", (run_id,))
        return [name for (name,) in rows]

    def predictions(self, run_id: int) -> dict[str, list[list[str]]]:
        return {name: json.loads(records) for name, records in self.prediction_rows(run_id)}

    def prediction_rows(self, run_id: int) -> Iterator[tuple[str, str]]:
        """Each page's records as stored (JSON), one row at a time, in the order `predictions` gives them: what
        reads a whole run holds one page of it at once."""
        self._require(run_id)
        yield from self._store.db.execute("SELECT p.name, d.records FROM predictions d JOIN pages p "
                                          "ON p.id = d.page_id WHERE d.run_id = ?", (run_id,))

    def prediction_digests(self, run_id: int) -> dict[str, str]:
        """Page -> the digest of the run's records of it (`records_digest`), read a page at a time: two runs' pages
        compared without either run held."""
        return {name: records_digest(json.loads(records)) for name, records in self.prediction_rows(run_id)}

    def page_prediction(self, run_id: int, page: str) -> list[list[str]] | None:
        """The run's records of one page (`predictions`' of it), None when it holds none."""
        self._require(run_id)
        row = self._store.one("SELECT d.records FROM predictions d JOIN pages p ON p.id = d.page_id "
                              "WHERE d.run_id = ? AND p.name = ?", (run_id, page))
        return None if row is None else json.loads(row[0])

    def add_scores(self, run_id: int, scores: DatasetScore, *, changes_seen: int, at: str | None = None,
                   copy_hashes: Mapping[str, str] | None = None) -> None:
        """Store (or replace) per-page scores; pages are matched by name. `changes_seen`: the latest label change
        committed when the labels they score were read (`Project.last_change_id()` read before them, 0 before any),
        so that a change committed since counts as made after them (`stale_pages`); `at`: when (default now);
        `copy_hashes`: page -> the content hash of the saved copy's bytes its score read, the very bytes parsed
        (`copies_changed_since_scored` tells the copy changed since by it). A page given none is judged as a score
        made before schema 12, by its copy's file time."""
        at, copy_hashes = at or now(), copy_hashes or {}
        with self._store.writing() as db:
            self._require(run_id)
            for s in scores.pages:
                db.execute("INSERT OR REPLACE INTO scores (run_id, page_id, precision, recall, f1, predicted_records, "
                           "true_records, hallucinated_records, warnings, scored_at, page_reader, changes_seen, "
                           "copy_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (run_id, self._store.page_id(s.page), s.precision, s.recall, s.f1, s.predicted_records,
                            s.true_records, s.hallucinated_records, dumps(s.warnings), at, PAGE_READER_VERSION,
                            changes_seen, copy_hashes.get(s.page)))
                db.execute("UPDATE predictions SET score_dropped_seen = NULL WHERE run_id = ? AND page_id = ?",
                           (run_id, self._store.page_id(s.page)))  # scored again: its prediction's change is seen

    def scores(self, run_id: int) -> list[StoredScore]:
        self._require(run_id)
        rows = self._store.db.execute("SELECT p.name, s.precision, s.recall, s.f1, s.predicted_records, "
                                      "s.true_records, s.hallucinated_records, s.warnings, s.scored_at, "
                                      "s.page_reader, s.changes_seen FROM scores s "
                               "JOIN pages p ON p.id = s.page_id WHERE s.run_id = ? ORDER BY p.id", (run_id,))
        return [StoredScore(*row[:7], tuple(json.loads(row[7])), row[8], row[9], row[10]) for row in rows]

    def stale_pages(self, run_id: int) -> list[str]:
        """The pages whose stored score no longer says what the labels would: their labels changed after it was
        made (`_MOVES_TRUTH`: the page's mark moved alone, labelled to reviewed say, is no change of them), or they
        are marked labelled (or no longer) since, or their saved copy was changed by
        hand since (`copies_changed_since_scored`), or another page reader made it (an earlier RecordLens:
        `scored_by_an_earlier_reader`, or a later one: `scored_by_a_later_reader`); none for a run never scored
        (its means say "not scored" already).

        A later reader's score is stale too: the figures stored are those this RecordLens shows beside its own
        reading of the pages (Review's matched and missed records), and they must agree with it."""
        return self._stale_pages(run_id, self.copies_changed_since_scored(run_id))

    def _stale_pages(self, run_id: int, copies_changed: Sequence[str]) -> list[str]:
        """`stale_pages`, the pages whose copy changed since their score (`copies_changed_since_scored`) given."""
        self._require(run_id)
        scored = self._store.one("SELECT COUNT(*) FROM scores WHERE run_id = ?", (run_id,))
        if not scored or not scored[0]:
            return []
        # A change after the score counts when it could move the page's truth (`_RELABELLED`). A score made by
        # another page reader (`PAGE_READER_VERSION`, none before schema 7) is stale whatever changed.
        return self._pages_where(run_id, f"{_RELABELLED} OR (s.page_id IS NOT NULL AND s.page_reader IS NOT ?) "
                                 "OR p.name IN (SELECT value FROM json_each(?))",
                                 (PAGE_READER_VERSION, dumps(list(copies_changed))))

    def copies_changed_since_scored(self, run_id: int) -> list[str]:
        """Of the pages the run holds a score of, in the project's order, those whose saved copy was changed by hand
        since that score was made and can still be read as a page (`Project.saved_copy_problem`): its bytes now hash
        otherwise than the bytes the score read (their hash kept with it since schema 12), once its file was written
        or its status changed after the score (its change time, which no one sets by hand). Its score may be of the
        copy as it was: "whose saved copy was changed by hand since it was scored".

        Once scored again (as the copy is now, which `score` says) the score holds. A copy written again with the
        very bytes scored (a project copied without its files' times) is no change; a copy changed by hand, scored,
        then put back as it was stored is one (its bytes are not those scored). A copy that cannot be read (gone,
        emptied, its row changed by hand) is not judged here: `saved_copy_problem` says why, and `score` and `runs
        --compare` leave the page out. A score made before schema 12 keeps no hash: its copy is changed when its
        file was written after it, on the file system's clock, into bytes that are no longer those it was stored as
        (their hash its name, as the label checks and export tell it).

        A copy is read and hashed again only once its file is no longer the one last judged in this process
        (`_judged_copy`): not at each of Review's redraws, nor for each run, nor at each open of the project."""
        self._require(run_id)
        rows = self._store.db.execute(
            "SELECT p.name, p.snapshot, n.suffix, s.scored_at, s.copy_hash FROM scores s "
            "JOIN pages p ON p.id = s.page_id LEFT JOIN snapshots n ON n.hash = p.snapshot "
            "WHERE s.run_id = ? ORDER BY p.id", (run_id,)).fetchall()
        return [name for name, snapshot, suffix, scored_at, copy_hash in rows
                if self._changed_since_scored(name, snapshot, suffix, scored_at, copy_hash)]

    def _changed_since_scored(self, name: str, snapshot: str, suffix: str | None, scored_at: str,
                              copy_hash: str | None) -> bool:
        """Whether page `name`'s saved copy, named `snapshot` (with `suffix`), holds other bytes than its score
        read (`copy_hash`; None: a score made before schema 12, whose copy counts only when written after
        `scored_at`, and then against the bytes it was stored as) and can still be read as a page; False for a row
        that names no copy, or a copy gone, but for a read error of a moment, raised: the same command again may
        read it."""
        if suffix is None or snapshot_name_problem(snapshot, suffix) is not None:
            return False
        path = snapshot_path(Path(self._store.root), snapshot, suffix)
        try:
            found = path.stat()
        except OSError as error:
            if is_for_a_moment(error):
                raise
            return False
        # A file untouched since the score (neither written nor its status changed: a copy put back, or copied
        # into another project, has a change time after it) holds the bytes scored: not read, so that a Review
        # start on a project of large pages hashes nothing. Before schema 12, its writing alone counts.
        moment = _seconds(scored_at)
        if found.st_mtime <= moment and (copy_hash is None or found.st_ctime <= moment):
            return False
        copy = _judged_copy(path, found)
        return copy.digest is not None and copy.digest != (copy_hash or snapshot) and self._reads_as_a_page(name, copy)

    def _reads_as_a_page(self, name: str, copy: _JudgedCopy) -> bool:
        """Whether page `name`'s saved copy, whose bytes are no longer those it was scored of, can be read as a page
        (`Project.saved_copy_problem`): asked once of its file as judged."""
        if copy.reads_as_a_page is None:
            copy.reads_as_a_page = self._store.saved_copy_problem(name) is None
        return copy.reads_as_a_page

    def relabelled_since_scored(self, run_id: int) -> list[str]:
        """Of `stale_pages`, those whose labels changed since their score was made (or that are marked labelled,
        or no longer, since), whoever made it: "labelled, changed or unmarked since it was scored"."""
        self._require(run_id)
        return self._pages_where(run_id, _RELABELLED)

    def _pages_where(self, run_id: int, condition: str, params: tuple[object, ...] = ()) -> list[str]:
        """The pages, in the project's order, that meet `condition` on `p` (the page) and `s` (its score in the run,
        its columns NULL when it has none)."""
        rows = self._store.db.execute(f"""
            SELECT p.name FROM pages p LEFT JOIN scores s ON s.page_id = p.id AND s.run_id = ?
            WHERE {condition} ORDER BY p.id""", (run_id, *params))
        return [row[0] for row in rows]

    def scored_by_an_earlier_reader(self, run_id: int) -> list[str]:
        """Of `stale_pages`, those whose stored score an earlier page reader made (an earlier RecordLens: none
        said before schema 7), whatever else changed: for saying apart from labels changed since ("scored by an
        earlier RecordLens")."""
        return self._scored_by(run_id, "s.page_reader IS NULL OR s.page_reader < ?")

    def scored_by_a_later_reader(self, run_id: int) -> list[str]:
        """Of `stale_pages`, those whose stored score a later page reader made (a newer RecordLens installed
        elsewhere that shares the project): "scored by a later RecordLens"."""
        return self._scored_by(run_id, "s.page_reader > ?")

    def _scored_by(self, run_id: int, reader: str) -> list[str]:
        self._require(run_id)
        rows = self._store.db.execute("SELECT p.name FROM scores s JOIN pages p ON p.id = s.page_id "
                                      f"WHERE s.run_id = ? AND ({reader}) ORDER BY p.id", (run_id, PAGE_READER_VERSION))
        return [name for (name,) in rows]

    def why_stale(self, run_id: int, *, names: bool = True) -> str:
        """Why the run's stored scores no longer hold, in a few words ("" when they do): pages whose score went
        because the run's predictions of them changed since (`runs --add` of its folder gone on: no label changed
        on those), pages whose score may have gone either way before schema 10 said which (`score_dropped_unsaid`),
        pages whose labels changed since (or that are marked labelled, or no longer, since), pages scored by an
        earlier RecordLens and pages scored by a later one (another page reader), said apart; and pages whose saved
        copy was changed by hand since (`copies_changed_since_scored`), said so whatever else changed: that is not
        the labels' doing, and what a person can act on (the copy put back, or scored again as it is)."""
        copies = self.copies_changed_since_scored(run_id)
        stale = self._stale_pages(run_id, copies)
        changed = self.predictions_changed_since_scored(run_id, stale)
        unsaid = [page for page in self.score_dropped_unsaid(run_id, stale) if page not in changed]
        rest = stale_words([page for page in stale if page not in changed and page not in unsaid
                            and page not in copies],
                           self.scored_by_an_earlier_reader(run_id), self.scored_by_a_later_reader(run_id),
                           relabelled=self.relabelled_since_scored(run_id), names=names)
        ours = (f"the run's predictions of {counted(len(changed), 'page')} changed since it was scored"
                + (f" ({listed(changed)})" if names else "")) if changed else ""
        either = (f"the labels or the run's predictions of {counted(len(unsaid), 'page')} changed since it was scored"
                  + (f" ({listed(unsaid)})" if names else "") + " (the project kept no word of which)"
                  ) if unsaid else ""
        by_hand = (f"{counted(len(copies), 'page')} whose saved copy was changed by hand since it was scored"
                   + (f" ({listed(copies)})" if names else "")) if copies else ""
        return "; ".join(part for part in (ours, either, by_hand, rest) if part)

    def predictions_changed_since_scored(self, run_id: int, stale: Sequence[str]) -> list[str]:
        """Of the run's `stale` pages, those whose score went because the run's predictions of them changed
        (`add_predictions` drops it, keeping with the prediction the label change that score had seen), not their
        labels: a page without a score none of whose label changes that could move its truth (`_MOVES_TRUTH`: its
        mark moved alone is none) came after that score. Each page is judged by its
        own score that went, not by the run's other scores (its latest may be of another page, or be the one that
        went). A prediction changed before schema 10 says nothing: none."""
        dropped = dict(self._store.db.execute(
            "SELECT p.name, d.score_dropped_seen FROM predictions d JOIN pages p ON p.id = d.page_id "
            "WHERE d.run_id = ? AND d.score_dropped_seen IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.run_id = d.run_id AND s.page_id = d.page_id)",
            (run_id,)))
        if not dropped:
            return []
        last_change = dict(self._store.db.execute(
            "SELECT p.name, MAX(h.id) FROM pages p LEFT JOIN label_history h ON h.page_id = p.id "
            f"AND {_MOVES_TRUTH} GROUP BY p.id"))
        return [page for page in stale if page in dropped and (last_change.get(page) or 0) <= dropped[page]]

    def score_dropped_unsaid(self, run_id: int, stale: Sequence[str]) -> list[str]:
        """Of the run's `stale` pages, those whose score may have gone with a change of their prediction before
        schema 10 kept the change it had seen (`add_predictions`): a page without a score whose prediction says
        nothing of one that went, that was in the project when the run was last scored, and none of whose label
        changes that could move its truth came after that score (so that the page was labelled since cannot be
        why). Neither its labels nor its prediction can then be said to be why it is stale.

        Nothing the project keeps tells such a prediction stored before the upgrade to schema 10 from one stored
        since that never had a score to lose (no prediction has a time, and the upgrade leaves none in the
        database: only its copy of the database as it was, in `removed/`, which may be gone): the words said of
        these pages (`why_stale`) hold for both."""
        rows = self._store.db.execute(f"""
            WITH latest AS (SELECT MAX(changes_seen) AS seen, MAX(scored_at) AS at FROM scores WHERE run_id = ?)
            SELECT p.name FROM predictions d JOIN pages p ON p.id = d.page_id, latest
            WHERE d.run_id = ? AND d.score_dropped_seen IS NULL AND p.imported_at <= latest.at
              AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.run_id = d.run_id AND s.page_id = d.page_id)
              AND NOT EXISTS (SELECT 1 FROM label_history h WHERE h.page_id = p.id AND {_MOVES_TRUTH}
                              AND (CASE WHEN latest.seen IS NULL THEN h.at > latest.at ELSE h.id > latest.seen END))
            """, (run_id, run_id))
        unsaid = {name for (name,) in rows}
        return [page for page in stale if page in unsaid]

    def drop_scores(self, run_id: int, pages: Sequence[str]) -> None:
        """Forget the stored scores of these pages (no longer labelled: they leave the run's means)."""
        with self._store.writing() as db:
            for name in pages:
                db.execute("DELETE FROM scores WHERE run_id = ? AND page_id = (SELECT id FROM pages WHERE name = ?)",
                           (run_id, name))

    def delete(self, run_id: int) -> RunDeletion:
        """Take a run out of the project with its predictions and scores, in one transaction, its predictions first
        written to a run folder of their own in `removed/runs/` (`write_run_folder`): a deletion that fails leaves
        no folder, a folder that cannot be written leaves the run. Its id is not used again: a removed page's copy
        that names it leaves its rows out when restored.

        The folder is written before the write lock is taken (a file per page, each written through to the disk:
        half a minute for a run of thousands of pages, which the app's edits would wait for, then fail), under a
        hidden name (`removed_files.hidden_folder`). It gets its own name in the short transaction that deletes the
        run, once the run is read again there and found as it was written; a run changed meanwhile (a Propose
        session adding pages, its folder added again) is written again, up to `TRIES_WHILE_IT_CHANGES` times."""
        for _ in range(TRIES_WHILE_IT_CHANGES):
            held = self._as_held(run_id)
            partial = self._set_aside(held)
            kept: Path | None = None
            try:
                with self._store.writing() as db:
                    if self._as_held(run_id) != held:
                        continue  # written again from what it holds now (`finally` removes this copy)
                    run = self.get(run_id)
                    kept = _name_set_aside(partial, held.stored_run)
                    scores = db.execute("DELETE FROM scores WHERE run_id = ?", (run_id,)).rowcount
                    predictions = db.execute("DELETE FROM predictions WHERE run_id = ?", (run_id,)).rowcount
                    db.execute("DELETE FROM runs WHERE id = ?", (run_id,))
                return RunDeletion(run, predictions, scores, kept)
            except BaseException:
                if kept is not None:  # the run stays: a copy beside it would only mislead
                    shutil.rmtree(kept, ignore_errors=True)
                raise
            finally:
                shutil.rmtree(partial, ignore_errors=True)  # gone once named (renamed): a copy not used
        raise StoreError(f"run {run_id} not deleted: it changed each of the {TRIES_WHILE_IT_CHANGES} times its "
                         f"predictions were written to {self._deleted_runs} (a run still going on?); delete it once "
                         "it has ended")

    def _as_held(self, run_id: int) -> _HeldRun:
        """The run's row and its predictions as the project holds them now, as they are stored (compared as such:
        `delete` reads them again under the write lock)."""
        row = self._store.one("SELECT id, method, parameters, status, started_at, ended_at, cost FROM runs "
                              "WHERE id = ?", (run_id,))
        if row is None:
            raise StoreError(self._no_run(run_id))
        rows = self._store.db.execute("SELECT p.name, d.records, d.error FROM predictions d JOIN pages p "
                                      "ON p.id = d.page_id WHERE d.run_id = ? ORDER BY d.page_id", (run_id,))
        return _HeldRun(tuple(row), tuple(tuple(prediction) for prediction in rows))

    @property
    def _deleted_runs(self) -> Path:
        return Path(self._store.root) / REMOVED / DELETED_RUNS

    def _set_aside(self, held: _HeldRun) -> Path:
        """The run written to a new hidden folder of `removed/runs/` (`removed_files.hidden_folder`: a deletion
        killed part way leaves no folder under a name that looks kept, which `runs --add` would store as the run,
        and the next deletion removes it), or why it is not deleted."""
        run, parent = held.stored_run, self._deleted_runs
        stem = _set_aside_stem(run)
        folder: Path | None = None
        try:
            folder = hidden_folder(parent, stem)  # those left by deletions killed part way go first
            write_run_folder(folder, run, held.predictions, held.errors, named=parent / stem)
            atomic.sync_folder(folder)  # its `_run/` too survives a power cut
            return folder
        except BaseException as error:
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            if isinstance(error, OSError):
                raise StoreError(f"run {run.id} not deleted: its predictions could not be written to {parent} "
                                 f"first ({error.strerror or error})") from None
            if isinstance(error, StoreError):  # a page named as a path (`write_run_folder`)
                raise StoreError(f"run {run.id} not deleted: {error}; take that page out of the project first "
                                 "(`recordlens project remove-page`: its copy keeps what the run held of it)") from None
            raise

    def all(self) -> list[RunInfo]:
        return self._run_infos("", ())

    def get(self, run_id: int) -> RunInfo:
        found = self._run_infos("WHERE r.id = ?", (run_id,))
        if not found:
            raise StoreError(self._no_run(run_id))
        return found[0]

    def _require(self, run_id: int) -> None:
        """Refuse a run the project does not hold, as `get` does, without working out its figures and state (a
        query per figure, and its owner mark looked at): what every write and read of one run's rows asks first."""
        if self._store.one("SELECT 1 FROM runs WHERE id = ?", (run_id,)) is None:
            raise StoreError(self._no_run(run_id))

    def _no_run(self, run_id: int) -> str:
        return f"no run {run_id} in the project {self._store.root}"

    def _run_infos(self, where: str, params: tuple[object, ...]) -> list[RunInfo]:
        rows = self._store.db.execute(f"""
            SELECT r.id, r.method, r.parameters, r.status, r.started_at, r.ended_at, r.cost,
                   (SELECT COUNT(*) FROM predictions d WHERE d.run_id = r.id),
                   (SELECT COUNT(*) FROM predictions d WHERE d.run_id = r.id AND d.error IS NOT NULL),
                   (SELECT COUNT(*) FROM scores s WHERE s.run_id = r.id),
                   (SELECT AVG(precision) FROM scores s WHERE s.run_id = r.id),
                   (SELECT AVG(recall) FROM scores s WHERE s.run_id = r.id),
                   (SELECT AVG(f1) FROM scores s WHERE s.run_id = r.id),
                   (SELECT COUNT(*) FROM scores s {_PREDICTED}),
                   (SELECT AVG(s.f1) FROM scores s {_PREDICTED}),
                   (SELECT COALESCE(MAX(d.rowid), 0) FROM predictions d WHERE d.run_id = r.id),
                   (SELECT COUNT(*) FROM predictions d JOIN pages p ON p.id = d.page_id
                    WHERE d.run_id = r.id AND d.score_dropped_seen IS NOT NULL AND p.status IN {_TRUTH}
                      AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.run_id = r.id AND s.page_id = d.page_id))
            FROM runs r {where} ORDER BY r.id""", params).fetchall()
        infos: list[RunInfo] = []
        for row in rows:
            run_id, status = row[0], row[3]
            if status != "running" or not self._owner_gone(run_id):
                infos.append(_without_means_of_a_part(RunInfo.from_row((*row, False))))
            elif self._status(run_id) == "running":  # read again: a mark gone is not enough (below)
                infos.append(_without_means_of_a_part(RunInfo.from_row((*row, True))))
            else:
                # Its owner committed its end and released its mark (`finish`, in that order) between the row's
                # read and the mark's: read again, as it ended (a run deleted meanwhile is left out)
                infos += self._run_infos("WHERE r.id = ?", (run_id,))
        return infos


@dataclass
class _JudgedCopy:
    """A saved copy's file as last judged in this process (`_judged_copy`), and what was found of it."""

    file: tuple[int, int, int, int, int]  # device, inode, size, modification and change times (ns)
    digest: str | None  # the content hash of its bytes; None: it cannot be read (a folder in its place)
    reads_as_a_page: bool | None = None  # asked only of bytes other than those scored (`Runs._reads_as_a_page`)


# Each saved copy's path -> its file as last judged (`_judged_copy`), for every project this process opens (a
# command opens one for each step, the app one for each thread): kept here, and nothing of it in the project, so
# that a read stores nothing; a copy judged once is not read again until its file changes.
_copies_judged: dict[Path, _JudgedCopy] = {}


def _judged_copy(path: Path, found: os.stat_result) -> _JudgedCopy:
    """The saved copy at `path` (its file `found`), its bytes hashed again only when its file is no longer the one
    last judged: its change time too, which no one sets by hand, so that bytes edited in place and given back their
    size and modification time are read again. Two threads asking at once may both hash it, alike."""
    file = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns)
    key = path.absolute()
    judged = _copies_judged.get(key)
    if judged is None or judged.file != file:
        judged = _JudgedCopy(file, _bytes_hash(path))
        _copies_judged[key] = judged
    return judged


def _bytes_hash(path: Path) -> str | None:
    """The content hash of the copy's bytes; None for a file that cannot be read (a folder in its place), which
    `saved_copy_problem` says, but for a read error of a moment, raised."""
    try:
        return content_hash(read_file_bytes(path))
    except (OSError, RecordLensError) as error:
        if is_for_a_moment(error):
            raise
        return None


def _without_means_of_a_part(run: RunInfo) -> RunInfo:
    """A run some of whose scores went since it was scored (`RunInfo.scores_dropped`) without its means: they would
    be of the scores left alone, as if they were the run's."""
    if not run.scores_dropped:
        return run
    return replace(run, precision=None, recall=None, f1=None, f1_with_prediction=None)


# The owner marks this process holds (a run it carries out), by path, None for a run it carries out unmarked
# (`Runs.start`); its threads start and finish runs.
_held_marks: dict[Path, owner_files.Lock | None] = {}
_held_marks_lock = threading.Lock()


def take_mark(path: Path) -> None:
    path.parent.mkdir(exist_ok=True)
    with _held_marks_lock:
        _held_marks[path] = owner_files.take(path)


def keep_unmarked(path: Path) -> None:
    """A run this process carries out without its mark (none could be had): known here as its own, and, where
    its file can be written, named in it for others (`owner_files.holder` judges a file it cannot lock by its line)."""
    with contextlib.suppress(OSError):
        path.write_text(owner_files.owner_line(), encoding="utf-8")
    with _held_marks_lock:
        _held_marks[path] = None


def _holds(path: Path) -> bool:
    with _held_marks_lock:
        return path in _held_marks


def mark_gone(path: Path) -> bool:
    """Whether no live process holds the mark at `path` (or it is not there): this process's own marks are not
    looked at (nor its unmarked runs: they have none), as looking takes the lock for a moment, and where the system
    emulates it with a record lock (NFS), a process's second look at its own lock succeeds, and closing it frees
    it."""
    return not _holds(path) and owner_files.holder(path) is False


def release_mark(path: Path) -> None:
    """Give up a run's mark, if this process holds it (a run finished again, or by another process: nothing)."""
    with _held_marks_lock:
        held = path in _held_marks
        mark = _held_marks.pop(path, None)
    if mark is not None:
        owner_files.release(mark)
    elif held:  # an unmarked run's: the line naming this process goes
        with contextlib.suppress(OSError):
            path.unlink()


def write_run_folder(folder: Path, run: StoredRun, predictions: Mapping[str, Sequence[Sequence[str]]],
                     errors: Mapping[str, str], *, named: Path | None = None) -> None:
    """A stored run as a run folder, as an extractor run writes one and `import_run_folder` reads it: `N.json` per
    page it has records for, `_run/N.json` for a page it failed on (its reason), `_run/run.json` with its method,
    its parameters (the folder it came from aside: the folder read names itself), when it started, why it
    stopped early, if it did, the pages it left out on purpose, and what its cost holds that these files cannot
    say again (`run_files.STORED_COST`).

    A page whose name is a path (`../../notes`: a database changed by hand) is refused, StoreError, before any file
    is written: its file would land outside the folder, as export and synth refuse it (`lands_outside`), said of
    the folder `named` (`folder` by default: the one a hidden folder written first will be renamed to)."""
    # A run made in the app keeps each page's record (its calls, tokens, raw answers) in its cost, where
    # `extract` keeps it in _run/N.json: written back there, so that what was paid for is not lost either.
    # A failed page's record holds its status and reason, so it stands for the failure as well
    page_costs = run.cost.get("page_costs")
    kept: dict[str, object] = {page: {"status": FAILED, "reason": reason} for page, reason in errors.items()}
    kept |= {page: record for page, record in (page_costs.items() if isinstance(page_costs, dict) else ())
             if isinstance(record, dict)}
    records = {page: page_records for page, page_records in predictions.items() if page not in errors}
    outside = _a_file_outside(named or folder, records, kept)
    if outside is not None:
        raise StoreError(outside)
    for page, page_records in records.items():
        save_records(folder / f"{page}.json", page_records)
    for page, record in kept.items():
        atomic.write_text(folder / META_DIR / f"{page}.json", json_text(json.dumps(
            record, ensure_ascii=False, indent=1, default=str)))
    described = {key: value for key, value in run.parameters.items() if key != "source"}
    described |= {"method": run.method, "written": run.started_at}
    if run.ended_at:  # the copy's files are written as the run is deleted: their times say that, not its end
        described[ENDED] = run.ended_at
    for kept_with_the_run in (STOPPED, LEFT_OUT):  # what `runs --add` took from run.json into the cost
        if run.cost.get(kept_with_the_run):
            described[kept_with_the_run] = run.cost[kept_with_the_run]
    # What its cost holds that these files cannot give back (`run_files.COPIED_COST`): what it paid, where it was
    # first added from, and what its folder said of its pages (predicted on other pages, N.json gone, pages the
    # project lacked, whose N.json never came in): for `runs --add` of the copy to keep in its cost, and `score` to
    # say as it did
    copied = {key: run.cost[key] for key in (*COPIED_COST, *KEPT_FOR_ADDING) if key in run.cost}
    if run.parameters.get("source"):
        copied.setdefault(ADDED_FROM, run.parameters["source"])  # a copy's copy names the first folder still
    lacking = [page for page in not_in_project(run.cost) if page not in predictions and page not in errors]
    copied.pop(NOT_IN_PROJECT, None)
    if lacking:
        copied[NOT_IN_PROJECT] = lacking
    if copied:
        described[STORED_COST] = copied
    # a path in it (the folder it was added from) whose bytes are not UTF-8 as JSON escapes: `--add` reads it whole
    atomic.write_text(folder / META_DIR / "run.json", json_text(json.dumps(described, ensure_ascii=False, indent=2,
                                                                           default=str)))


def _seconds(stamp: str) -> float:
    """A time the project stored (`db.now`) in seconds since the epoch; one that cannot be read (changed by hand) as
    the earliest: anything counts as after it."""
    moment = stored_moment(stamp)
    return -math.inf if moment is None else moment.timestamp()


def _set_aside_stem(run: StoredRun) -> str:
    """`ID-METHOD`: what a deleted run's copy in `removed/runs/` is named by, before its time."""
    return f"{run.id}-{safe_name(run.method, 'run', 60)}"


def _name_set_aside(partial: Path, run: StoredRun) -> Path:
    """The whole copy written in `partial` given its own name, `ID-METHOD.TIME` (`-K` after it when taken), never
    over another folder (`name_folder`), or why the run is not deleted."""
    try:
        return name_folder(partial, stamped(_set_aside_stem(run), now()))
    except OSError as error:
        raise StoreError(f"run {run.id} not deleted: its copy in {partial.parent} could not be given its name "
                         f"({error.strerror or error})") from None


def _a_file_outside(folder: Path, records: Iterable[str], kept: Iterable[str]) -> str | None:
    """Why a page's file of a run folder would land outside `folder` (`lands_outside`): the first such page's
    `N.json` (of `records`) or `_run/N.json` (of `kept`); None when every file lands in it."""
    files = [(folder, page) for page in records] + [(folder / META_DIR, page) for page in kept]
    return next((why for within, page in files if (why := lands_outside(within, f"{page}.json", page))), None)


# What a run's parameters hold that says nothing to tell it apart from another run of its method.
# "made_in" (the app's Propose) is the run's origin, said as such by `run_origin`.
_NOT_SHOWN = {"input_format", "seed", "model", "model_digest", "source", "parameters", "prompt_sha256", "settings",
              "version", "written", "task_ids", "seeds", "made_in"}


def run_settings(parameters: Mapping[str, object]) -> str:
    """What tells two runs of one method apart, in a few words: the folder it came from (a seed's with its run's),
    then its method's settings (`method_settings`)."""
    return "; ".join(part for part in (run_origin(parameters), method_settings(parameters)) if part) or "-"


def method_settings(parameters: Mapping[str, object]) -> str:
    """Input format, seed, model (a file by its name), the method's other parameters. A run added from a
    folder keeps the folder's description whole, its method's parameters inside it."""
    inner = parameters.get("parameters")
    merged = {**parameters, **inner} if isinstance(inner, dict) else dict(parameters)
    parts = [str(merged["input_format"])] if merged.get("input_format") else []
    if merged.get("seed") is not None:
        parts.append(f"seed {merged['seed']}")
    if merged.get("model") and merged.get("model_digest"):  # the selector's model file, not Gemini's name
        # with its digest: two runs of project models of one name are told apart
        parts.append(f"{Path(str(merged['model'])).name} {str(merged['model_digest'])[:8]}")
    elif merged.get("model"):
        parts.append(str(merged["model"]))
    parts += [f"{key} {value}" for key, value in sorted(merged.items())
              if key not in _NOT_SHOWN and value is not None and not isinstance(value, dict | list)]
    # a model trained on a folder whose name is not UTF-8 names it in its provenance (`trained`): as messages do
    return shown_bytes(", ".join(parts))


def run_folder(parameters: Mapping[str, object]) -> str:
    """The folder a run was added from, as a list names it ("run-a", a seed's with its run's: "run-a/seed-1": seed-1
    alone says nothing), or "" for a run made in the project; a name whose bytes are not UTF-8 as messages write
    it (`path_text.shown_bytes`)."""
    return shown_bytes(_folder_name(parameters.get("source")))


def _folder_name(source: object) -> str:
    if not source:
        return ""
    folder = Path(str(source))
    return f"{folder.parent.name}/{folder.name}" if folder.name.startswith("seed-") else folder.name


def run_origin(parameters: Mapping[str, object], cost: Mapping[str, object] | None = None,
               named: Mapping[str, str] | None = None) -> str:
    """"from FOLDER" for a run added from a folder (`run_folder`), "made in the app's Propose" for one made where
    its `made_in` says, else "". A run stored again from its deleted copy (its `source`, named by the date it was
    deleted) is named by the folder it was first added from, kept in its `cost` (`run_files.ADDED_FROM`): "from
    FOLDER (via its deleted copy)". `named`: a folder -> its name told apart from the other folders of a list
    (`folders_told_apart`)."""
    first = (cost or {}).get(ADDED_FROM)
    if first:
        return shown_bytes(f"from {(named or {}).get(str(first)) or _folder_name(first)} (via its deleted copy)")
    source = parameters.get("source")
    folder = (named or {}).get(str(source)) if source else None
    folder = folder or run_folder(parameters)
    if folder:
        return shown_bytes(f"from {folder}")
    return f"made in {parameters['made_in']}" if parameters.get("made_in") else ""


def folders_told_apart(runs: Sequence[StoredRun]) -> dict[str, str]:
    """The folders runs were added from -> their names as a list of them shows them: a folder's name
    (`run_folder`), with as many of the folders above it as tell it from another folder of the same name (two runs
    "from run" are two folders' runs: "from a/run" and "from b/run")."""
    paths = {str(folder): Path(str(folder)) for run in runs
             for folder in (first_folder(run),) if folder}
    named = {folder: _folder_name(folder) for folder in paths}
    for depth in range(2, max((len(path.parts) for path in paths.values()), default=0) + 1):
        clashing = [folder for folder in paths if sum(named[other] == named[folder] for other in paths) > 1]
        if not clashing:
            break
        for folder in clashing:
            parts = paths[folder].parts
            named[folder] = str(Path(*parts[-max(depth, len(Path(named[folder]).parts)):]))
    return named
