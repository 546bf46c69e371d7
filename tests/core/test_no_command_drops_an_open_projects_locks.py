"""Nothing a command or the app's jobs run on a project drops the locks this process's own connection holds on it
(a verifier's finding, sought on every path after the first was mended). On Linux and other POSIX systems, closing
ANY descriptor of a file drops every lock the process holds on it (fcntl's record locks), SQLite's own included:
a step that opens `project.db` or `project.db-shm` as a plain file (to read its header, copy it, hash it) and
closes it leaves the process's open connection unlocked, and another process's command then takes the project for
unused and deletes its write-ahead log under that connection (its writes lost; writes from both sides corrupt
the database). Here one connection holds the project with writes in its log, as the app's window does, and every
entry point is run in this process after it, one by one; after each, the locks are those held before, and a
second process that reads the project and closes (as any command does) leaves the log in place. An output path
naming one of the database's files is refused without opening it, and the log is not written over either."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from recordlens.core import extract, owner_files
from recordlens.core.file_kinds import DatabaseFile, read_regular_file, sqlite_file_in_use
from recordlens.core.store import (
    APP_OPEN_MARK,
    Provenance,
    forget_project_model,
    import_paths,
    mark_propose,
    model_freshness,
    open_project,
    project_model,
    project_model_path,
    score_stored_run,
    unmark_propose,
)
from recordlens.core.store.project_copy import open_to_read
from tests.core.cli_runs import DEMO, demo_project, run

# What any command's connection does to a project it reads: open, read, close (the last to close deletes the log)
READ_AND_CLOSE = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("SELECT COUNT(*) FROM pages").fetchall()
db.close()
"""
ME = Provenance.person("me")


def _locks_held_on(*paths: Path) -> list[str]:
    """The POSIX locks this process holds on `paths`, as Linux lists them: by device and inode (an inode number
    alone is another file's on another file system), the locks held, not those waited for (`->`)."""
    files = {_file_as_listed(path) for path in paths}
    with open("/proc/locks", encoding="ascii") as locks:
        return sorted(" ".join(fields[1:4] + fields[6:]) for fields in (line.split() for line in locks)
                      if fields[1] != "->" and fields[4] == str(os.getpid()) and fields[5] in files)


def _file_as_listed(path: Path) -> str:
    """`path` as /proc/locks names a file: MAJOR:MINOR:INODE, the device's numbers in hexadecimal."""
    found = os.stat(path)
    return f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"


class HeldProject:
    """The project held open by one connection with writes in its log, as the app's window holds it."""

    def __init__(self, root: Path) -> None:
        self.root, self.database = root, root / "project.db"
        self.log, self.index = root / "project.db-wal", root / "project.db-shm"
        self.mark = owner_files.take(root / APP_OPEN_MARK, attempts=1)  # the window's mark, as it takes it
        self.project = open_project(root)
        self.project.set_status("1", "reviewed", ME)  # in the write-ahead log, not yet in project.db
        self.locks = _locks_held_on(self.database, self.index)
        self.log_file = self.log.stat().st_ino  # the log the connection writes to: never replaced, never deleted
        assert self.locks and self.log.stat().st_size > 0

    def keeps_its_locks_after(self, step: str) -> None:
        dropped = sorted(set(self.locks) - set(_locks_held_on(self.database, self.index)))
        assert not dropped, f"{step} dropped this process's locks {dropped}"
        subprocess.run([sys.executable, "-c", READ_AND_CLOSE, str(self.database)], check=True, timeout=120)
        assert self.log.exists(), f"after {step}, another process's read deleted the log under the open connection"
        assert self.log.stat().st_ino == self.log_file, f"{step} replaced the log the open connection writes to"
        self.project.set_status("1", "labelled" if self.project.page("1").status == "reviewed" else "reviewed", ME)

    def close(self) -> None:
        self.project.close()
        owner_files.release(self.mark)


def _linked(link: Path, target: Path) -> Path:
    link.symlink_to(target)
    return link


def _hard_linked(link: Path, target: Path) -> Path:
    """Another name of `target`'s file, in a folder of its own: nothing beside it says SQLite's."""
    link.parent.mkdir(exist_ok=True)
    os.link(target, link)
    return link


def _run_folder(folder: Path, pages: tuple[str, ...]) -> Path:
    """A run folder predicting the demo's own labels on `pages`."""
    folder.mkdir()
    for name in pages:
        (folder / f"{name}.json").write_bytes((DEMO / "gt" / f"{name}.json").read_bytes())
    return folder


