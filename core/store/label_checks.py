"""The label checks of a project's pages, remembered: `project.label_checks`.

Checking a page's labels (`records.hygiene.check_page`) parses its snapshot. An import weighs the chrome policy
of every labelled page of the project, so without a memory each import would parse them all again. A check is
kept beside a digest of what it was made from (the snapshot, the page's true records, `CHECK_VERSION`); it is
used while the digest still matches and made anew, then kept again, once one of them changes. A database that
cannot be written (read-only, or locked past its timeout) only means the check is not remembered.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING

from ..records.hygiene import CHECK_VERSION, PageCheck, check_page
from .db import dumps

if TYPE_CHECKING:
    from .project import Project


class LabelChecks:
    def __init__(self, project: Project) -> None:
        self._project = project

    def check(self, page: str, records: Sequence[Sequence[str]] | None = None) -> PageCheck:
        """The check of the page's true records: the remembered one if nothing it depends on changed. `records`:
        those true records, when the caller has read them already (read here otherwise)."""
        records = self._project.true_records(page) if records is None else records
        page_id, digest, kept = self._lookup(page, records)
        if kept is not None:
            return kept
        check = check_page(page, self._project.load(page).page, records)
        self._keep(page_id, digest, check)
        return check

    def remember(self, page: str, check: PageCheck) -> None:
        """Keep a check just made of the page's true records as they stand (an import checks what it stores)."""
        page_id, digest, _ = self._lookup(page, self._project.true_records(page))
        self._keep(page_id, digest, check)

    def labelled(self, *, scored_only: bool = False, except_pages: Sequence[str] = ()) -> Iterator[PageCheck]:
        """The checks of every page that holds true records, whatever its status (with `scored_only`, of the
        pages a run is scored on), one at a time."""
        from .scoring import labelled_page_names

        skip = set(except_pages)
        for name in labelled_page_names(self._project, scored_only=scored_only):
            if name not in skip:
                yield self.check(name)

    def _lookup(self, page: str, records: Sequence[Sequence[str]]) -> tuple[int, str, PageCheck | None]:
        """The page's id, the digest of what its check is made from, and the remembered check if it matches."""
        row = self._project.one("SELECT p.id, p.snapshot, c.digest, c.result FROM pages p "
                                "LEFT JOIN label_checks c ON c.page_id = p.id WHERE p.name = ?", (page,))
        if row is None:
            self._project.page_id(page)  # raises the store's "no page named" error
        page_id, snapshot, kept_digest, kept = row
        made_from = dumps([CHECK_VERSION, snapshot, [list(r) for r in records]])
        digest = hashlib.sha256(made_from.encode()).hexdigest()
        return page_id, digest, PageCheck.from_dict(json.loads(kept)) if kept_digest == digest else None

    def _keep(self, page_id: int, digest: str, check: PageCheck) -> None:
        try:
            with self._project.writing() as db:
                db.execute("INSERT OR REPLACE INTO label_checks (page_id, digest, result) VALUES (?, ?, ?)",
                           (page_id, digest, dumps(asdict(check))))
        except sqlite3.OperationalError:
            pass  # not remembered: the next check makes it again
