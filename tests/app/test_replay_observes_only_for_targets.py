"""Replay observed the page (numbered it, drew the numbers, took a screenshot) before every step and once more at
the end, only to compare its title with the "not in this snapshot" page's: a replay of a long trajectory took a
screenshot for every wait, answer, scroll and GoBack. The browser says whether its page is one of the site's;
only a step with a target observes, to find it. Pages not in the snapshot are still told
(test_replay_on_a_page_not_in_the_snapshot.py)."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Trajectory
from tests.app.agent_helpers import element
from tests.app.agent_site import HOME, LAMP, MISSING, make_site

pytestmark = pytest.mark.app


@pytest.mark.timeout(180)
def test_only_the_steps_with_a_target_observe_the_page(qapp, tmp_path, monkeypatch) -> None:
    make_site(tmp_path)
    with QtSiteBrowser(tmp_path, viewport=(1000, 700)) as agent:
        agent.open(HOME)
        lamp = element(agent.observe(), "Desk lamp")
        observed: list[str] = []
        observe = agent.observe
        monkeypatch.setattr(agent, "observe", lambda: observed.append(agent.url) or observe())
        trajectory = Trajectory(task_id="shop-1", actor="person:test", steps=[
            Step(action="wait", url=HOME),
            Step(action="scroll", value="down", url=HOME),
            Step(action="click", target=lamp, url=HOME),
            Step(action="wait", url=LAMP),
            Step(action="go_back", url=LAMP),
            Step(action="click", target=lamp, url=HOME),
            Step(action="answer", value="$24.90", url=LAMP),
        ], answer="$24.90", stop="answer")
        result = replay(trajectory, agent, HOME)
        assert result.ok, result.message
        assert observed == [HOME, HOME]  # the two clicks', to find the lamp's link

        # An answer on a page the site does not hold is still no success, told without observing it.
        observed.clear()
        gone = Trajectory(task_id="shop-1", actor="person:test", steps=[
            Step(action="answer", value="$24.90", url=MISSING)], answer="$24.90", stop="answer")
        result = replay(gone, agent, MISSING)
        assert result.failed_step == 0 and "not in this snapshot" in result.message, result.message
        assert observed == []
