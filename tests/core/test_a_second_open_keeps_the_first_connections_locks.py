"""A process that has a project open and opens it again (the app's window, then its Propose or Learn job; any
command that opens a project twice) keeps the locks its first connection holds on the database (a verifier's
finding). Opening a project read its schema version by opening `project.db` as a plain file and closing it, and
closing any descriptor of a file drops every POSIX lock the process holds on it, SQLite's own included. Another
process's command then took the project for unused and, as it closed, deleted the write-ahead log under the open
connection: the app's later writes went to a deleted file, unseen by any other process and lost at a kill, and a
command's writes meanwhile corrupted the database ("database disk image is malformed"). Real SQLite files, and a
second process that reads and closes as any `recordlens` command does."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from recordlens.core.store import Provenance, import_paths, init_project, open_project

PAGE = "<html><body><ul><li>One</li><li>Two</li></ul></body></html>"

# What any command's connection does to a project it reads: open, read, close (the last to close deletes the log)
READ_AND_CLOSE = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT name, status FROM pages ORDER BY name").fetchall()
db.close()
print(rows)
"""


def _locks_held_on(path: Path) -> list[str]:
    """The POSIX locks this process holds on `path`, as Linux lists them: by device and inode (an inode number
    alone is another file's on another file system), the locks held, not those waited for (`->`)."""
    found = os.stat(path)
    listed = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
    with open("/proc/locks", encoding="ascii") as locks:
        return sorted(" ".join(fields[1:4] + fields[6:]) for fields in (line.split() for line in locks)
                      if fields[1] != "->" and fields[4] == str(os.getpid()) and fields[5] == listed)


def _read_elsewhere(database: Path) -> str:
    return subprocess.run([sys.executable, "-c", READ_AND_CLOSE, str(database)], capture_output=True, text=True,
                          check=True, timeout=120).stdout.strip()


def test_a_project_opened_again_keeps_the_first_connections_log_and_writes(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text(PAGE, encoding="utf-8")
    with init_project(tmp_path / "p") as made:
        import_paths(made, [tmp_path / "pages"])
    database = tmp_path / "p" / "project.db"
    me = Provenance.person("me")
    with open_project(tmp_path / "p") as app:
        app.set_status("1", "labelled", me)
        held = _locks_held_on(database)
        assert held  # (the open connection's shared lock, which tells others the project is in use)
        open_project(tmp_path / "p").close()  # the window's job opens the project too, and closes it
        assert _locks_held_on(database) == held
        _read_elsewhere(database)  # a command reads the project meanwhile, and closes
        assert (tmp_path / "p" / "project.db-wal").exists()  # the log the open connection writes to: not deleted
        app.set_status("1", "reviewed", me)
        assert "'reviewed'" in _read_elsewhere(database)  # what the window writes, every other process sees
    check = sqlite3.connect(database)
    try:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert check.execute("SELECT status FROM pages WHERE name = '1'").fetchone()[0] == "reviewed"
    finally:
        check.close()
