"""An episode's started_at was its first step's end (that step's `at`: when its action was carried out and the page
after it seen): a one-step episode of 1.5 s was stored with started_at = ended_at, a span of nothing. A trajectory now
carries when its episode began (`Trajectory.started_at`: an agent's before its start page opened; a recording's at
● Record), which its JSON keeps and the store stores; a file written before it was kept begins at its first step's
time less the seconds that step took. The fake model takes ANSWER_S over each answer."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Trajectory
from recordlens.core.cli.command import main
from tests.demo_agent import REFERENCES, SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

ANSWER_S = 0.5
KEY = "test-key-not-real-episode-start"
# How much later than its first prompt an episode in the text browser may have begun (its start page opened from
# disk), and how far two readings of the clock may part: generous, on a busy machine.
SLACK_S = 1.5


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def slow(body: dict) -> str:
    time.sleep(ANSWER_S)
    return respond(body)


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def stored(project: Path) -> list[tuple[str, str, list[tuple[str, float]]]]:
    """Each trajectory's (started_at, ended_at, [(step at, step seconds)]), in the order stored."""
    with sqlite3.connect(project / "project.db") as db:
        rows = db.execute("SELECT id, started_at, ended_at FROM trajectories ORDER BY id").fetchall()
        return [(started, ended, db.execute("SELECT at, seconds FROM steps WHERE trajectory_id = ? ORDER BY position",
                                            (row,)).fetchall())
                for row, started, ended in rows]


def test_a_one_step_episode_spans_the_seconds_of_its_step(tmp_path: Path) -> None:
    before = datetime.now(UTC)
    with FakeGemini(default=answer_with(slow)) as server:
        # An odd seed: the fake model answers at once, an episode of one step
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(TASKS_FILE), "--task", "lookup-2", "--runs", "1", "--seed", "1", "--browser", "text",
                     "--base-url", server.url]) == 0
    after = datetime.now(UTC)

    (started, ended, [(at, seconds)]), = stored(tmp_path / "p")
    assert seconds >= ANSWER_S and ended == at
    span = (moment(ended) - moment(started)).total_seconds()
    assert seconds - 0.01 <= span <= seconds + SLACK_S  # its step, and the opening of its start page before it
    assert before <= moment(started) <= moment(at) <= after


def test_each_episode_of_a_run_begins_before_its_first_step_and_after_the_one_before_it(tmp_path: Path) -> None:
    with FakeGemini(default=answer_with(slow)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(TASKS_FILE), "--task", "rules-1", "--task", "lookup-2", "--runs", "1", "--seed", "0",
                     "--browser", "text", "--base-url", server.url]) == 0

    episodes = stored(tmp_path / "p")
    assert len(episodes) == 2
    for started, ended, steps in episodes:
        span = (moment(ended) - moment(started)).total_seconds()
        total = sum(seconds for _, seconds in steps)
        assert total - 0.05 <= span <= total + SLACK_S
    (_, first_ended, _), (second_started, _, _) = episodes
    assert moment(first_ended) <= moment(second_started)


def test_a_trajectory_keeps_when_it_began_in_its_json() -> None:
    trajectory = replace(REFERENCES["lookup-2"], started_at="2025-03-04T10:00:00.250Z")
    again = Trajectory.from_json(trajectory.to_json())
    assert again.started_at == "2025-03-04T10:00:00.250Z" and again.began() == again.started_at
    assert again == trajectory


def test_a_file_that_does_not_say_when_it_began_begins_as_its_first_step_did() -> None:
    steps = [Step("wait", seconds=2.5, at="2025-03-04T10:00:04Z"), Step("wait", seconds=1.0, at="2025-03-04T10:00:05Z")]
    data = json.loads(Trajectory(task_id="t", actor="person:ana", steps=steps).to_json())
    assert "started_at" not in data  # not known: not written
    read = Trajectory.from_dict(data)
    assert read.started_at is None
    assert read.began() == "2025-03-04T10:00:01.500Z"  # the first step's time less its seconds, in its form
    zoned = Trajectory("t", "person", steps=[Step("wait", seconds=4.0, at="2025-03-04T10:00:04+01:00")])
    assert zoned.began() == "2025-03-04T10:00:00.000+01:00"
    assert Trajectory("t", "person", steps=[Step("wait", at="2025-03-04T10:00:04Z")]).began() == "2025-03-04T10:00:04Z"
    assert Trajectory("t", "person", steps=[Step("wait", seconds=3.0, at="yesterday")]).began() == "yesterday"
    assert Trajectory("t", "person", steps=[Step("wait", seconds=3.0)]).began() is None


@pytest.mark.parametrize("started_at", [None, "2025-03-04T09:59:00.000Z"])
def test_a_reference_from_a_folder_begins_when_its_recording_did(tmp_path: Path, started_at: str | None) -> None:
    reference = REFERENCES["lookup-2"]
    steps = [replace(step, seconds=4.0, at=f"2025-03-04T10:00:{4 * n:02d}.000Z")
             for n, step in enumerate(reference.steps, 1)]
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "lookup-2.json").write_text(
        replace(reference, steps=steps, actor="person:ana", started_at=started_at).to_json(), "utf-8")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(line + "\n" for line in TASKS_FILE.read_text("utf-8").splitlines()
                             if line and json.loads(line)["id"] == "lookup-2"), "utf-8")

    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(tasks), "--runs", "1", "--seed", "0", "--browser", "text", "--base-url", server.url,
                     "--references", str(folder)]) == 0

    (started, ended, _), _episode = stored(tmp_path / "p")
    assert started == (started_at or "2025-03-04T10:00:00.000Z")  # said, else its first step's time less its 4 s
    assert ended == steps[-1].at
