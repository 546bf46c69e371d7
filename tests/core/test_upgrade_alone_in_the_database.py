"""An upgrade in place is made alone in the project's database: an earlier RecordLens that opens the project at any
moment of it, even between the upgrade's last look at the holders' marks and its commit, never reads the schema as
it was and goes on to write into the new one: it waits, and then reads the new schema (which it refuses, as a later
RecordLens's). An earlier RecordLens that keeps the database open without a mark (those from before the marks, an
`sqlite3` shell) is met too: the upgrade is refused in words that say so, and nothing is changed."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
from recordlens.core.store.project import APP_OPEN_MARK
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.child_lines import first_line
from tests.core.old_projects import a_version_3_project, version_of

# An earlier RecordLens opening the project (argv[1]): it reads the schema version, says it (to the file argv[2]),
# then takes the app window's mark (argv[3]), as that version's window does once the project is open, and keeps both
# until its stdin closes
EARLIER_OPENER = """
import sqlite3, sys
from pathlib import Path
from recordlens.core import owner_files
root, said, mark = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
said.with_suffix(".opening").write_text("", encoding="utf-8")
db = sqlite3.connect(root / "project.db", timeout=60)
version = db.execute("PRAGMA user_version").fetchone()[0]
# said whole or not at all: the test reads it as soon as it exists
said.with_suffix(".saying").write_text(str(version), encoding="utf-8")
said.with_suffix(".saying").replace(said)
lock = owner_files.take(root / mark, attempts=1)
sys.stdin.read()
owner_files.release(lock)
db.close()
"""

# An earlier RecordLens that keeps no mark: its connection open after its first read, until its stdin closes
UNMARKED_OPENER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=60)
print(db.execute("PRAGMA user_version").fetchone()[0], flush=True)
sys.stdin.read()
db.close()
"""


@contextmanager
def opening(root: Path, said: Path) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen([sys.executable, "-c", EARLIER_OPENER, str(root), str(said), APP_OPEN_MARK],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield child
    finally:
        child.communicate(timeout=120)


def read_or_waiting(said: Path, child: subprocess.Popen[str], wait_s: float = 3.0) -> None:
    """Until the child has read the schema version, or for `wait_s` once it opens the database while it waits to
    read (the upgrade goes on then)."""
    for signal, wait in ((said.with_suffix(".opening"), 120.0), (said, wait_s)):
        until = time.monotonic() + wait
        while time.monotonic() < until and not signal.exists() and child.poll() is None:
            time.sleep(0.02)


def test_an_earlier_recordlens_opening_between_the_last_look_and_the_commit_never_reads_the_old_schema(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_version_3_project(tmp_path / "old")
    said = tmp_path / "read"
    migrate, holders = project_module.migrate, project_module.holders
    migrated: list[bool] = []
    openers: list[subprocess.Popen[str]] = []
    with ExitStack() as stack:
        def migrating(conn: sqlite3.Connection) -> int:
            migrated.append(True)
            return migrate(conn)

        def looked(root: Path) -> list[str]:
            found = holders(root)
            if migrated and not openers:  # the look after the migration: an earlier RecordLens opens it right now
                openers.append(stack.enter_context(opening(old, said)))
                read_or_waiting(said, openers[0])
            return found

        monkeypatch.setattr(project_module, "migrate", migrating)
        monkeypatch.setattr(project_module, "holders", looked)
        # the opener's read waits for the commit, so its mark comes after the last look: the upgrade goes on
        open_project(old).close()
        assert openers, "no look at the holders after the migration"
        assert version_of(old / "project.db") == SCHEMA_VERSION
        read_or_waiting(said, openers[0], wait_s=60)
        # the opener read the new schema (which an earlier RecordLens refuses), never the one it was
        assert int(said.read_text(encoding="utf-8")) == SCHEMA_VERSION
    assert [upgrade.found for upgrade in take_upgrades()] == [3]


def test_an_earlier_recordlens_with_the_database_open_and_no_mark_is_met(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = a_version_3_project(tmp_path / "old")
    monkeypatch.setattr(project_module, "ALONE_WAIT_SECONDS", 0.5, raising=False)  # (seconds, in use)
    child = subprocess.Popen([sys.executable, "-c", UNMARKED_OPENER, str(old / "project.db")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first_line(child) == "3\n"
        with pytest.raises(StoreError) as refused:
            open_project(old)
        said = str(refused.value)
        assert "kept open by another process" in said and "nothing was changed" in said and "close it first" in said
        assert version_of(old / "project.db") == 3 and not (old / "removed").exists() and take_upgrades() == []
    finally:
        child.communicate(timeout=60)
    with open_project(old) as project:  # closed: brought up to date as before
        assert project.schema_version() == SCHEMA_VERSION
    assert [upgrade.found for upgrade in take_upgrades()] == [3]


def test_the_project_is_open_to_others_again_once_upgraded(tmp_path: Path) -> None:
    """The upgrade's hold on the database ends with it: another process reads and writes the project at once."""
    old = a_version_3_project(tmp_path / "old")
    with open_project(old) as project:
        assert project.schema_version() == SCHEMA_VERSION
        other = sqlite3.connect(old / "project.db", timeout=0.5)
        try:
            other.execute("INSERT INTO provenances (kind, name, version, input_format, seed) "
                          "VALUES ('person', 'bo', '', '', '')")
            other.commit()
        finally:
            other.close()
        assert project.one("SELECT COUNT(*) FROM provenances WHERE name = 'bo'")[0] == 1
    take_upgrades()


# Another process's write, committed and closed: an earlier RecordLens's command that ran in a moment
WRITER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=60)
db.execute("INSERT INTO pages (name, snapshot, imported_at, updated_at) SELECT '8', snapshot, 't', 't' FROM pages")
db.commit()
db.close()
"""


def test_a_write_between_the_copy_kept_and_the_migration_is_in_the_copy(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database as it was is copied before the upgrade is alone in it: a process that wrote to it in between
    (and closed) is not lost from the copy, which is made again."""
    old = a_version_3_project(tmp_path / "old")
    alone = project_module.Project._alone
    tries: list[int] = []

    @contextmanager
    def written_first(self: project_module.Project, found: int) -> Iterator[None]:
        tries.append(found)
        if len(tries) == 1:
            subprocess.run([sys.executable, "-c", WRITER, str(old / "project.db")], check=True, timeout=120)
        with alone(self, found):
            yield

    monkeypatch.setattr(project_module.Project, "_alone", written_first)
    with open_project(old) as project:
        assert project.page_names() == ["7", "8"]
    assert len(tries) == 2
    (upgrade,) = take_upgrades()
    assert sorted(path.name for path in (old / "removed").iterdir()) == [upgrade.kept.name]  # the first one gone
    with contextlib.closing(sqlite3.connect(upgrade.kept)) as db:
        assert db.execute("SELECT name FROM pages ORDER BY name").fetchall() == [("7",), ("8",)]