def _propose(root: Path) -> None:
    """What the app's Propose job does: its own connection, the project's learnt model read, a page's proposals
    stored."""
    mark = mark_propose(root, ["2"])
    try:
        with open_project(root) as project:
            extractor = extract.create("selector", model=str(project_model_path(root)))
            extraction = extractor.extract(project.load("2").page)
            project.add_records("2", extraction.records[:1],
                                Provenance.extractor(extraction.method, extraction.version), status="proposed")
            assert model_freshness(project) is not None
    finally:
        if mark is not None:
            unmark_propose(mark, said=True)


def _import_in_the_app(root: Path, pages: Path) -> None:
    """What the app's page import job does: its own connection, the pages imported through it."""
    with open_project(root) as project:
        import_paths(project, [pages])


def _the_app_reads(root: Path) -> None:
    """What the app's window and its jobs read beside the CLI's commands: the model, a run's scores."""
    assert project_model(root)[0] is not None
    with open_project(root) as project:
        score_stored_run(project, 1)


@pytest.mark.skipif(not Path("/proc/locks").is_file(), reason="a process's locks are read from Linux's /proc/locks")
def test_no_command_drops_the_locks_of_the_project_this_process_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = demo_project(capsys, tmp_path / "p")
    truth = _run_folder(tmp_path / "truth", ("1", "2", "3", "4"))
    half = _run_folder(tmp_path / "half", ("1", "2"))
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "5.html").write_text("<html><body><ul><li>a</li><li>b</li></ul></body></html>",
                                               encoding="utf-8")
    held = HeldProject(root)
    p = str(root)

    def command(*argv: str, status: int = 0) -> Callable[[], None]:
        def call() -> None:
            code, out, err = run(capsys, *argv)
            assert code == status, (argv, out, err)
        return call

    steps: list[tuple[str, Callable[[], None]]] = [
        ("open_project", lambda: open_project(root).close()),
        ("open_to_read", lambda: open_to_read(root).close()),
        ("project init of it (refused)", command("project", "init", p, status=2)),
        ("runs --add", command("runs", "--project", p, "--add", str(truth), "--method", "truth")),
        ("runs --add (another)", command("runs", "--project", p, "--add", str(half), "--method", "half")),
        ("runs", command("runs", "--project", p)),
        ("score --project", command("score", "--project", p, "--run", "1", "-q")),
        ("runs --compare", command("runs", "--project", p, "--compare", "1", "2")),
        ("labels check", command("labels", "check", "--project", p)),
        ("export jsonl", command("export", "--project", p, "-f", "jsonl", "--out", str(tmp_path / "jsonl"), "-q")),
        ("export nexteval", command("export", "--project", p, "-f", "nexteval", "--out", str(tmp_path / "ne"),
                                    "-q")),
        ("project copy", command("project", "copy", p, str(tmp_path / "copy"))),
        ("import", command("import", str(tmp_path / "pages"), "--project", p, "-q")),
        ("the app's import", lambda: _import_in_the_app(root, tmp_path / "pages")),
        ("import --annotator", command("import", str(DEMO), "--project", p, "--annotator", "bob", "-q")),
        ("agreement", command("agreement", "--project", p, "--all")),
        ("annotators", command("annotators", "--project", p)),
        ("project remove-page", command("project", "remove-page", "--project", p, "5")),
        ("project restore-page", lambda: command("project", "restore-page", "--project", p,
                                                 str(next((root / "removed").glob("*-5.*.json"))))()),
        ("train --project", command("train", "--project", p, "-q", "--workers", "1")),
        ("the app's reads", lambda: _the_app_reads(root)),
        ("Propose", lambda: _propose(root)),
        ("forget the learnt model", lambda: forget_project_model(root)),
        ("synth --project", command("synth", "--project", p, "--out", str(tmp_path / "synth"), "-q",
                                                    status=1)),
        ("agent eval (agent data)", command("agent", "eval", "--project", p, status=2)),
        ("agent tasks report", command("agent", "tasks", "report", "--project", p)),
        ("runs --delete", command("runs", "--project", p, "--delete", "2")),
        # a mistyped output path naming the database's files: refused, never opened to be checked
        ("train --out project.db", command("train", "--project", p, "-q", "--out", str(held.database), status=2)),
        ("agent eval --chart project.db-shm", command("agent", "eval", "--project", p, "--chart", str(held.index),
                                                      status=2)),
        ("represent --out project.db-wal", command("represent", str(DEMO / "html" / "1.html"), "--out",
                                                   str(held.log), status=2)),
        # the same through a link whose own name says nothing of a database (a reviewer's finding)
        ("train --out a link to project.db", command("train", "--project", p, "-q", "--out",
                                                     str(_linked(tmp_path / "model.json", held.database)), status=2)),
        # the same through another name of the file itself (a hard link): judged by device and inode, not by name
        ("train --out a hard link to project.db", command("train", "--project", p, "-q", "--out",
                                                          str(_hard_linked(tmp_path / "other" / "x.db",
                                                                           held.database)), status=2)),
        ("represent --out a hard link to project.db-wal", command(
            "represent", str(DEMO / "html" / "1.html"), "--out", str(_hard_linked(tmp_path / "other" / "w",
                                                                                  held.log)), status=2)),
        # a file read as a page or a model is never one of them either, by its name or by another
        ("represent project.db", command("represent", str(held.database), status=2)),
        ("represent a hard link to project.db", command(
            "represent", str(_hard_linked(tmp_path / "other" / "6.html", held.database)), status=2)),
        ("the app's import of a hard link to project.db", lambda: _import_in_the_app(
            root, _hard_linked(tmp_path / "linked pages" / "6.html", held.database))),
        ("extract --model a hard link to project.db-shm", command(
            "extract", "--method", "selector", "--model", str(_hard_linked(tmp_path / "other" / "m.json", held.index)),
            "--pages", str(DEMO / "html"), "--out", str(tmp_path / "selector run"), "-q", status=2)),
    ]
    try:
        for name, step in steps:
            step()
            held.keeps_its_locks_after(name)
        assert held.project.page("1").status in ("labelled", "reviewed")
        final = held.project.page("1").status
    finally:
        held.close()
    check = sqlite3.connect(root / "project.db")
    try:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert check.execute("SELECT status FROM pages WHERE name = '1'").fetchone()[0] == final
    finally:
        check.close()


