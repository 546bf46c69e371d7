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

    def check(self, page: str) -> PageCheck:
        """The check of the page's true records: the remembered one if nothing it depends on changed."""
        records = self._project.true_records(page)
        digest = self._digest(page, records)
        row = self._project.one("SELECT c.digest, c.result FROM label_checks c JOIN pages p ON p.id = c.page_id "
                                "WHERE p.name = ?", (page,))
        if row is not None and row[0] == digest:
            return PageCheck.from_dict(json.loads(row[1]))
        check = check_page(page, self._project.load(page).page, records)
        self._keep(page, digest, check)
        return check

    def remember(self, page: str, check: PageCheck) -> None:
        """Keep a check just made of the page's true records as they stand (an import checks what it stores)."""
        self._keep(page, self._digest(page, self._project.true_records(page)), check)

    def labelled(self, *, scored_only: bool = False, except_pages: Sequence[str] = ()) -> Iterator[PageCheck]:
        """The checks of every page that holds true records, whatever its status (with `scored_only`, of the
        pages a run is scored on), one at a time."""
        from .scoring import labelled_page_names

        skip = set(except_pages)
        for name in labelled_page_names(self._project, scored_only=scored_only):
            if name not in skip:
                yield self.check(name)

    def _digest(self, page: str, records: Sequence[Sequence[str]]) -> str:
        made_from = dumps([CHECK_VERSION, self._project.page(page).snapshot, [list(r) for r in records]])
        return hashlib.sha256(made_from.encode()).hexdigest()

    def _keep(self, page: str, digest: str, check: PageCheck) -> None:
        try:
            with self._project.writing() as db:
                db.execute("INSERT OR REPLACE INTO label_checks (page_id, digest, result) VALUES (?, ?, ?)",
                           (self._project.page_id(page), digest, dumps(asdict(check))))
        except sqlite3.OperationalError:
            pass  # not remembered: the next check makes it again
