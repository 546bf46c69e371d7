"""Taking a page out of a project (one imported by mistake: a wrong file, binary junk) without losing anything.

Before the page's rows go, everything the project holds about it is written to `P/removed/NAME.STAMP.json`: the
page row, its labels and their whole history, other annotators' labels, runs' predictions and scores for it, the
remembered label check (every table with a `page_id`, whatever the schema adds later). The snapshot file stays in
`snapshots/` (content-addressed, so another page may share it). Only then are the page and its rows deleted, in
one transaction. A page that belongs to an agent site is refused: the site's links point to it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .. import atomic
from .db import StoreError, now
from .project import Project

REMOVED = "removed"  # the folder, inside the project, that keeps what removed pages held


@dataclass(frozen=True)
class RemovedPage:
    name: str
    kept: Path             # the JSON file that holds everything the project had about the page
    rows: dict[str, int]   # per table, how many of its rows were the page's (labels: "records")


def remove_page(project: Project, name: str) -> RemovedPage:
    """Write what the project holds about page `name` to `removed/`, then delete the page and its rows."""
    with project.writing() as db:
        page_id = project.page_id(name)
        site = project.one("SELECT s.name FROM site_pages p JOIN sites s ON s.id = p.site_id WHERE p.page_id = ?",
                           (page_id,))
        if site is not None:
            raise StoreError(f"page {name} belongs to the agent site {site[0]!r}, whose links point to it; it "
                             "cannot be removed")
        held = {table: _rows(db, table, "page_id", page_id) for table in _tables_with_page_id(db)}
        kept_file = Path(project.root) / REMOVED / f"{_safe(name)}.{now().replace(':', '-')}.json"
        document = {"page": _rows(db, "pages", "id", page_id)[0], "removed_at": now(), **held}
        atomic.write_text(kept_file, json.dumps(document, ensure_ascii=False, indent=1, default=str) + "\n")
        for table in held:  # table names read from the schema, not from the user
            db.execute(f"DELETE FROM {table} WHERE page_id = ?", (page_id,))
        db.execute("DELETE FROM pages WHERE id = ?", (page_id,))
    return RemovedPage(name, kept_file, {table: len(rows) for table, rows in held.items() if rows})


def _tables_with_page_id(db: object) -> list[str]:
    conn = db.conn  # type: ignore[attr-defined]
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return [t for t in tables if any(col[1] == "page_id" for col in conn.execute(f"PRAGMA table_info({t})"))]


def _rows(db: object, table: str, column: str, value: int) -> list[dict[str, object]]:
    cursor = db.conn.execute(f"SELECT * FROM {table} WHERE {column} = ?", (value,))  # type: ignore[attr-defined]
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _safe(name: str) -> str:
    """The page's name as a file name (page names are file stems already; a path separator is kept out)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "page"