def test_a_database_in_use_and_the_files_beside_it_are_named_without_opening_them(tmp_path: Path) -> None:
    database = tmp_path / "project.db"
    connection = sqlite3.connect(database)
    try:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("CREATE TABLE t (x)")
        assert sqlite_file_in_use(database) == "a database in use (SQLite's project.db-wal is beside it)"
        assert sqlite_file_in_use(tmp_path / "project.db-wal") == "SQLite's write-ahead log of the database project.db"
        assert sqlite_file_in_use(tmp_path / "project.db-shm") == ("SQLite's shared-memory index of the database "
                                                                   "project.db")
        assert sqlite_file_in_use(tmp_path / "project.db-journal") == ("SQLite's rollback journal of the database "
                                                                       "project.db")
    finally:
        connection.close()
    assert sqlite_file_in_use(database) is None  # closed: its last connection took its files with it
    assert sqlite_file_in_use(tmp_path / "labels.json") is None
    assert sqlite_file_in_use(tmp_path / "-wal") is None


def test_another_name_of_a_file_of_a_database_this_process_has_open_is_told_by_its_inode(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hard link's name and folder say nothing of SQLite: its device and inode are those of the project's files."""
    root = demo_project(capsys, tmp_path / "p")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    held = HeldProject(root)
    try:
        database = _hard_linked(elsewhere / "x.db", held.database)
        log = _hard_linked(elsewhere / "page.html", held.log)
        assert sqlite_file_in_use(database) == (f"another name (a hard link) of {held.database}, a database in use "
                                                "(SQLite's project.db-wal is beside it)")
        assert sqlite_file_in_use(log) == (f"another name (a hard link) of {held.log}, SQLite's write-ahead log of "
                                           "the database project.db")
        with pytest.raises(DatabaseFile, match="another name .a hard link. of .*project.db-wal"):
            read_regular_file(log)
        assert run(capsys, "represent", str(log))[1:] == ("", (
            f"recordlens: error: Cannot read {log}: it is another name (a hard link) of {held.log}, SQLite's "
            "write-ahead log of the database project.db, not a saved page.\n"))
        assert sqlite_file_in_use(_linked(elsewhere / "link.db", database)) is not None  # a symbolic link to it too
        (elsewhere / "copy.db").write_bytes(b"not the database's file")
        assert sqlite_file_in_use(elsewhere / "copy.db") is None
        held.keeps_its_locks_after("asking")
    finally:
        held.close()
    assert sqlite_file_in_use(database) is None  # no longer open here: read or replaced without harm to any lock
