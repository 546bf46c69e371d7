"""The comparisons of two label sets on a project's pages, remembered (`ComparisonCache`), so that the app's Review
of an annotator, which compares every page both labelled as it opens, and `recordlens agreement` parse and compare
again only the pages where something the comparison is made of changed.

A page's comparison (`records.agreement.compare_page`) is kept beside a digest of everything it is made of: the
bytes of the page's saved copy (the text keys, and which XPaths name no element), both sides' records and the
numbers they go by, the threshold, the page's name, and the versions of the comparison (`COMPARISON_VERSION`) and of
the page reader (`PAGE_READER_VERSION`). It is used only while that digest still matches, so a remembered
comparison is never another's: a label changed by the app or by a command, an annotator's set imported again, a
page's copy changed by hand or a newer RecordLens each simply give another digest, and that page alone is compared
again (then kept again). One row per page and pair of label sets: a page compared anew replaces its row.

The copy's bytes count by their content hash. They are read and hashed again only once the copy's file is no longer
the one the row was made from (its name, size, inode, modification and change times: a change time no one sets by
hand), so that a comparison remembered for every page reads no page's bytes. The file is looked at before its
bytes are read, so a copy changed while it is read is taken for changed at the next look.

The rows are written in transactions of their own, a few hundred pages at a time, each holding whole rows only: a
process killed mid-write leaves the rows of the transactions it committed, each still matching its digest, and no
part of another; a row that cannot be read back (changed by hand) is compared again. The table is made by the
first write to a project without it (an older project, or one made before: a cache, so no schema version, which an
earlier RecordLens would refuse the project for); until then, and in a database that cannot be written (read-only,
or locked past its timeout), nothing is remembered and every page is compared, as before. The table's page column
is not named `page_id`: a page's removal (`page_removal`) keeps no copy of its comparisons, which go with its row.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import RecordLensError
from ..page.dataset import PAGE_READER_VERSION
from ..page.dom import Page
from ..page.snapshot import read_file_bytes
from ..records.agreement import COMPARISON_VERSION, Holding, PageAgreement
from ..records.review import PageReview, ReviewRecord
from ..records.score import Match, PageScore
from .db import StoreError, dumps
from .files import content_hash, snapshot_path

if TYPE_CHECKING:
    from .project import Project

TABLE = "comparison_cache"
_CREATE = f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    page INTEGER NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
    pair TEXT NOT NULL,                    -- JSON: the two label sets compared (A, B) and the threshold
    digest TEXT NOT NULL,                  -- sha256 of everything the comparison is made of (`_digest`)
    copy_file TEXT NOT NULL,               -- the saved copy's file when its bytes were read (`_file_of`)
    copy_hash TEXT NOT NULL,               -- the content hash of those bytes
    result TEXT NOT NULL,                  -- JSON: the comparison, its records named by their places (`_encoded`)
    PRIMARY KEY (page, pair)
)"""
# Rows kept waiting at most this many, or this long, before they are written in one transaction: one commit per
# page would cost more than most comparisons, and a comparison cancelled part way keeps what it made
_BATCH_ROWS = 200
_BATCH_SECONDS = 2.0

Records = Sequence[Sequence[str]]


@dataclass(frozen=True)
class Sides:
    """What one comparison of a page is made of, but the page itself: A's and B's records, the numbers they go by
    (`compare_page`'s `a_numbers`, `b_numbers`) and the threshold; `pair` names the comparison (the two label sets)
    so that each keeps its own row."""

    pair: tuple[str, ...]
    a: Records
    b: Records
    a_numbers: tuple[int, ...]
    b_numbers: tuple[int, ...]
    threshold: float


# How a page's comparisons are made once its saved copy is parsed (`compare_page` with the page's text keys), one
# for each of the sides given, in their order
Compare = Callable[[Page, Sequence[Sides]], list[PageAgreement]]


@dataclass(frozen=True)
class _Row:
    digest: str
    copy_file: str
    copy_hash: str
    result: str


