"""Typing committed by leaving the field (Tab, a click elsewhere) was recorded as the grammar's `Type [n]; text`,
which replay carries out with Enter: it submitted a form the person never submitted, and the next recorded step
(the click on the form's button) failed on the results page. A Type now keeps whether Enter was pressed
(`Step.submit`), in the project and in files, and replay presses Enter only where the person did."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.trajectory_replay import describe, replay
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.store.project import init_project
from tests.app.agent_helpers import click, element, shown_browser, type_text
from tests.app.agent_site import HOME, SEARCH_LAMP, make_site

pytestmark = pytest.mark.app


@pytest.fixture
def browser(qapp, tmp_path):
    make_site(tmp_path / "site")
    yield from shown_browser(tmp_path / "site", (1000, 700))


def record(qtbot, browser, *, leave_by: str) -> Trajectory:  # noqa: ANN001 - qtbot, a SiteBrowser
    """Type "desk lamp" into the search field, leave it (by Tab, or by the click on Go), click Go."""
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="shop-1", instruction="Find the desk lamp", answer="x", start_url=HOME))
    search, go = element(recorder.observation, "Search products"), element(recorder.observation, "Go")
    type_text(browser, search, "desk lamp", enter=False)
    if leave_by == "tab":
        QTest.keyClick(browser.view.focusProxy(), Qt.Key.Key_Tab)
        qtbot.waitUntil(lambda: len(recorder.steps) == 1, timeout=10_000)
        assert browser.url == HOME  # leaving the field submitted nothing
    click(browser, go)
    qtbot.waitUntil(lambda: len(recorder.steps) == 2 and browser.url == SEARCH_LAMP, timeout=10_000)
    return recorder.stop()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("leave_by", ["tab", "click"])
def test_typing_left_without_enter_replays_without_enter(qtbot, browser, tmp_path, leave_by) -> None:
    trajectory = record(qtbot, browser, leave_by=leave_by)
    typed, clicked = trajectory.steps
    assert not typed.submit and describe(typed).endswith("; desk lamp (no Enter)")
    assert clicked.url == HOME and clicked.target.name == "Go"
    # Kept so in the project and in a file.
    with init_project(tmp_path / "P") as project:
        site = project.agent.site_id("shop", str(tmp_path / "site"))
        row = project.agent.save_task(site, Task(id="shop-1", instruction="Find the desk lamp", answer="x",
                                                 start_url=HOME))
        stored = project.agent.steps(project.agent.add_trajectory(row, trajectory))
    assert [s.submit for s in stored] == [False, True]
    assert not Trajectory.from_json(trajectory.to_json()).steps[0].submit
    with QtSiteBrowser(tmp_path / "site", viewport=(1000, 700)) as agent:
        result = replay(trajectory, agent, HOME)
        assert result.ok, result.message
        assert agent.url == SEARCH_LAMP


@pytest.mark.timeout(180)
def test_typing_committed_by_enter_still_replays_with_enter(qtbot, browser, tmp_path) -> None:
    recorder = Recorder(browser, actor="person:test")
    recorder.start(Task(id="shop-1", instruction="Find the desk lamp", answer="x", start_url=HOME))
    type_text(browser, element(recorder.observation, "Search products"), "desk lamp")
    qtbot.waitUntil(lambda: len(recorder.steps) == 1 and browser.url == SEARCH_LAMP, timeout=10_000)
    trajectory = recorder.stop()
    assert trajectory.steps[0].submit and "(no Enter)" not in describe(trajectory.steps[0])
    with QtSiteBrowser(tmp_path / "site", viewport=(1000, 700)) as agent:
        result = replay(trajectory, agent, HOME)
        assert result.ok and agent.url == SEARCH_LAMP, result.message
