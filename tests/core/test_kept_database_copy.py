"""The database kept before an upgrade (removed_files.copy_database) gets its name only once whole: a process
killed while copying leaves no file under a name that looks kept, and the next copy removes what it left."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from recordlens.core.store.removed_files import copy_database

# Copies `database` into `folder` and is killed (no clean-up of any kind) once SQLite has written part of the copy.
_KILLED_PART_WAY = """
import os, sqlite3, sys
from pathlib import Path
from recordlens.core.store import removed_files

class Dying(sqlite3.Connection):
    def backup(self, target, **options):
        super().backup(target, pages=1)  # a first page of the copy written
        os._exit(9)                      # then killed

class Connecting:
    Error = sqlite3.Error
    @staticmethod
    def connect(*args, **options):
        return sqlite3.connect(*args, factory=Dying, **options)

removed_files.sqlite3 = Connecting
removed_files.copy_database(Path(sys.argv[1]), Path(sys.argv[2]), "project-schema-6.T")
"""


def a_database(path: Path, rows: int) -> Path:
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE pages (name TEXT)")
        db.executemany("INSERT INTO pages VALUES (?)", [(f"page {k} " + "x" * 500,) for k in range(rows)])
    return path


def test_a_copy_killed_part_way_leaves_no_file_that_looks_kept(tmp_path: Path) -> None:
    database = a_database(tmp_path / "project.db", 2000)
    folder = tmp_path / "removed"
    killed = subprocess.run([sys.executable, "-c", _KILLED_PART_WAY, str(database), str(folder)], check=False)
    assert killed.returncode == 9
    assert [p.name for p in folder.iterdir() if not p.name.startswith(".")] == []
    assert any(folder.iterdir())  # its hidden file: killed before it could remove it

    kept = copy_database(database, folder, "project-schema-6.T")  # the next copy: whole, and it tidies up
    assert kept.name == "project-schema-6.T.db"
    assert [p.name for p in folder.iterdir()] == [kept.name]
    with sqlite3.connect(kept) as db:
        assert db.execute("SELECT COUNT(*) FROM pages").fetchone()[0] == 2000


def test_a_copy_never_replaces_a_file(tmp_path: Path) -> None:
    database = a_database(tmp_path / "project.db", 3)
    folder = tmp_path / "removed"
    folder.mkdir()
    (folder / "project-schema-6.T.db").write_bytes(b"someone else's")
    kept = copy_database(database, folder, "project-schema-6.T")
    assert kept.name == "project-schema-6.T-1.db"
    assert (folder / "project-schema-6.T.db").read_bytes() == b"someone else's"
    assert sorted(p.name for p in folder.iterdir()) == ["project-schema-6.T-1.db", "project-schema-6.T.db"]


def test_sqlite_files_beside_a_copy_cut_short_go_with_it(tmp_path: Path) -> None:
    """A copy that failed left its -wal and -shm (a disk full at the edge), and the clean-up of partials left by a
    killed process read their owner wrongly and never removed them."""
    database = a_database(tmp_path / "project.db", 3)
    folder = tmp_path / "removed"
    killed = subprocess.run([sys.executable, "-c", _KILLED_PART_WAY, str(database), str(folder)], check=False)
    assert killed.returncode == 9
    (partial,) = [p for p in folder.iterdir() if p.name.endswith(tuple("0123456789abcdef"))]
    for suffix in ("-wal", "-shm"):  # as SQLite leaves them beside a copy cut short
        partial.with_name(partial.name + suffix).write_bytes(b"left")
    kept = copy_database(database, folder, "project-schema-6.T")
    assert [p.name for p in folder.iterdir()] == [kept.name]


def test_a_nearly_full_disk_is_said_as_full_whatever_sqlite_calls_it(tmp_path: Path, monkeypatch) -> None:
    """SQLite says only "disk I/O error" when it cannot grow a file on a disk with a few hundred kB left: that
    was said as a folder to make writable."""
    import shutil
    from collections import namedtuple

    from recordlens.core.store import db

    usage = namedtuple("usage", "total used free")
    error = sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 10**9 - 600_000, 600_000))
    assert db.full_or_nearly(error, tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**9, 0, 10**9))
    assert not db.full_or_nearly(error, tmp_path)
    assert not db.full_or_nearly(PermissionError(13, "Permission denied", str(tmp_path / "fullerton")), tmp_path)
