"""`project init` stopped part way leaves nothing that blocks the next (a verifier's finding: a full disk, or a kill
right after SQLite made the file, left a 0-byte `project.db` that `project init` then refused as "already a
RecordLens project" and every command as an emptied database to "put back from a backup", for a project that
never held anything). The database is made whole under a hidden name and only then named `project.db`; a
`project.db` that an earlier RecordLens's init left unfinished (empty, or of no table, in a folder holding no page)
is taken over by `project init` and said as such by the commands that open it. A real project's database, emptied
by a crash while its pages are there, is never taken over: nothing of a project is ever written over."""

from __future__ import annotations

import os
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.store.files import STALE_TEMPORARY_S, store_snapshot
from recordlens.core.store.project import PROJECT_DB, StoreError, init_project, open_project
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.conftest import ROOT

# `init_project(FOLDER)`, killed (SIGKILL) the instant after its first database file is made, before SQLite writes
# a byte to it: what a kill or a full disk leaves at the worst moment
_KILLED_INIT = textwrap.dedent("""
    import os, sqlite3, sys
    real = sqlite3.connect
    def connect_then_die(*args, **kwargs):
        real(*args, **kwargs)
        os.kill(os.getpid(), 9)
    sqlite3.connect = connect_then_die
    from recordlens.core.store.project import init_project
    init_project(sys.argv[1])
""")


def a_working_project(folder: Path) -> None:
    with open_project(folder) as project:
        assert project.schema_version() == SCHEMA_VERSION and project.pages() == []


def what_an_earlier_init_left(folder: Path, database: bytes = b"") -> Path:
    """The folder an earlier RecordLens's init (which made `project.db` in place) left when stopped part way."""
    (folder / "snapshots").mkdir(parents=True)
    (folder / PROJECT_DB).write_bytes(database)
    return folder


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_an_init_killed_part_way_leaves_no_project_db(tmp_path: Path) -> None:
    folder = tmp_path / "P"
    killed = subprocess.run([sys.executable, "-c", _KILLED_INIT, str(folder)], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not (folder / PROJECT_DB).exists()
    with pytest.raises(StoreError, match=r"is not a RecordLens project \(no project.db\).*project init"):
        open_project(folder)
    init_project(folder).close()
    a_working_project(folder)


def test_an_init_on_a_full_disk_leaves_nothing_and_says_the_disk(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    real = sqlite3.connect

    def on_a_full_disk(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 2")  # SQLite's own "database or disk is full" past two pages
        return conn

    monkeypatch.setattr(sqlite3, "connect", on_a_full_disk)
    with pytest.raises(StoreError, match=r"cannot create the project database in .*P: the disk that holds .*P is "
                                         r"full .*free space and create the project again"):
        init_project(tmp_path / "P")
    assert list(tmp_path.iterdir()) == []  # nor its folder, nor its hidden database
    monkeypatch.setattr(sqlite3, "connect", real)  # room made
    init_project(tmp_path / "P").close()
    a_working_project(tmp_path / "P")


def test_what_a_killed_init_left_hidden_is_removed_by_the_next_once_old(tmp_path: Path) -> None:
    folder = tmp_path / "P"
    folder.mkdir()
    left = folder / ".project.db.abcd1234.tmp"
    left.write_bytes(b"SQLite format 3\0")
    assert atomic.temporaries_of(folder / PROJECT_DB) == [left]  # named as a write's temporary file is
    young = folder / ".project.db.efgh5678.tmp"  # perhaps another init's, making it now
    young.write_bytes(b"")
    old = left.stat().st_mtime - 2 * STALE_TEMPORARY_S
    os.utime(left, (old, old))
    init_project(folder).close()
    assert not left.exists() and young.exists()
    assert atomic.temporaries_of(folder / PROJECT_DB) == [young]  # the new database's own is gone: named
    a_working_project(folder)


def test_the_empty_project_db_an_earlier_init_left_is_said_and_taken_over(tmp_path: Path) -> None:
    folder = what_an_earlier_init_left(tmp_path / "P")
    with pytest.raises(StoreError) as refused:
        open_project(folder)
    said = str(refused.value)
    assert "is empty (0 bytes) and the folder holds no saved page" in said
    assert f"`recordlens project init {folder}` makes the project there" in said
    init_project(folder).close()
    a_working_project(folder)


def test_a_database_of_no_table_an_earlier_init_left_is_taken_over(tmp_path: Path) -> None:
    folder = what_an_earlier_init_left(tmp_path / "P")
    conn = sqlite3.connect(folder / PROJECT_DB)
    conn.execute("PRAGMA journal_mode = WAL")  # its first write, then killed before its tables were committed
    conn.close()
    assert (folder / PROJECT_DB).stat().st_size > 0
    init_project(folder).close()
    a_working_project(folder)


@pytest.mark.parametrize("held", ["a page", "removed", "models", "a log of writes"])
def test_an_emptied_database_of_a_project_in_use_is_never_taken_over(tmp_path: Path, held: str) -> None:
    folder = what_an_earlier_init_left(tmp_path / "P")
    if held == "a page":
        store_snapshot(folder, b"<html><body>a page labelled for weeks</body></html>", ".html")
    elif held == "a log of writes":
        (folder / f"{PROJECT_DB}-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 60)
    else:
        (folder / held).mkdir()
    with pytest.raises(StoreError, match="already a RecordLens project"):
        init_project(folder)
    assert (folder / PROJECT_DB).stat().st_size == 0  # nothing written over it
    if held == "a page":
        with pytest.raises(StoreError, match=r"is empty \(0 bytes\), not a project database.*put back a copy from "
                                             r"a backup \(the pages are still in"):
            open_project(folder)
    assert (folder / PROJECT_DB).stat().st_size == 0


def test_a_project_is_never_taken_over(tmp_path: Path) -> None:
    init_project(tmp_path / "P").close()
    assert stat.S_IMODE((tmp_path / "P" / PROJECT_DB).stat().st_mode) == atomic.file_mode()  # not mkstemp's 0600
    with pytest.raises(StoreError, match="already a RecordLens project"):
        init_project(tmp_path / "P")
    a_working_project(tmp_path / "P")
