"""Recording: a scripted sequence of real clicks, typing, wheel turns and Alt+Left on the demo site records the
expected steps in the grammar, with every identity, URLs and screenshots; the recording replays on its site."""

from __future__ import annotations

import pytest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.trajectory_replay import replay
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Task, Trajectory
from tests.app.agent_helpers import DEMO_SITE, HOME, alt_left, click, element, shown_browser, type_text, wheel

pytestmark = pytest.mark.app

TITLE = "Graph Message Passing with Learned Halting"
OTHER = "Graph Coarsening for Fast Spectral Clustering"


@pytest.fixture(scope="module")
def browser(qapp):
    yield from shown_browser(DEMO_SITE, (1280, 840))


def test_real_input_records_the_expected_steps_and_they_replay(qtbot, browser):
    task = Task(id="comparison-1", instruction="Which graph paper is newest?", answer=TITLE, start_url=HOME)
    recorder = Recorder(browser, actor="person:test")
    recorder.start(task)
    assert browser.url == HOME and recorder.observation.elements

    def recorded(n: int) -> None:
        # A step is appended once its action has settled and the next observation is taken.
        qtbot.waitUntil(lambda: len(recorder.steps) >= n, timeout=10_000)

    search = element(recorder.observation, "Search papers")
    type_text(browser, search, "graph")
    recorded(1)
    assert browser.url == "https://papers.example.org/search?q=graph"

    click(browser, element(recorder.observation, TITLE))
    recorded(2)
    assert browser.url.startswith("https://papers.example.org/abs/")

    alt_left(browser)
    recorded(3)
    assert browser.url == "https://papers.example.org/search?q=graph"

    wheel(browser, 3)
    recorded(4)
    recorder.wait()
    recorded(5)
    wheel(browser, -3)
    recorded(6)

    click(browser, element(recorder.observation, OTHER))
    recorded(7)
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        recorder.answer(TITLE)

    trajectory = recorder.trajectory
    commands = [format_action(s) for s in trajectory.steps]
    labels = {s: s.target.label for s in trajectory.steps if s.target}
    assert all(isinstance(v, int) for v in labels.values())
    assert commands == [
        f"Type [{search.label}]; graph",
        f"Click [{trajectory.steps[1].target.label}]",
        "GoBack",
        "Scroll [WINDOW]; down",
        "Wait",
        "Scroll [WINDOW]; up",
        f"Click [{trajectory.steps[6].target.label}]",
        f"ANSWER; {TITLE}",
    ]
    typed, clicked = trajectory.steps[0], trajectory.steps[1]
    assert typed.target.xpath == "/body[1]/main[1]/section[1]/form[1]/input[1]"
    assert (typed.target.role, typed.target.name) == ("searchbox", "Search papers")
    assert clicked.target.text == TITLE and clicked.target.role == "link" and clicked.target.bbox
    assert clicked.url == "https://papers.example.org/search?q=graph"
    assert trajectory.answer == TITLE and trajectory.stop == "answer"
    for step in trajectory.steps:
        assert step.url.startswith("https://papers.example.org/")
        assert step.screenshot_before in trajectory.screenshots
        assert step.screenshot_after in trajectory.screenshots
        assert step.seconds is not None and step.at
    assert trajectory.screenshots[typed.screenshot_before].startswith(b"\x89PNG")
    assert typed.screenshot_before != typed.screenshot_after  # another page
    assert browser.blocked_urls == []

    # It reads back from its JSON form and replays on a fresh browser of the same site.
    again = Trajectory.from_json(trajectory.to_json())
    with QtSiteBrowser(DEMO_SITE) as fresh:
        result = replay(again, fresh)
        assert result.ok, result.message
        assert result.final_url == "https://papers.example.org/abs/2312.00201"
        assert result.url_changes == []
