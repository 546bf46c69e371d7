"""Two `project init`s of one folder at once, where the file system has no hard links (FAT, some shares): the
first takes the name `project.db` with an empty file, then renames its database over it. A second init that came
in between took that empty file for what an unfinished init leaves, made its project in it and imported into it;
the first's rename then replaced that database, and the second's pages were lost (their saved copies orphaned in
snapshots/). Inits of one folder now hold its init lock from their look at the folder to the database named: the
second is refused, naming the first, and an empty `project.db` is taken over only while no init holds the lock."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.store.project import PROJECT_DB, StoreError, init_project, open_project
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.conftest import ROOT
from tests.core.shop_runs import dataset

# The second init, in another process (its file system has links: what it does with the empty file is the point)
SECOND_INIT = textwrap.dedent("""
    import sys
    from recordlens.core.store.importer import import_paths
    from recordlens.core.store.project import init_project
    with init_project(sys.argv[1]) as project:
        print("imported", len(import_paths(project, [sys.argv[2]]).imported), flush=True)
""")


def no_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object, **__: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")  # what vfat says to link(2)

    monkeypatch.setattr(os, "link", refused)


def test_a_second_init_while_the_first_holds_the_empty_name_is_refused_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, data = tmp_path / "P", dataset(tmp_path / "data", 3)
    no_hard_links(monkeypatch)
    real_replace, seen = os.replace, []

    def second_init_meanwhile(made: str | Path, name: str | Path) -> None:
        if Path(name).name == PROJECT_DB and not seen:  # the first holds the name with an empty file
            assert (folder / PROJECT_DB).stat().st_size == 0
            seen.append(subprocess.run([sys.executable, "-c", SECOND_INIT, str(folder), str(data)], cwd=ROOT,
                                       capture_output=True, text=True, timeout=120))
            with pytest.raises(StoreError) as opened:
                open_project(folder)
            seen.append(str(opened.value))
        real_replace(made, name)

    monkeypatch.setattr(os, "replace", second_init_meanwhile)
    init_project(folder).close()
    second, opened = seen
    assert second.returncode != 0 and "imported" not in second.stdout
    assert (f"{folder} is being made a RecordLens project by process {os.getpid()} on" in second.stderr
            and "right now (`recordlens project init`)" in second.stderr), second.stderr
    assert f"is empty (0 bytes): process {os.getpid()} on" in opened and "is making the project right now" in opened
    monkeypatch.undo()
    with open_project(folder) as project:  # the first's project, whole; nothing of the second's made
        assert project.schema_version() == SCHEMA_VERSION and project.pages() == []
    assert not any(path.is_file() for path in (folder / "snapshots").rglob("*"))
    assert sorted(path.name for path in folder.iterdir()) == [PROJECT_DB, "snapshots"]  # the lock gone with it


def test_without_a_lock_an_empty_project_db_is_said_not_taken_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no lock can be had (a file system without locks), an empty `project.db` may be another init's under
    way: it is said, not taken over. A database of no table (an earlier RecordLens's init, made in place) still is:
    an init under way never leaves one."""
    def no_locks(*_: object, **__: object) -> owner_files.Lock:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(owner_files, "take", no_locks)
    empty, tableless = tmp_path / "empty", tmp_path / "tableless"
    for folder in (empty, tableless):
        (folder / "snapshots").mkdir(parents=True)
    (empty / PROJECT_DB).write_bytes(b"")
    sqlite3.connect(tableless / PROJECT_DB).execute("PRAGMA journal_mode = WAL").connection.close()
    with pytest.raises(StoreError, match=r"is empty \(0 bytes\): another `recordlens project init` may be making the "
                                         r"project right now.*delete it and create the project again"):
        init_project(empty)
    assert (empty / PROJECT_DB).stat().st_size == 0
    init_project(tableless).close()
    init_project(tmp_path / "new").close()  # a folder with none: made, as ever
    for folder in (tableless, tmp_path / "new"):
        with open_project(folder) as project:
            assert project.schema_version() == SCHEMA_VERSION


def test_an_init_on_a_full_disk_leaves_no_lock_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk refuses the lock's line too: the lock file it made is removed with the lock given back, so the
    folders the init made are removed again, as the init's promise is."""
    real = sqlite3.connect

    def on_a_full_disk(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 2")  # SQLite's own "database or disk is full" past two pages
        return conn

    def no_room(purpose: str = "") -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sqlite3, "connect", on_a_full_disk)
    monkeypatch.setattr(owner_files, "owner_line", no_room)
    with pytest.raises(StoreError, match="the disk that holds .*P is full"):
        init_project(tmp_path / "P")
    assert list(tmp_path.iterdir()) == []
