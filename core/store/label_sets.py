"""Other annotators' label sets in a project: `project.annotators`.

The project's own labels (the `records` table, with their history) are the ones the app edits and exports. A
second annotator's labels, imported from their NEXT-EVAL folder (`recordlens import DIR --project P --annotator
NAME`), are kept apart in a set of their own, per page, verbatim: they never mix with the project's labels, and
they are compared with them (`recordlens agreement`) or taken into them one record at a time (adjudication in
the app, through the project's history). Importing a set's page again replaces that page's records in the set.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from .db import Connection, StoreError, dumps, now

# The name by which `agreement` and the app mean the project's own labels: no annotator set may take it.
PROJECT_SET = "project"


def check_annotator_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise StoreError("an annotator needs a name")
    if name == PROJECT_SET:
        raise StoreError(f"{PROJECT_SET!r} names the project's own labels; give the annotator another name")
    return name


class Annotators:
    """The label sets of other annotators, each a name with records per page."""

    def __init__(self, store: Connection) -> None:
        self._store = store

    def names(self) -> list[str]:
        rows = self._store.db.execute("SELECT DISTINCT annotator FROM annotator_pages ORDER BY annotator")
        return [row[0] for row in rows]

    def pages(self, annotator: str) -> list[str]:
        """The pages the annotator labelled (an empty list of records is a labelled page too)."""
        rows = self._store.db.execute(
            "SELECT p.name FROM annotator_pages a JOIN pages p ON p.id = a.page_id WHERE a.annotator = ?",
            (annotator,))
        return [row[0] for row in rows]

    def records(self, annotator: str, page: str) -> list[list[str]]:
        """The annotator's records of a page, in their file's order ([] when the page is not in the set)."""
        page_id = self._store.page_id(page)
        rows = self._store.db.execute("SELECT xpaths FROM annotator_labels WHERE annotator = ? AND page_id = ? "
                                      "ORDER BY position", (annotator, page_id))
        return [json.loads(row[0]) for row in rows]

    def all_records(self, annotator: str) -> dict[str, list[list[str]]]:
        return {page: self.records(annotator, page) for page in self.pages(annotator)}

    def set_page(self, annotator: str, page: str, records: Sequence[Sequence[str]], source: str | None = None) -> None:
        """Store (or replace) the annotator's records of one page, in one transaction."""
        annotator = check_annotator_name(annotator)
        at = now()
        with self._store.writing() as db:
            page_id = self._store.page_id(page)
            db.execute("DELETE FROM annotator_labels WHERE annotator = ? AND page_id = ?", (annotator, page_id))
            db.execute("INSERT OR REPLACE INTO annotator_pages (annotator, page_id, source, imported_at) "
                       "VALUES (?, ?, ?, ?)", (annotator, page_id, source, at))
            for position, xpaths in enumerate(records):
                db.execute("INSERT INTO annotator_labels (annotator, page_id, position, xpaths) VALUES (?, ?, ?, ?)",
                           (annotator, page_id, position, dumps([str(x) for x in xpaths])))
