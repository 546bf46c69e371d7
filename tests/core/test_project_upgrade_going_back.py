"""Going back to the database kept before an upgrade, as the message says, gives the project as it was even when
a crash left a write-ahead log beside it; and a refusal to keep it says a full disk only when the disk is full."""

from __future__ import annotations

import errno
import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
from tests.core.old_projects import OLD_HASH, old_project
from tests.core.test_upgrade_message_reads_well import gone_back_as_said


def a_version_6_project(folder: Path) -> Path:
    return old_project(folder, 6, f"INSERT INTO snapshots VALUES ('{OLD_HASH}', '.html', 1, 't')",
                       "INSERT INTO pages (name, snapshot, imported_at, updated_at) "
                       f"VALUES ('7', '{OLD_HASH}', 't', 't')")


def test_going_back_as_said_undoes_the_upgrade_even_after_a_crash(tmp_path: Path) -> None:
    old = a_version_6_project(tmp_path / "proj")
    project = open_project(old)
    (upgrade,) = take_upgrades()
    with project.writing() as db:
        db.execute(f"INSERT INTO pages (name, snapshot, imported_at, updated_at) VALUES ('8', '{OLD_HASH}', 't', 't')")
    shutil.copy(old / "project.db-wal", tmp_path / "wal")  # the log as a process killed now leaves it
    project.close()
    shutil.copy(tmp_path / "wal", old / "project.db-wal")

    gone_back_as_said(upgrade.message())  # its commands, which delete the log beside the database put back
    with sqlite3.connect(old / "project.db") as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 6
        assert db.execute("SELECT name FROM pages").fetchall() == [("7",)]


def test_a_refusal_that_is_no_full_disk_is_not_said_as_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_version_6_project(tmp_path / "fullerton" / "proj")  # "full" in the path the error holds

    def denied(database: Path, folder: Path, stem: str) -> Path:
        raise PermissionError(errno.EACCES, "Permission denied", str(folder / stem))

    monkeypatch.setattr(project_module, "copy_database", denied)
    with pytest.raises(StoreError) as refused:
        open_project(old)
    assert "is full" not in str(refused.value) and "free space" not in str(refused.value)
    assert "Permission denied" in str(refused.value) and f"make {old / 'removed'} writable" in str(refused.value)

