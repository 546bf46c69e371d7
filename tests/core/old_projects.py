"""A project folder as an older RecordLens left it, for the tests of schema migrations."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store.db import connect
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
