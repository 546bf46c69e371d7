"""A project's database held open by this process as the app holds it, and the POSIX locks the kernel says this
process holds on a file: for the tests that a file given to a command (a hard link to that database, or the
database itself) is refused without being opened, which would drop those locks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store.db import connect


@pytest.fixture
def held_database(tmp_path: Path) -> Iterator[Path]:
    """A project's database held open by this process as the app holds it (WAL: locks on it and its -shm)."""
    folder = tmp_path / "held"
    folder.mkdir()
    database = connect(folder / "project.db")
    database.execute("CREATE TABLE t (x)")
    try:
        yield folder / "project.db"
    finally:
        database.close()


def locks_held_on(path: Path) -> list[str]:
    """The POSIX locks this process holds on the file at `path`, as Linux's /proc/locks lists them."""
    found = os.stat(path)
    listed = f"{os.major(found.st_dev):02x}:{os.minor(found.st_dev):02x}:{found.st_ino}"
    with open("/proc/locks", encoding="ascii") as locks:
        return sorted(" ".join(fields[1:4] + fields[6:]) for fields in (line.split() for line in locks)
                      if fields[1] != "->" and fields[4] == str(os.getpid()) and fields[5] == listed)
