"""One form of "now" for the whole project (`core.moments`): the store, an agent's episode and a person's recording
write UTC to the millisecond ending in `Z` (a recording wrote `+00:00`: tests/app/test_a_recording_writes_the_stores_
moments.py). A trajectory written before, with `+00:00`, still loads, is stored, and orders by its time beside new
ones."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from recordlens.core import moments
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.llm.gemini import Answer
from recordlens.core.moments import now, stamp, stored_moment
from recordlens.core.resource_files import resource_path
from recordlens.core.store import db
from recordlens.core.store.project import init_project

STORE_FORM = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
SITE = resource_path("agent", "demo-site")
TASK = Task(id="t", instruction="Where is the conference?", answer="Harbour", normalise=("case",),
            start_url="https://papers.example.org/")
OLD_RECORDING = {  # as the recorder wrote it before: `+00:00`, ten minutes before NEW_MOMENT
    "task": "t", "actor": "person:ana", "answer": "Harbour", "started_at": "2025-03-04T09:50:00.250+00:00",
    "steps": [{"action": "answer", "value": "Harbour", "seconds": 4.5, "at": "2025-03-04T09:50:04.750+00:00"}]}
NEW_MOMENT = datetime(2025, 3, 4, 10, 0, 0, 125_000, tzinfo=UTC)


class Answers:
    """The model: ANSWER at once."""

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text="Action: ANSWER; Harbour", usage={}, attempts=1, seconds=0.0, finish_reason="STOP")


def test_now_is_utc_to_the_millisecond_ending_in_z_and_the_store_keeps_its_names() -> None:
    assert STORE_FORM.fullmatch(now())
    assert db.now is moments.now and db.stamp is moments.stamp  # the store's modules import them from db
    assert stamp(datetime(2025, 3, 4, 11, 0, tzinfo=timezone(timedelta(hours=1)))) == "2025-03-04T10:00:00.000Z"
    assert stamp(datetime(2025, 3, 4, 10, 0)) == "2025-03-04T10:00:00.000Z"  # no zone: UTC


def test_an_agent_episode_says_its_times_in_the_stores_form() -> None:
    trajectory = run_episode(TASK, HtmlSiteBrowser(load_site(SITE)), Answers(), AgentSettings(step_budget=2))
    assert [STORE_FORM.fullmatch(at) is not None for at in [trajectory.started_at, *(s.at for s in trajectory.steps)]] \
        == [True, True]


def test_a_stored_moment_is_read_in_either_form_and_none_when_it_is_no_time() -> None:
    assert stored_moment("2025-03-04T10:00:00.125Z") == stored_moment("2025-03-04T10:00:00.125+00:00") == NEW_MOMENT
    assert stored_moment("2025-03-04T11:00:00.125+01:00") == NEW_MOMENT
    assert stored_moment("2025-03-04T10:00:00.125") == NEW_MOMENT  # no zone: UTC
    assert stored_moment("yesterday") is None and stored_moment("") is None and stored_moment(None) is None


def test_a_recording_written_with_plus_zero_loads_and_orders_beside_new_ones(tmp_path: Path) -> None:
    old = Trajectory.from_json(json.dumps(OLD_RECORDING))
    assert old.started_at == "2025-03-04T09:50:00.250+00:00" and old.steps[0].at == "2025-03-04T09:50:04.750+00:00"
    undated = Trajectory.from_dict({**OLD_RECORDING, "started_at": None})  # older still: began is read off its step
    assert undated.began() == "2025-03-04T09:50:00.250+00:00"
    answered = {**OLD_RECORDING["steps"][0], "at": stamp(NEW_MOMENT + timedelta(seconds=3))}
    new = Trajectory.from_dict({**OLD_RECORDING, "started_at": stamp(NEW_MOMENT), "steps": [answered]})
    with init_project(tmp_path / "p") as project:
        row = project.agent.save_task(project.agent.site_id("demo-site", str(SITE)), TASK)
        stored_new, stored_old = (project.agent.add_trajectory(row, trajectory) for trajectory in (new, old))
        dates = project.agent.trajectory_dates()
        assert dates == {stored_new: "2025-03-04T10:00:00.125Z", stored_old: "2025-03-04T09:50:00.250+00:00"}
        assert sorted(dates, key=lambda found: stored_moment(dates[found])) == [stored_old, stored_new]
        assert [t.steps[0].at for _, t in project.agent.trajectories()] == ["2025-03-04T10:00:03.125Z",
                                                                            "2025-03-04T09:50:04.750+00:00"]
