"""The label checks of a project's pages, remembered: `project.label_checks`.

Checking a page's labels (`records.hygiene.check_page`) parses its snapshot. An import weighs the chrome policy
of every labelled page of the project, so without a memory each import would parse them all again. A check is
kept beside a digest of what it was made from (the snapshot's bytes, the page's true records, `CHECK_VERSION` and
the page reader's version, `PAGE_READER_VERSION`); it is used while the digest still matches and made anew, then
kept again, once one of them changes. The snapshot counts by the hash of the bytes its file holds now, not by the
name it was stored under (the hash of its bytes then): a saved copy changed by hand is checked as it is now, as
export reads it. A saved copy that cannot be read counts by its name (its check is remembered; `labels check` says
the copy is missing). A database that cannot be written (read-only, or locked past its timeout) only means the
check is not remembered.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from ..errors import RecordLensError
from ..page.dataset import PAGE_READER_VERSION
from ..page.snapshot import read_file_bytes
from ..records.hygiene import CHECK_VERSION, PageCheck, check_page
from .db import dumps
from .files import content_hash

if TYPE_CHECKING:
    from .project import Project

TRAINING_DIGEST = "training_digest"  # kept beside a check's fields: the page's identity in a model's provenance


class LabelChecks:
    def __init__(self, project: Project) -> None:
        self._project = project
        # The pages whose saved copy the checks found changed by hand since it was stored (checked as it is now)
        self.changed_by_hand: dict[str, None] = {}

    def check(self, page: str, records: Sequence[Sequence[str]] | None = None) -> PageCheck:
        """The check of the page's true records: the remembered one if nothing it depends on changed. `records`:
        those true records, when the caller has read them already (read here otherwise)."""
        records = self._project.true_records(page) if records is None else records
        page_id, digest, kept = self._lookup(page, records)
        if kept is not None:
            return PageCheck.from_dict(kept)
        return self._made(page, page_id, digest, records)[0]

    def training_digest(self, page: str) -> str:
        """The page's identity in a selector model's provenance (`training.page_digest`: its texts and its true
        records), remembered beside its check and made with it: `score` of a selector run asks it of every page
        it scores, which would otherwise each be parsed again."""
        records = self._project.true_records(page)
        page_id, digest, kept = self._lookup(page, records)
        if kept is not None and TRAINING_DIGEST in kept:
            return str(kept[TRAINING_DIGEST])
        return self._made(page, page_id, digest, records)[1]

    def _made(self, page: str, page_id: int, digest: str, records: Sequence[Sequence[str]]) -> tuple[PageCheck, str]:
        """The page's check and training digest, made from its parsed snapshot and kept."""
        from ..extract.training import page_digest  # the model's own identity of a page

        parsed = self._project.load(page).page
        check, training = check_page(page, parsed, records), page_digest(parsed, records)
        self._keep(page_id, digest, check, training)
        return check, training

    def remember(self, page: str, check: PageCheck, records: Sequence[Sequence[str]]) -> None:
        """Keep a check just made of these true records of the page (an import checks what it stores), under the
        digest of those very records: the page's as they stand now may hold an edit committed since the import's
        own (the app, another command), and that check would then be used for records it never saw."""
        page_id, digest, _ = self._lookup(page, records)
        self._keep(page_id, digest, check)  # its training digest is made when first asked (`training_digest`)

    def labelled(self, *, scored_only: bool = False, except_pages: Sequence[str] = ()) -> Iterator[PageCheck]:
        """The checks of every page marked labelled or reviewed and every other page that holds true records
        (with `scored_only`, of the pages a run is scored on), one at a time."""
        from .scoring import labelled_page_names

        skip = set(except_pages)
        for name in labelled_page_names(self._project, scored_only=scored_only):
            if name not in skip:
                yield self.check(name)

    def _lookup(self, page: str, records: Sequence[Sequence[str]]) -> tuple[int, str, dict | None]:
        """The page's id, the digest of what its check is made from, and what is remembered of it (the check's
        fields, and its training digest when made) if that matches."""
        row = self._project.one("SELECT p.id, p.snapshot, c.digest, c.result FROM pages p "
                                "LEFT JOIN label_checks c ON c.page_id = p.id WHERE p.name = ?", (page,))
        if row is None:
            self._project.page_id(page)  # raises the store's "no page named" error
        page_id, snapshot, kept_digest, kept = row
        made_from = dumps([CHECK_VERSION, PAGE_READER_VERSION, self._bytes_hash(page, snapshot),
                           [list(r) for r in records]])
        digest = hashlib.sha256(made_from.encode()).hexdigest()
        return page_id, digest, json.loads(kept) if kept_digest == digest else None

    def _bytes_hash(self, page: str, stored: str) -> str:
        """The hash of the bytes the page's saved copy holds now: `stored`, its name, unless it was changed by hand
        since (or `stored` when it cannot be read)."""
        try:
            now = content_hash(read_file_bytes(self._project.snapshot_file(page)))
        except (OSError, RecordLensError):
            return stored
        if now != stored:
            self.changed_by_hand[page] = None
        else:
            self.changed_by_hand.pop(page, None)  # put back as it was stored
        return now

    def _keep(self, page_id: int, digest: str, check: PageCheck, training: str | None = None) -> None:
        result = asdict(check) | ({TRAINING_DIGEST: training} if training is not None else {})
        try:
            with self._project.writing() as db:
                db.execute("INSERT OR REPLACE INTO label_checks (page_id, digest, result) VALUES (?, ?, ?)",
                           (page_id, digest, dumps(result)))
        except sqlite3.OperationalError:
            pass  # not remembered: the next check makes it again
