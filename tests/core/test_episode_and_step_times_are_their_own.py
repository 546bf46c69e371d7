"""Each step of an agent episode is stored with the moment it was taken, and the episode's started_at and ended_at are
when it began (before its first step: test_an_episode_begins_before_its_first_step_ends) and its last step's: `agent
run` stored every step with one `at`, the moment the episode was stored, and the episode with started_at = ended_at,
though each step's `seconds` was right. A reference stored from `agent run --references DIR` ends when its recording
ended (its last step's time, from the file), not when it was imported. An episode cut by a kill (SIGKILL) keeps its
steps' times through a resume, which runs it again beside it. The fake model takes ANSWER_S over each answer, so
that the times are apart."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from recordlens.core.agent.loop import INTERRUPTED
from recordlens.core.cli.command import main
from tests.child_lines import LINE_TIMEOUT_S
from tests.demo_agent import (
    REFERENCES,
    SITE_DIR,
    TASKS_FILE,
    agent_run_child,
    agent_run_killed_at_held_request,
    respond,
)
from tests.fake_gemini import FakeGemini, answer_with

ANSWER_S = 0.3  # the fake model's time over each answer
KEY = "test-key-not-real-step-times"


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def slow(body: dict) -> str:
    """`demo_agent.respond`, ANSWER_S after the request came."""
    time.sleep(ANSWER_S)
    return respond(body)


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def stored_times(project: Path) -> list[tuple[int, str, str, str | None, list[tuple[str, float]]]]:
    """Each trajectory's (row id, task, started_at, ended_at, [(step at, step seconds)]), in the order stored."""
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT tr.id, t.external_id, tr.started_at, tr.ended_at FROM trajectories tr "
                          "JOIN tasks t ON t.id = tr.task_id ORDER BY tr.id").fetchall()
        return [(row, task, started, ended,
                 db.execute("SELECT at, seconds FROM steps WHERE trajectory_id = ? ORDER BY position",
                            (row,)).fetchall())
                for row, task, started, ended in rows]


def assert_spans_its_steps(started: str, ended: str, steps: list[tuple[str, float]]) -> None:
    """Each step at its own time, as far after the one before as it took (give or take the clock's reading of it);
    the episode from when it began, before its first step took its seconds (its start page opened), to its last
    step's time."""
    times = [moment(at) for at, _ in steps]
    for before, (after, seconds) in zip(times, steps[1:], strict=False):
        assert abs((moment(after) - before).total_seconds() - seconds) < 0.2
    assert all(seconds >= ANSWER_S for _, seconds in steps)
    assert ended == steps[-1][0]
    assert steps[0][1] - 0.01 <= (times[0] - moment(started)).total_seconds() <= steps[0][1] + 1.5


def test_each_step_of_an_episode_is_stored_at_its_own_time_and_the_episode_spans_them(tmp_path: Path) -> None:
    with FakeGemini(default=answer_with(slow)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(TASKS_FILE), "--task", "lookup-2", "--runs", "1", "--seed", "0", "--browser", "text",
                     "--base-url", server.url]) == 0

    (_, _, started, ended, steps), = stored_times(tmp_path / "p")
    assert len(steps) == 3 and len({at for at, _ in steps}) == 3
    assert_spans_its_steps(started, ended, steps)
    assert (moment(ended) - moment(started)).total_seconds() >= 2 * ANSWER_S


def test_a_reference_from_a_folder_keeps_its_recordings_start_and_end(tmp_path: Path) -> None:
    recorded = datetime(2025, 3, 4, 10, 0, 0, tzinfo=datetime.now().astimezone().tzinfo)
    reference = REFERENCES["lookup-2"]
    steps = [replace(step, seconds=4.0, at=(recorded + timedelta(seconds=4 * n)).isoformat(timespec="seconds"))
             for n, step in enumerate(reference.steps, 1)]
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "lookup-2.json").write_text(replace(reference, steps=steps, actor="person:ana").to_json(), "utf-8")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(line + "\n" for line in TASKS_FILE.read_text("utf-8").splitlines()
                             if line and json.loads(line)["id"] == "lookup-2"), "utf-8")

    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(tasks), "--runs", "1", "--seed", "0", "--browser", "text", "--base-url", server.url,
                     "--references", str(folder)]) == 0

    (_, _, started, ended, stored), _episode = stored_times(tmp_path / "p")
    assert [at for at, _ in stored] == [step.at for step in steps]  # each step's time as the file says it
    assert ended == steps[-1].at  # the answer's time, not the import's
    assert moment(started) == moment(steps[0].at) - timedelta(seconds=4.0)  # a file that does not say when it began


def waits(body: dict) -> str:
    """Wait, ANSWER_S after the request came: the page may change."""
    time.sleep(ANSWER_S)
    return "Thought: the page may change.\nAction: Wait"


def test_an_episode_cut_by_a_kill_keeps_its_steps_times_through_a_resume(tmp_path: Path) -> None:
    project = tmp_path / "P"
    # killed with its first three steps stored, each as it was done
    with agent_run_killed_at_held_request(project, tmp_path, KEY, "--task", "lookup-1", "--runs", "1",
                                          "--step-budget", "5", held=4, answer=waits):
        (row, _, started, ended, steps), = cut = stored_times(project)
        assert len(steps) == 3
        assert_spans_its_steps(started, ended, steps)

        again = agent_run_child(project, tmp_path, KEY, "--resume", "1")
        _, err = again.communicate(timeout=LINE_TIMEOUT_S * 4)
    assert again.returncode == 0, err

    kept, rerun = stored_times(project)
    assert kept == cut[0]  # the cut episode as the kill left it: its steps' times, its start and end
    with sqlite3.connect(project / "project.db") as db:
        assert db.execute("SELECT stop FROM trajectories WHERE id = ?", (row,)).fetchone() == (INTERRUPTED,)
    _, _, started, ended, steps = rerun
    assert len(steps) == 5 and moment(started) > moment(kept[3])
    assert_spans_its_steps(started, ended, steps)
