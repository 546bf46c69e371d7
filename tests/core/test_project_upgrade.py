"""A project of an earlier schema, opened by this RecordLens: its database as it was is kept in removed/ before it
is migrated (or nothing changes, said), and the upgrade is said once, whichever command opened it; a copy of it
leaves it as it was and keeps no database of the copy."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
from recordlens.core.store.project_copy import copy_project
from recordlens.core.store.schema import SCHEMA_VERSION, SchemaError
from tests.core.cli_runs import run
from tests.core.old_projects import a_version_3_project, version_of


def kept_databases(project: Path) -> list[Path]:
    return sorted((project / "removed").glob("project-schema-*.db"))


def test_the_database_as_it_was_is_kept_before_it_is_migrated(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    with open_project(old) as project:
        assert project.schema_version() == SCHEMA_VERSION
    (kept,) = kept_databases(old)
    assert version_of(kept) == 3
    with sqlite3.connect(kept) as db:  # a database of its own, whole, as the earlier RecordLens left it
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT name FROM pages").fetchall() == [("7",)]
        assert "label_checks" not in {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert not kept.with_name(kept.name + "-wal").exists()
    (upgrade,) = take_upgrades()
    assert (upgrade.root, upgrade.found, upgrade.to, upgrade.kept) == (old, 3, SCHEMA_VERSION, kept)
    with open_project(old):  # current now: nothing kept again, nothing said again
        pass
    assert kept_databases(old) == [kept] and take_upgrades() == []


def test_the_kept_database_put_back_is_the_project_as_it_was(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    open_project(old).close()
    (kept,) = kept_databases(old)
    (old / "project.db").write_bytes(kept.read_bytes())  # what the message says to do to go back
    assert version_of(old / "project.db") == 3


def sqlite_full() -> sqlite3.Error:
    """SQLite's own full disk (SQLITE_FULL), as it raises it."""
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE t (x)")
        db.execute("PRAGMA max_page_count = 2")
        try:
            db.execute("INSERT INTO t VALUES (zeroblob(100000))")
        except sqlite3.Error as error:
            return error
    raise AssertionError("SQLite took it all")


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"), sqlite_full()])
def test_a_full_disk_keeps_the_project_as_it_was_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            failure: Exception) -> None:
    old = a_version_3_project(tmp_path / "old")

    def full(*args: object) -> Path:
        raise failure

    monkeypatch.setattr(project_module, "copy_database", full)
    with pytest.raises(StoreError, match="nothing was changed: free space and open it again") as refused:
        open_project(old)
    assert "is full" in str(refused.value) and str(old) in str(refused.value)
    assert version_of(old / "project.db") == 3 and take_upgrades() == []


def test_a_removed_folder_that_cannot_be_written_keeps_the_project_as_it_was(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    (old / "removed").write_text("not a folder", encoding="utf-8")
    with pytest.raises(StoreError, match=r"cannot be written.*nothing was changed: make .*removed writable"):
        open_project(old)
    assert version_of(old / "project.db") == 3 and take_upgrades() == []


def test_a_migration_that_fails_leaves_no_kept_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_version_3_project(tmp_path / "old")

    def refused(conn: sqlite3.Connection) -> int:
        conn.execute("CREATE TABLE made_part_way (x)")
        raise SchemaError("the provenances table is not as RecordLens made it")

    monkeypatch.setattr(project_module, "migrate", refused)
    with pytest.raises(SchemaError):
        open_project(old)
    assert version_of(old / "project.db") == 3 and kept_databases(old) == [] and take_upgrades() == []


def test_every_command_that_writes_says_the_upgrade_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = a_version_3_project(tmp_path / "old")
    code, out, err = run(capsys, "project", "remove-page", "7", "--project", str(old))
    assert code == 0 and "brought up" not in out
    (kept,) = kept_databases(old)
    said = err[err.index("recordlens: "):]
    assert said == (f"recordlens: {old}: project brought up from schema 3 to {SCHEMA_VERSION}.\n"
                    "  Earlier RecordLens versions can no longer open it:\n"
                    "  an earlier RecordLens that has it open still (a window, or a command begun before) must be "
                    "closed now.\n"
                    f"  The database as it was is kept in removed/{kept.name}.\n"
                    "  It had no learnt model.\n"
                    "  To go back to an earlier version, put it back as project.db, and models/ as it was:\n"
                    "  run, while no RecordLens has the project open (the changes and models made since are lost):\n"
                    f"    cd {old} &&\n"
                    "    rm -f project.db-wal project.db-shm &&\n"
                    f"    cp removed/{kept.name} project.db &&\n"
                    "    rm -rf models\n")
    assert "brought up" not in run(capsys, "runs", "--project", str(old))[2]  # once
    other = a_version_3_project(tmp_path / "other")
    code, _, err = run(capsys, "runs", "--project", str(other), "--add", str(tmp_path / "no-such-run"))
    assert f"recordlens: {other}: project brought up from schema 3" in err


def test_a_copy_leaves_the_older_project_alone_and_keeps_nothing_of_its_own(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    before = (old / "project.db").read_bytes()
    copy_project(old, tmp_path / "copy")
    assert (old / "project.db").read_bytes() == before and kept_databases(old) == []
    assert version_of(tmp_path / "copy" / "project.db") == SCHEMA_VERSION
    assert kept_databases(tmp_path / "copy") == [] and take_upgrades() == []
