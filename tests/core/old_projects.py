"""A project folder as an older RecordLens left it, for the tests of schema migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from recordlens.core.store.db import connect
from recordlens.core.store.files import snapshot_path
from recordlens.core.store.schema import migrate


def old_project(folder: Path, version: int, *statements: str) -> Path:
    """Make `folder` a project whose database the migrations built up to `version` only, then run `statements`
    on it in the same transaction (the old version's data); return the folder."""
    (folder / "snapshots").mkdir(parents=True)
    db = connect(folder / "project.db")
    db.conn.execute("BEGIN IMMEDIATE")
    migrate(db.conn, target=version)
    for statement in statements:
        db.conn.execute(statement)
    db.conn.execute("COMMIT")
    db.close()
    return folder


# A saved copy's name as the project gives one (a sha256 in hex: any other is refused as changed by hand), for the
# snapshot rows these tests write
OLD_HASH = "ab" * 32


def a_version_3_project(folder: Path) -> Path:
    """A project of schema 3 in `folder`: page 7, its snapshot a list of two items."""
    old = old_project(folder, 3, f"INSERT INTO snapshots VALUES ('{OLD_HASH}', '.html', 1, 't')",
                      f"INSERT INTO pages (name, snapshot, imported_at, updated_at) VALUES ('7', '{OLD_HASH}', 't', "
                      "'t')")
    snapshot_path(old, OLD_HASH, ".html").parent.mkdir(parents=True, exist_ok=True)
    snapshot_path(old, OLD_HASH, ".html").write_text("<html><body><ul><li>a</li><li>b</li></ul></body></html>",
                                                     encoding="utf-8")
    return old


# The columns each schema version added to tables an earlier one had (a migration that only adds a table needs none)
ADDED_COLUMNS = {7: ("scores", "page_reader"), 8: ("scores", "changes_seen"), 9: ("trajectories", "task_digest"),
                 10: ("predictions", "score_dropped_seen"), 11: ("steps", "submit"),
                 12: ("scores", "copy_hash")}


def as_earlier_schema(folder: Path, version: int) -> None:
    """The project in `folder`, made by this RecordLens, as one of schema `version` leaves it: the columns later
    versions added dropped, its data kept (what a colleague's older install would have written)."""
    db = sqlite3.connect(folder / "project.db")
    try:
        for added_by, (table, column) in sorted(ADDED_COLUMNS.items()):
            held = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
            if added_by > version and column in held:
                db.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        db.execute(f"PRAGMA user_version = {version}")
        db.commit()
    finally:
        db.close()


def version_of(database: Path) -> int:
    """The schema version `database` has (SQLite's user_version), read without changing it (read-only)."""
    db = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()
