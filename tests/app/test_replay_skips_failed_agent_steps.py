"""Replay counted an agent's failed steps (a `Click [99]` the page did not have) as replayed: "✗ all 4 steps
replayed, …" where three of the four did nothing. They are skipped and said so."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Observation, Trajectory
from recordlens.core.agent.targets import Target

pytestmark = pytest.mark.app

HOME = "https://shop.example.com/"
FIELD = Target(label=4, xpath="/body[1]/form[1]/input[1]", text="", role="searchbox", name="Search")


class PageOfOneField:
    """A browser whose page holds one search field and stays where it is."""

    in_site = True
    url = HOME

    def __init__(self) -> None:
        self.performed: list[str] = []

    def open(self, url: str) -> None:
        self.url = url

    def observe(self) -> Observation:
        return Observation(url=self.url, title="Shop", elements=(FIELD,))

    def perform(self, step: Step) -> None:
        self.performed.append(step.action)


def test_failed_agent_steps_are_skipped_not_counted_as_replayed() -> None:
    failed = Step(action="click", target=Target(label=99), url=HOME, error="no element [99] on this page")
    trajectory = Trajectory(task_id="price-1", actor="agent:m", run=0, steps=[
        Step(action="type", target=FIELD, value="alder", url=HOME), failed, failed, failed])
    browser = PageOfOneField()
    result = replay(trajectory, browser, HOME)
    assert browser.performed == ["type"]
    assert result.done == 1 and result.skipped == [1, 2, 3] and result.ok, result.message
    assert result.message == f"1 step replayed, 3 failed steps of the agent skipped (they did nothing on the page); " \
                             f"ended on {HOME}"
