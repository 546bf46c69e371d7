"""One session of an agent run at a time: a second `agent run --resume N` started while one runs is refused at once,
naming the process that runs it, so the missing episodes are run (and paid for) once, stored once, and the run's
cost counts every session; a lock whose holder was killed is taken over, and said. Real processes (the resumes)
against the loopback fake of Gemini, on the demo site in core's text browser."""

from __future__ import annotations

import signal
import socket
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from recordlens.core.store.project import open_project
from tests.child_lines import LINE_TIMEOUT_S
from tests.demo_agent import agent_run, agent_run_child, respond
from tests.fake_gemini import FakeGemini, answer_with

KEY = "test-key-not-real-agent-lock"
# `recordlens agent run` in a child process (core's command line: the text browser needs no Qt)


class HeldAnswers:
    """The fake model's answers (`demo_agent.respond`), each held until the test lets them go (`go`): a session
    waiting for its first answer has begun its episodes, so it holds the run's lock. `asked` counts the model
    requests come in."""

    def __init__(self) -> None:
        self.asked = 0
        self.go = threading.Event()
        self._counting = threading.Lock()

    def __call__(self, body: dict) -> str:
        with self._counting:
            self.asked += 1
        self.go.wait(LINE_TIMEOUT_S * 4)
        return respond(body)

    def wait_for(self, count: int, *children: subprocess.Popen[str]) -> None:
        """Until `count` requests have come in; a child that ends first, or none within the limit, fails the test."""
        deadline = time.monotonic() + LINE_TIMEOUT_S * 2
        while self.asked < count:
            ended = [child for child in children if child.poll() is not None]
            if ended or time.monotonic() > deadline:
                self.go.set()
                said = [child.communicate(timeout=LINE_TIMEOUT_S) for child in children]
                raise AssertionError(f"{count} request(s) never came in (ended: {[c.pid for c in ended]}): {said}")
            time.sleep(0.05)


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def cut_run(project: Path, server: FakeGemini) -> int:
    """An agent run of the demo's three tasks, 2 runs, cut by its model budget: an incomplete run to resume; its id."""
    assert agent_run(project, server, "--max-requests", "3") == 3
    with open_project(project) as opened:
        return opened.agent.runs()[-1].id


def resume(project: Path, run_id: int, tmp_path: Path) -> subprocess.Popen[str]:
    """`agent run --resume RUN` in a child process, as the run's printed resume command gives it (the endpoint is the
    run's own)."""
    return agent_run_child(project, tmp_path, KEY, "--resume", str(run_id))


def generate_requests(server: FakeGemini) -> int:
    return sum(not r.path.endswith(":countTokens") for r in server.requests)


def stored_episodes(project: Path, run_id: int) -> dict[tuple[str, int], int]:
    """(task, run index) -> how many trajectories of it the run holds, as the project holds them."""
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT t.external_id, tr.run_index, COUNT(*) FROM trajectories tr JOIN tasks t "
                          "ON t.id = tr.task_id WHERE tr.agent_run_id = ? GROUP BY 1, 2", (run_id,)).fetchall()
    return {(task, run): count for task, run, count in rows}


def stored_since(before: dict[tuple[str, int], int], project: Path, run_id: int) -> list[int]:
    """How many trajectories of each of the run's 6 episodes (3 tasks, 2 runs) were stored since `before`."""
    after = stored_episodes(project, run_id)
    return sorted(after.get((task, run), 0) - before.get((task, run), 0)
                  for task in ("lookup-1", "lookup-2", "rules-1") for run in (0, 1))


# The cut run (`cut_run`) finished 1 episode of 6 (lookup-1 of run 0): a resume stores each of the 5 others once
RESUMED_ONCE = [0, 1, 1, 1, 1, 1]


def test_a_second_resume_while_one_runs_is_refused_naming_it_and_the_run_is_paid_and_stored_once(
        tmp_path: Path) -> None:
    project = tmp_path / "P"
    held = HeldAnswers()
    with FakeGemini(default=answer_with(respond)) as server:
        run_id = cut_run(project, server)
        before = stored_episodes(project, run_id)
        server.script(default=answer_with(held))
        first = resume(project, run_id, tmp_path)
        try:
            held.wait_for(1, first)  # the first resume is running its episodes
            second = resume(project, run_id, tmp_path)
            # refused at once, before a model request (without the lock it too would ask, and wait with the first)
            deadline = time.monotonic() + LINE_TIMEOUT_S * 2
            while second.poll() is None and held.asked < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            asked_while_both = held.asked
        finally:
            held.go.set()
        _, second_err = second.communicate(timeout=LINE_TIMEOUT_S * 4)
        first_out, first_err = first.communicate(timeout=LINE_TIMEOUT_S * 4)
        requests = generate_requests(server)

    assert asked_while_both == 1, second_err
    assert second.returncode == 2, second_err
    lock = project / ".running" / f"agent-run-{run_id}"
    assert second_err.strip().splitlines()[-1] == (
        f"recordlens: error: agent run {run_id} of {project} is being run by process {first.pid} on "
        f"{socket.gethostname()} right now ({lock}): wait for it to end (or stop it), then resume it if it did not "
        "finish; two sessions of one run at once would each run, and pay for, its missing episodes and store them "
        "twice")
    assert first.returncode == 0, first_err
    assert f"agent run {run_id}: " in first_out
    assert not lock.exists()  # released once the run ended

    # every episode once, and the run's cost counts both sessions: every request the endpoint answered
    assert stored_since(before, project, run_id) == RESUMED_ONCE
    with open_project(project) as opened:
        run = opened.agent.run(run_id)
    assert run.status == "finished"
    assert len(run.cost["sessions"]) == 2 and run.cost["requests"] == requests


def test_the_lock_of_a_killed_session_is_taken_over_and_said(tmp_path: Path) -> None:
    project = tmp_path / "P"
    held = HeldAnswers()
    with FakeGemini(default=answer_with(respond)) as server:
        run_id = cut_run(project, server)
        before = stored_episodes(project, run_id)
        server.script(default=answer_with(held))
        killed = resume(project, run_id, tmp_path)
        try:
            held.wait_for(1, killed)
            killed.send_signal(signal.SIGKILL)  # no clean-up: its lock file stays, naming it
            killed.communicate(timeout=LINE_TIMEOUT_S)
        finally:
            held.go.set()
        lock = project / ".running" / f"agent-run-{run_id}"
        assert lock.read_text(encoding="utf-8").split() == [socket.gethostname(), str(killed.pid)]

        server.script(default=answer_with(respond))
        again = resume(project, run_id, tmp_path)
        out, err = again.communicate(timeout=LINE_TIMEOUT_S * 4)

    assert again.returncode == 0, err
    assert (f"warning: a session of agent run {run_id} of {project} by process {killed.pid} ended without releasing "
            "its lock (it was killed); the lock is taken over") in err.splitlines()
    assert not lock.exists()
    assert stored_since(before, project, run_id) == RESUMED_ONCE
    assert f"agent run {run_id}: " in out
