"""An upgrade killed part way (SIGKILL in the middle of its migration, or after it committed and before it could say
so) loses nothing: SQLite rolls an uncommitted migration back, so the project is still of its earlier schema, and
the next RecordLens that opens it brings it up as usual, takes over the mark the killed one left (`.upgrading`) and
removes it. The user is told, once, that an earlier upgrade was interrupted and what became of it; a killed
command that only read the project (through a copy) is no interrupted upgrade and is not said as one."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordlens.core.store import open_project, take_upgrades
from recordlens.core.store import project as project_module
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.old_projects import a_version_3_project, version_of

GENEROUS_S = 120.0

# A RecordLens opening the project argv[1] that stops for good at argv[3] ("migrated": its migration run and not
# committed; "committed": the upgrade committed, the mark not given back yet; "reading": a copy of it being made for
# a command that only reads), once it makes the file argv[2]: to be killed there
STOPPED = """
import contextlib, sys, time
from pathlib import Path
from recordlens.core.store import open_project
from recordlens.core.store.project import reading_as_it_is
from recordlens.core.store import project as project_module
root, ready, where = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]

def stop() -> None:
    ready.write_text("", encoding="utf-8")
    time.sleep(600)

migrate, given_back = project_module.migrate, project_module._given_back

def migrated_then_stopped(conn, *args, **kwargs):
    done = migrate(conn, *args, **kwargs)
    if conn.in_transaction and (root / "removed").exists():  # the project's migration, not a new copy's tables
        stop()
    return done

def given_back_after_stopping(lock):
    if lock is not None and lock.path.name == project_module.UPGRADE_MARK:
        stop()
    given_back(lock)

def copied_then_stopped(folder):
    stop()

if where == "migrated":
    project_module.migrate = migrated_then_stopped
elif where == "committed":
    project_module._given_back = given_back_after_stopping
else:
    project_module._upgraded_copy = copied_then_stopped
with reading_as_it_is() if where == "reading" else contextlib.nullcontext():
    open_project(root).close()
"""


def killed_at(old: Path, where: str, tmp_path: Path) -> int:
    """A RecordLens opening `old`, killed (SIGKILL) at `where`: its process id."""
    ready = tmp_path / f"ready-{where}"
    opener = subprocess.Popen([sys.executable, "-c", STOPPED, str(old), str(ready), where],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    until = time.monotonic() + GENEROUS_S
    while not ready.exists():
        assert opener.poll() is None, opener.communicate()
        assert time.monotonic() < until
        time.sleep(0.01)
    os.kill(opener.pid, signal.SIGKILL)
    opener.communicate(timeout=GENEROUS_S)
    return opener.pid


def test_an_upgrade_killed_in_its_migration_is_done_by_the_next_opener_and_said_once(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    pid = killed_at(old, "migrated", tmp_path)
    assert version_of(old / "project.db") == 3  # rolled back: nothing of it committed
    assert (old / project_module.UPGRADE_MARK).exists()  # left behind by the process killed
    with open_project(old) as project:
        assert project.schema_version() == SCHEMA_VERSION
        assert [page.name for page in project.pages()] == ["7"]
    assert not (old / project_module.UPGRADE_MARK).exists()
    (upgrade,) = take_upgrades()
    said = upgrade.message()
    assert said.startswith(f"{old}: project brought up from schema 3 to {SCHEMA_VERSION}.")
    assert f"An earlier upgrade of it, by process {pid} " in said and "was interrupted" in said, said
    with open_project(old):
        pass
    assert take_upgrades() == []  # said once


@pytest.mark.parametrize("checkpointed", [False, True], ids=["in-the-log", "in-the-database-file"])
def test_an_upgrade_killed_once_committed_is_said_by_the_next_opener(tmp_path: Path, checkpointed: bool) -> None:
    """The killed process had brought the project up but could not say so, nor how to go back: the next says it,
    whether the migration is still in the write-ahead log or written into the database file (a checkpoint: its
    header then says the schema is current, and no upgrade takes the mark over)."""
    old = a_version_3_project(tmp_path / "old")
    pid = killed_at(old, "committed", tmp_path)
    assert (old / project_module.UPGRADE_MARK).exists()
    if checkpointed:
        db = sqlite3.connect(old / "project.db")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log written into the database file
        db.close()
        header = (old / "project.db").read_bytes()[:100]  # (read here, by a test that holds no connection to it)
        assert int.from_bytes(header[60:64], "big") == SCHEMA_VERSION  # SQLite's user_version in the file itself
    with open_project(old) as project:
        assert project.schema_version() == SCHEMA_VERSION
        assert [page.name for page in project.pages()] == ["7"]
    assert not (old / project_module.UPGRADE_MARK).exists()
    (kept,) = (old / "removed").glob("project-schema-3.*.db")
    (upgrade,) = take_upgrades()
    assert (upgrade.found, upgrade.to, upgrade.kept) == (3, SCHEMA_VERSION, kept)
    said = upgrade.message()
    assert f"by process {pid} " in said and "interrupted" in said and f"removed/{kept.name}" in said, said
    with open_project(old):
        pass
    assert take_upgrades() == []


def test_a_killed_reading_command_is_no_interrupted_upgrade(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    killed_at(old, "reading", tmp_path)
    assert (old / project_module.UPGRADE_MARK).exists() and version_of(old / "project.db") == 3
    open_project(old).close()
    (upgrade,) = take_upgrades()
    assert "interrupted" not in upgrade.message()
    assert not (old / project_module.UPGRADE_MARK).exists()
