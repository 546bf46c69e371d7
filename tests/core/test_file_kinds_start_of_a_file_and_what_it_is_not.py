"""The guarded reader of a user's file (`file_kinds`) reads only the start of a file where that is all that is
needed (`read_start`: `inspect` asks whether a file it was given begins as a selector model does, and read the
whole file for 64 bytes), and opens one for streaming (`open_regular_file`) with the same checks; what a file that
is not read is not says its noun with the article it takes ("a folder, not an accessibility tree", not "not a
accessibility tree"); and a selector model that is a hard link to a file of a project's open database is refused as
every other reader refuses such a file, "…, not a selector model"."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.file_kinds import (
    DatabaseFile,
    NotRegularFile,
    not_a_file,
    open_regular_file,
    read_regular_file,
    read_start,
    unreadable_kind,
)
from tests.core.held_database import locks_held_on

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/proc/locks").is_file(),
                                 reason="FIFOs as on POSIX, locks read from Linux's /proc/locks"),
              pytest.mark.timeout(300)]  # a blocking read of a FIFO would wait for ever


def test_the_start_of_a_file_is_read_and_no_more(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_bytes(bytes(range(200)))
    assert read_start(path, 64) == bytes(range(64))
    assert read_start(path, 1000) == bytes(range(200))  # a shorter file whole
    with open_regular_file(path) as stream:
        assert stream.read(3) == b"\x00\x01\x02"


def test_the_start_of_what_is_no_regular_file_is_refused_without_waiting(tmp_path: Path,
                                                                        held_database: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for read in (lambda path: read_start(path, 64), open_regular_file):
        with pytest.raises(NotRegularFile, match="a FIFO"):
            read(fifo)
    link = tmp_path / "linked.json"
    os.link(held_database, link)
    locks = locks_held_on(held_database)
    for read in (lambda path: read_start(path, 64), open_regular_file):
        with pytest.raises(DatabaseFile, match="another name"):
            read(link)
    assert locks and locks_held_on(held_database) == locks  # never opened


def test_inspect_asks_only_the_start_of_a_large_file_whether_it_is_a_model(tmp_path: Path) -> None:
    """`_begins_as_a_model` in a process that may not take more memory than a gigabyte: a file of 4 GB (sparse,
    taking no room on the disk) read whole for its first 64 bytes would not fit."""
    large = tmp_path / "large.json"
    with large.open("wb") as stream:
        stream.truncate(4 * 2**30)
    code = """
        import resource
        import sys
        from pathlib import Path
        from recordlens.core.cli.pages import _begins_as_a_model
        with open("/proc/self/status", encoding="ascii") as status:
            size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
        resource.setrlimit(resource.RLIMIT_AS, (size + 2**30, resource.RLIM_INFINITY))
        print(_begins_as_a_model(Path(sys.argv[1])))
    """
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), str(large)], cwd=ROOT, capture_output=True,
                          text=True, timeout=CHILD_SECONDS, check=False)
    assert (done.returncode, done.stdout) == (0, "False\n"), done.stderr


def test_what_a_file_is_not_takes_the_article_its_noun_does(tmp_path: Path, held_database: Path) -> None:
    folder = tmp_path / "tree.json"
    folder.mkdir()
    with pytest.raises(OSError) as raised:
        read_regular_file(folder)
    assert unreadable_kind(folder, raised.value, "accessibility tree") == "a folder, not an accessibility tree"
    assert unreadable_kind(folder, raised.value, "tasks file") == "a folder, not a tasks file"
    assert not_a_file(folder, "index file") == "a folder, not an index file"
    link = tmp_path / "linked.json"
    os.link(held_database, link)
    with pytest.raises(OSError) as raised:
        read_regular_file(link)
    assert unreadable_kind(link, raised.value, "accessibility tree") == (
        f"another name (a hard link) of {held_database}, a database in use (SQLite's project.db-wal is beside it), "
        "not an accessibility tree")


def test_a_hard_link_to_an_open_project_database_given_as_a_model_is_no_selector_model(tmp_path: Path,
                                                                                     held_database: Path) -> None:
    model = tmp_path / "model.json"
    os.link(held_database, model)
    locks = locks_held_on(held_database)
    with pytest.raises(ModelError) as refused:
        SelectorModel.load(model)
    assert str(refused.value) == (f"{model}: cannot read the model (another name (a hard link) of {held_database}, a "
                                  "database in use (SQLite's project.db-wal is beside it), not a selector model)")
    assert locks and locks_held_on(held_database) == locks  # never opened
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(ModelError) as refused:
        SelectorModel.load(folder)
    assert str(refused.value) == f"{folder}: cannot read the model (a folder, not a selector model)"