class ComparisonCache:
    """The project's remembered comparisons; `compared` gives a page's, made where none matches. Use it in `with`
    (or call `flush`): the rows made are written by then."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._pending: dict[tuple[int, str], tuple[str, str, str, str]] = {}
        self._since = time.monotonic()
        self._files = {name: (page_id, snapshot, suffix) for page_id, name, snapshot, suffix in project.db.execute(
            "SELECT p.id, p.name, p.snapshot, n.suffix FROM pages p LEFT JOIN snapshots n ON n.hash = p.snapshot")}

    def __enter__(self) -> ComparisonCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush()

    def compared(self, page: str, wanted: Sequence[Sides], compare: Compare) -> list[PageAgreement]:
        """The page's comparison for each of `wanted`: remembered where its digest matches, else made (the page's
        copy parsed once for all of them) and kept."""
        place = self._place(page)
        if place is None:  # a row that names no copy: `load` says why, as it did before anything was remembered
            return compare(self._project.load(page).page, wanted)
        page_id, path = place
        rows = self._rows(page_id)
        try:
            file = _file_of(path)
        except OSError:
            file = None
        copy_hash = next((row.copy_hash for row in rows.values() if file is not None and row.copy_file == file), None)
        data: bytes | None = None
        if copy_hash is None:
            data, copy_hash = self._read(page, path)
        found: list[PageAgreement | None] = []
        for sides in wanted:
            row = rows.get(_pair(sides))
            kept = None
            if row is not None and copy_hash is not None and row.digest == _digest(page, copy_hash, sides):
                kept = _decoded(row.result, page, sides)
                if kept is not None and row.copy_file != file and file is not None:  # the same bytes, another file
                    self._keep(page_id, sides, row.digest, file, copy_hash, row.result)
            found.append(kept)
        if all(kept is not None for kept in found):
            return found  # type: ignore[return-value]
        if data is None:
            data, copy_hash = self._read(page, path)
        # what is parsed is the bytes hashed: a copy changed meanwhile is compared, and remembered, as read
        parsed = self._project.load(page, data=data).page
        missing = [sides for sides, kept in zip(wanted, found, strict=True) if kept is None]
        fresh = iter(compare(parsed, missing))
        made = []
        for sides, kept in zip(wanted, found, strict=True):
            if kept is None:
                kept = next(fresh)
                if copy_hash is not None and file is not None:
                    result = _encoded(kept, sides)
                    if _decoded(result, page, sides) == kept:  # what cannot be read back whole is not kept
                        self._keep(page_id, sides, _digest(page, copy_hash, sides), file, copy_hash, result)
            made.append(kept)
        return made

    def flush(self) -> None:
        """The rows made so far written, in one transaction; not remembered when the database cannot be written."""
        pending, self._pending = self._pending, {}
        self._since = time.monotonic()
        if not pending:
            return
        try:
            with self._project.writing() as db:
                _write(db.conn, [(*key, *row) for key, row in pending.items()])
        except sqlite3.OperationalError:
            pass  # read-only, locked past its timeout, a full disk: compared again next time
        except sqlite3.IntegrityError:
            pass  # a page removed meanwhile (its row gone): this batch is not remembered, and made again next time

    def _place(self, page: str) -> tuple[int, Path] | None:
        held = self._files.get(page)
        if held is None or held[2] is None:
            return None
        try:
            return held[0], snapshot_path(Path(self._project.root), held[1], held[2])
        except StoreError:
            return None

    def _rows(self, page_id: int) -> dict[str, _Row]:
        try:
            found = self._project.db.execute(
                f"SELECT pair, digest, copy_file, copy_hash, result FROM {TABLE} WHERE page = ?", (page_id,))
        except sqlite3.OperationalError:  # no such table: nothing remembered yet
            return {}
        return {pair: _Row(*row) for pair, *row in found}

    def _read(self, page: str, path: Path) -> tuple[bytes | None, str | None]:
        """The copy's bytes and their hash; (None, None) when they cannot be read (`load` then says why)."""
        try:
            data = read_file_bytes(path, name=page)
        except (OSError, RecordLensError):
            return None, None
        return data, content_hash(data)

    def _keep(self, page_id: int, sides: Sides, digest: str, file: str, copy_hash: str, result: str) -> None:
        self._pending[(page_id, _pair(sides))] = (digest, file, copy_hash, result)
        if len(self._pending) >= _BATCH_ROWS or time.monotonic() - self._since >= _BATCH_SECONDS:
            self.flush()


