"""A run a process carries out page by page (the app's Propose session: `Runs.start`) reads as running while its
process lives, and as interrupted once that process is gone, however it ended (here SIGKILL): never "running" for
ever. The owner is a real child process that writes the run as the Propose session does."""

from __future__ import annotations

import errno
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.cli.command import main
from recordlens.core.store import runs as runs_module
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import init_project, open_project
from recordlens.core.store.runs import INTERRUPTED, RUNNING_MARKS
from tests.child_lines import first_line
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

# The child: a run started as the Propose session starts one, its cost kept after a page, then it waits to be killed.
CHILD = textwrap.dedent("""
    import sys, time
    from recordlens.core.store.project import open_project
    with open_project(sys.argv[1]) as project:
        run_id = project.runs.start("gemini", {"made_in": "the app's Propose"})
        project.runs.add_predictions(run_id, {"1": [["/html[1]/body[1]"]]})
        project.runs.keep_cost(run_id, {"pages": 1, "page_costs": {"1": {"status": "done"}}})
        print(run_id, flush=True)
        time.sleep(600)
""")


@pytest.fixture
def project_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    with init_project(folder) as project:
        data = b"<html><body><div>a</div></body></html>"
        project.add_page("1", store_snapshot(project.root, data, ".html"), ".html", len(data))
    return folder


def start_owner(folder: Path) -> tuple[subprocess.Popen[str], int]:
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    line = first_line(child)  # waits until the run is committed, marked
    assert line.strip().isdigit(), (line, child.stderr.read() if child.stderr else "")
    return child, int(line)


def outcome(folder: Path, run_id: int) -> str:
    with open_project(folder) as project:
        return project.runs.get(run_id).outcome


def test_a_run_whose_process_is_killed_reads_as_interrupted_in_the_store_and_in_runs(project_folder, capsys):
    child, run_id = start_owner(project_folder)
    try:
        assert outcome(project_folder, run_id) == "running"  # its process lives: it is running
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 30  # the system frees a dead process's lock at once; generous all the same
    while outcome(project_folder, run_id) != INTERRUPTED and time.monotonic() < deadline:
        time.sleep(0.1)
    with open_project(project_folder) as project:
        run = project.runs.get(run_id)
        assert (run.status, run.outcome) == ("running", INTERRUPTED)  # what it kept stays: its page, its cost
        assert project.runs.predictions(run_id) == {"1": [["/html[1]/body[1]"]]} and run.cost["pages"] == 1
    capsys.readouterr()
    assert main(["runs", "--project", str(project_folder)]) == 0
    table = capsys.readouterr().out.splitlines()
    row = next(line for line in table if line.split()[:1] == [str(run_id)])
    assert f" {INTERRUPTED} " in row and len(row) <= 80, row  # the table keeps to 80 columns
    assert f"(run {run_id} was interrupted: the process running it ended before it finished" in "\n".join(table)
    assert main(["runs", "--project", str(project_folder), "--json"]) == 0
    assert [(r["status"], r["stored_status"]) for r in json.loads(capsys.readouterr().out)] == [
        (INTERRUPTED, "running")]


def test_a_run_of_this_process_reads_as_running_until_it_finishes_and_leaves_no_mark_held(project_folder):
    with open_project(project_folder) as project, open_project(project_folder) as elsewhere:
        run_id = project.runs.start("gemini")
        assert project.runs.get(run_id).outcome == "running"
        assert elsewhere.runs.get(run_id).outcome == "running"  # another connection of a live owner
        project.runs.finish(run_id, status="cancelled")
        assert elsewhere.runs.get(run_id).outcome == "cancelled"
        project.runs.finish(run_id, status="cancelled")  # finished again (a late answer): its mark is gone already
    assert not any((project_folder / RUNNING_MARKS).iterdir())  # released: the file is removed with the lock


def test_a_running_run_that_no_process_ever_marked_reads_as_interrupted(project_folder):
    # made before runs had marks (or added by a process that never finished it): nobody will end it
    with open_project(project_folder) as project:
        run_id = project.runs.add("gemini")
        assert project.runs.get(run_id).outcome == INTERRUPTED
        project.runs.finish(run_id)
        assert project.runs.get(run_id).outcome == "finished"


def test_a_project_where_no_mark_can_be_made_still_runs_unmarked_with_a_warning(project_folder, caplog):
    (project_folder / RUNNING_MARKS).write_text("not a folder")  # `.running/` cannot be made
    with open_project(project_folder) as project, open_project(project_folder) as elsewhere:
        with caplog.at_level(logging.WARNING, logger="recordlens.core.store.runs"):
            run_id = project.runs.start("gemini")
        assert f"run {run_id} of {project_folder}" in caplog.text and "without its owner mark" in caplog.text
        # its own process knows it runs: never "interrupted" to it while it does
        assert project.runs.get(run_id).outcome == "running" == elsewhere.runs.get(run_id).outcome
        project.runs.finish(run_id)
        assert elsewhere.runs.get(run_id).outcome == "finished"
    assert (project_folder / RUNNING_MARKS).read_text() == "not a folder"


def test_a_file_system_without_locks_runs_unmarked_named_by_its_line(project_folder, monkeypatch, caplog):
    def no_locks(fd: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(owner_files.fcntl, "flock", no_locks)
    with open_project(project_folder) as project:
        with caplog.at_level(logging.WARNING, logger="recordlens.core.store.runs"):
            run_id = project.runs.start("gemini")
        assert "without its owner mark" in caplog.text
        assert project.runs.get(run_id).outcome == "running"
        mark = project_folder / RUNNING_MARKS / f"run-{run_id}"
        # another process, which cannot lock it either, reads the live process its line names
        assert owner_files.holder(mark) == (socket.gethostname(), os.getpid())
        project.runs.finish(run_id)
        assert not mark.exists() and project.runs.get(run_id).outcome == "finished"


def test_a_run_that_finishes_between_its_read_and_its_marks_reads_as_finished(project_folder, monkeypatch):
    # the owner commits the run's end and releases its mark after the reader read "running", before it looks at
    # the mark: the reader finds the mark gone, and must not say "interrupted"
    with open_project(project_folder) as owner, open_project(project_folder) as reader:
        run_id = owner.runs.add("gemini")  # (a mark this process does not hold: looked at as another's)
        looked = owner_files.holder

        def finished_meanwhile(path: Path):
            monkeypatch.setattr(runs_module.owner_files, "holder", looked)  # once (`finish` reads the run too)
            owner.runs.finish(run_id, cost={"pages": 1})
            return looked(path)

        monkeypatch.setattr(runs_module.owner_files, "holder", finished_meanwhile)
        run = reader.runs.get(run_id)
        assert (run.status, run.outcome, run.cost) == ("finished", "finished", {"pages": 1})
        second = owner.runs.add("gemini")
        monkeypatch.setattr(runs_module.owner_files, "holder", finished_meanwhile)
        run_id = second
        assert [r.outcome for r in reader.runs.all()] == ["finished", "finished"]


def test_a_child_that_never_prints_fails_the_test_at_its_deadline_instead_of_hanging_it():
    child = subprocess.Popen([sys.executable, "-c", "import sys, time; sys.stderr.write('stuck'); time.sleep(600)"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    with pytest.raises(AssertionError, match="no line within 1 s.*stuck"):
        first_line(child, timeout_s=1)
    assert time.monotonic() - started < 60 and child.returncode == -signal.SIGKILL  # killed, not left running
