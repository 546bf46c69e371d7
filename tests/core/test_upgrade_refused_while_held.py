"""A project of an earlier schema is not brought up to date while another process has it open (an earlier
RecordLens's app window, a Propose session or an import of it, a training of its model: the marks `owner_files`
locks): the upgrade is refused, naming the process, and nothing of it is done (no database kept in removed/, the
schema as it was). Once that process has ended, the project is brought up to date as usual. The upgrade's message
says that an earlier RecordLens still holding the project (one of those that left no mark) must be closed."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, open_project, take_upgrades
from recordlens.core.store import project as project_module
from recordlens.core.store.learnt_model import TRAINING_LOCK
from recordlens.core.store.project import APP_OPEN_MARK
from recordlens.core.store.runs import RUNNING_MARKS
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.child_lines import first_line
from tests.core.cli_runs import run
from tests.core.old_projects import a_version_3_project, version_of

# A process that holds the lock at argv[1] (as an earlier RecordLens's window or run holds its mark) until its
# stdin closes
HOLDER = """
import sys
from pathlib import Path
from recordlens.core import owner_files
path = Path(sys.argv[1])
path.parent.mkdir(parents=True, exist_ok=True)
lock = owner_files.take(path)
print("held", flush=True)
sys.stdin.read()
owner_files.release(lock)
"""


@contextmanager
def held_by_another_process(path: Path) -> Iterator[subprocess.Popen[str]]:
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first_line(child) == "held\n", child.communicate(timeout=60)
        yield child
    finally:
        child.communicate(timeout=60)


def left_as_it_was(old: Path) -> bool:
    return version_of(old / "project.db") == 3 and not (old / "removed").exists() and take_upgrades() == []


@pytest.mark.parametrize("mark", [Path(APP_OPEN_MARK), Path(RUNNING_MARKS) / "run-4", Path(RUNNING_MARKS) / "import-ab",
                                  TRAINING_LOCK])
def test_an_earlier_project_another_process_holds_is_not_upgraded_and_the_process_is_named(
        tmp_path: Path, mark: Path) -> None:
    old = a_version_3_project(tmp_path / "old")
    with held_by_another_process(old / mark) as holder:
        with pytest.raises(StoreError) as refused:
            open_project(old)
        said = str(refused.value)
        assert f"process {holder.pid} on {socket.gethostname()}" in said and str(old / mark) in said
        assert "close it first" in said and "nothing was changed" in said
        assert left_as_it_was(old)
    with open_project(old) as project:  # that process ended: brought up to date as before
        assert project.schema_version() == SCHEMA_VERSION
    assert [upgrade.found for upgrade in take_upgrades()] == [3]


def test_a_command_that_writes_refuses_it_in_those_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = a_version_3_project(tmp_path / "old")
    with held_by_another_process(old / APP_OPEN_MARK) as holder:
        code, _, err = run(capsys, "project", "remove-page", "7", "--project", str(old))
    assert code == 2 and f"process {holder.pid}" in err and "close it first" in err
    assert "project brought up" not in err
    assert left_as_it_was(old)


def test_a_window_opened_while_the_upgrade_runs_undoes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An earlier RecordLens that opens the project while it is migrated (it read the schema before the migration
    committed) is met before the commit: the migration is rolled back and the database kept is removed."""
    old = a_version_3_project(tmp_path / "old")
    migrate = project_module.migrate
    holders: list[subprocess.Popen[str]] = []
    with ExitStack() as stack:
        def meanwhile(conn: sqlite3.Connection) -> int:
            found = migrate(conn)
            holders.append(stack.enter_context(held_by_another_process(old / APP_OPEN_MARK)))
            return found

        monkeypatch.setattr(project_module, "migrate", meanwhile)
        with pytest.raises(StoreError) as refused:
            open_project(old)
        assert f"process {holders[0].pid}" in str(refused.value) and "close it first" in str(refused.value)
        assert left_as_it_was(old)


def test_the_upgrade_says_an_earlier_recordlens_that_has_it_open_must_be_closed(tmp_path: Path) -> None:
    """RecordLens versions before the app's window mark left nothing to tell that they have a project open: the
    upgrade's message says to close one."""
    old = a_version_3_project(tmp_path / "old")
    open_project(old).close()
    (upgrade,) = take_upgrades()
    assert ("an earlier RecordLens that has it open still (a window, or a command begun before) must be closed now"
            in upgrade.message())
