"""A tasks file (`load_tasks`) and a labels or records file (`load_records`: the labels an import reads, the
predictions and ground truth `score` reads) are read through the one guarded reader (`file_kinds.read_regular_file`),
as a page file is. A FIFO given as one is said at once, never waited on (a read of it waited for a writer for ever);
a folder is said as a folder; and a file of a database this process has open (the project's `project.db` under
another name, a hard link) is refused by its name alone, never opened: closing it would drop this process's
SQLite locks on the project, and another process's command would then delete its write-ahead log under the open
connection."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.agent.tasks import TaskFileError, load_tasks
from recordlens.core.errors import DatasetError
from recordlens.core.records.model import load_records
from tests.core.cli_runs import DEMO, run
from tests.core.held_database import locks_held_on

ROOT = Path(__file__).resolve().parents[2]
CHILD_SECONDS = 120  # a child that reads a FIFO waits for ever: this long is "for ever" on a busy machine

pytestmark = pytest.mark.timeout(300)


def _read_in_a_child(call: str, path: Path) -> str:
    """What `call(path)` raised, run by another Python process (a blocking read of a FIFO would hang this one)."""
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from recordlens.core.agent.tasks import load_tasks
        from recordlens.core.records.model import load_records
        try:
            {call}(Path(sys.argv[1]))
        except Exception as error:
            print(f"{{type(error).__name__}}: {{error}}")
        else:
            print("read")
    """)
    done = subprocess.run([sys.executable, "-c", code, str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=CHILD_SECONDS, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _hard_link(database: Path, link: Path) -> Path:
    """Another name of the database's file, in a folder of its own: nothing beside it says SQLite's."""
    link.parent.mkdir(parents=True, exist_ok=True)
    os.link(database, link)
    return link


needs_fifos = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
needs_proc_locks = pytest.mark.skipif(not Path("/proc/locks").is_file(), reason="locks read from Linux's /proc/locks")


# -- the tasks file -------------------------------------------------------------------------------------------------

@needs_fifos
def test_a_fifo_given_as_the_tasks_file_is_said_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "tasks.jsonl"
    os.mkfifo(fifo)
    assert _read_in_a_child("load_tasks", fifo) == (
        f"TaskFileError: cannot read the tasks file {fifo}: a FIFO (named pipe), not a regular file")


def test_a_folder_given_as_the_tasks_file_is_said_as_a_folder(tmp_path: Path) -> None:
    (tmp_path / "tasks.jsonl").mkdir()
    with pytest.raises(TaskFileError) as caught:
        load_tasks(tmp_path / "tasks.jsonl")
    assert str(caught.value) == f"cannot read the tasks file {tmp_path / 'tasks.jsonl'}: a folder, not a tasks file"


def test_a_tasks_file_linked_to_nothing_says_where_it_points(tmp_path: Path) -> None:
    (tmp_path / "tasks.jsonl").symlink_to(tmp_path / "moved.jsonl")
    with pytest.raises(TaskFileError, match="tasks.jsonl: a symbolic link to a file that does not exist "):
        load_tasks(tmp_path / "tasks.jsonl")


def test_a_hard_link_to_the_open_project_database_is_refused_as_the_tasks_file(
        held_database: Path, tmp_path: Path) -> None:
    link = _hard_link(held_database, tmp_path / "elsewhere" / "tasks.jsonl")
    locks = locks_held_on(held_database) if Path("/proc/locks").is_file() else []
    with pytest.raises(TaskFileError) as caught:
        load_tasks(link)
    assert str(caught.value) == (f"cannot read the tasks file {link}: another name (a hard link) of {held_database}, "
                                 "a database in use (SQLite's project.db-wal is beside it), not a tasks file")
    if Path("/proc/locks").is_file():
        assert locks and locks_held_on(held_database) == locks  # never opened: no lock dropped


def test_the_project_database_itself_is_refused_as_the_tasks_file(held_database: Path) -> None:
    with pytest.raises(TaskFileError, match=r"a database in use \(SQLite's project.db-wal is beside it\), not a "
                                            "tasks file"):
        load_tasks(held_database)


# -- a labels or records file ---------------------------------------------------------------------------------------

@needs_fifos
def test_a_fifo_given_as_a_records_file_is_said_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "2.json"
    os.mkfifo(fifo)
    assert _read_in_a_child("load_records", fifo) == f"DatasetError: {fifo}: a FIFO (named pipe), not a regular file"


def test_a_folder_given_as_a_records_file_is_said_as_a_folder(tmp_path: Path) -> None:
    (tmp_path / "2.json").mkdir()
    with pytest.raises(DatasetError) as caught:
        load_records(tmp_path / "2.json")
    assert str(caught.value) == f"{tmp_path / '2.json'}: a folder, not a records file"


def test_a_hard_link_to_the_open_project_database_is_refused_as_a_records_file(
        held_database: Path, tmp_path: Path) -> None:
    link = _hard_link(held_database, tmp_path / "gt" / "2.json")
    locks = locks_held_on(held_database) if Path("/proc/locks").is_file() else []
    with pytest.raises(DatasetError) as caught:
        load_records(link)
    assert str(caught.value) == (f"{link}: another name (a hard link) of {held_database}, a database in use "
                                 "(SQLite's project.db-wal is beside it), not a records file")
    if Path("/proc/locks").is_file():
        assert locks and locks_held_on(held_database) == locks


@needs_proc_locks
def test_import_and_score_leave_out_a_page_whose_labels_are_a_hard_link_to_the_open_database(
        held_database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands say it per page, as any labels file that cannot be read, and keep the open project's locks."""
    data = tmp_path / "data"
    (data / "gt").mkdir(parents=True)
    (data / "html").symlink_to(DEMO / "html")
    for name in ("1", "3", "4"):
        (data / "gt" / f"{name}.json").write_bytes((DEMO / "gt" / f"{name}.json").read_bytes())
    os.link(held_database, data / "gt" / "2.json")
    locks = locks_held_on(held_database)
    said = (f"{data / 'gt' / '2.json'}: another name (a hard link) of {held_database}, a database in use (SQLite's "
            "project.db-wal is beside it), not a records file")

    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    code, _, err = run(capsys, "import", str(data), "--project", str(tmp_path / "p"), "-q")
    assert code == 1 and said in err and "page 2 not imported" in err
    code, out, _ = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(data / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert code == 1 and said in out
    assert locks_held_on(held_database) == locks