def _write(conn: sqlite3.Connection, rows: Sequence[tuple[object, ...]]) -> None:
    """The rows written, the table made first where the project has none (inside the caller's transaction)."""
    conn.execute(_CREATE)
    conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (page, pair, digest, copy_file, copy_hash, result) "
                     "VALUES (?, ?, ?, ?, ?, ?)", rows)


def _pair(sides: Sides) -> str:
    return dumps([*sides.pair, repr(sides.threshold)])


def _file_of(path: Path) -> str:
    """The saved copy's file as its bytes stand: name, size, inode, modification and change times (ns). Its name
    alone, not its path: a project's database says nothing of the folders it was on (a copy given to a colleague;
    one moved is told by its files' change times)."""
    found = os.stat(path)
    return dumps([path.name, found.st_size, found.st_ino, found.st_mtime_ns, found.st_ctime_ns])


def _digest(page: str, copy_hash: str, sides: Sides) -> str:
    made_from = dumps([COMPARISON_VERSION, PAGE_READER_VERSION, page, copy_hash, repr(sides.threshold),
                       [list(r) for r in sides.a], [list(r) for r in sides.b], list(sides.a_numbers),
                       list(sides.b_numbers)])
    return hashlib.sha256(made_from.encode()).hexdigest()


def _encoded(result: PageAgreement, sides: Sides) -> str:
    """The comparison as JSON, each record's XPaths named by its place in A's records, or in B's after them (the
    records are in the digest), as written out only where they are none of them."""
    places: dict[tuple[str, ...], int] = {}
    for k, record in enumerate([*sides.a, *sides.b]):
        places.setdefault(tuple(record), k)

    def xpaths(record: tuple[str, ...]) -> int | list[str]:
        return places.get(tuple(record), list(record))

    review, score = result.review, result.review.score
    return dumps({
        "score": [score.precision, score.recall, score.f1, score.predicted_records, score.true_records,
                  [[m.predicted, m.true, m.overlap] for m in score.matches], score.hallucinated_records,
                  score.empty_true_records, list(score.warnings)],
        "records": [[r.kind, xpaths(r.xpaths), r.predicted, r.true, r.overlap, xpaths(r.true_xpaths)]
                    for r in review.records],
        "threshold": review.threshold,
        "holdings": [[h.side, h.number, xpaths(h.xpaths), list(h.held), h.one_level] for h in result.holdings],
        "dead": sorted(result.dead), "a_numbers": list(result.a_numbers), "b_numbers": list(result.b_numbers)})


def _decoded(text: str, page: str, sides: Sides) -> PageAgreement | None:
    """The comparison `_encoded` wrote for these sides; None when it cannot be read so."""
    records = [*sides.a, *sides.b]

    def xpaths(held: int | list[str]) -> tuple[str, ...]:
        return tuple(records[held]) if isinstance(held, int) else tuple(held)

    try:
        found = json.loads(text)
        p, r, f1, predicted, true, matches, hallucinated, empty, warnings = found["score"]
        score = PageScore(page, p, r, f1, predicted, true, [Match(*m) for m in matches], hallucinated, empty,
                          list(warnings))
        review = PageReview(score, tuple(ReviewRecord(kind, xpaths(x), i, j, overlap, xpaths(y))
                                         for kind, x, i, j, overlap, y in found["records"]), found["threshold"])
        holdings = tuple(Holding(side, number, xpaths(x), tuple(held), one_level)
                         for side, number, x, held, one_level in found["holdings"])
        return PageAgreement(page, review, holdings, frozenset(found["dead"]), tuple(found["a_numbers"]),
                             tuple(found["b_numbers"]))
    except (ValueError, TypeError, KeyError, IndexError):
        return None
