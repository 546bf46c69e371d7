"""Replay on the site said "✓ all steps replayed; ended on URL" when the steps were taken on a page the site no
longer holds (its "not in this snapshot" page): the reference's answer step is now the first failing step, a replay
whose steps end on such a page is no success either, and a GoBack from such a page (one the recording met too) is
no failure."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.trajectory_viewer import FAILED_BACKGROUND, TrajectoryViewer
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.sites import build_site
from tests.app.agent_helpers import element
from tests.app.agent_site import HOME, LAMP, MISSING, make_site

pytestmark = pytest.mark.app


@pytest.fixture(scope="module")
def shop(qapp, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("shop")
    make_site(root)
    return root


@pytest.fixture(scope="module")
def agent(shop):
    with QtSiteBrowser(shop, viewport=(1000, 700)) as browser:
        yield browser


@pytest.fixture(scope="module")
def targets(agent) -> dict[str, object]:
    agent.open(HOME)
    seen = agent.observe()
    return {name: element(seen, name) for name in ("Desk lamp", "About us")}


@pytest.fixture
def viewer(agent):
    widget = TrajectoryViewer()
    widget.resize(1200, 800)
    widget.set_replay_browser(agent)
    widget.show()
    yield widget
    widget.close()


def replay_by_click(viewer: TrajectoryViewer, trajectory: Trajectory):  # noqa: ANN201 - a ReplayResult
    """A person's click on "Replay on the site"; the replay's result."""
    finished: list[object] = []
    viewer.replay_finished.connect(finished.append)
    viewer.set_trajectory(trajectory)
    viewer.activateWindow()
    QTest.mousePress(viewer.replay_button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    QTest.mouseRelease(viewer.replay_button, Qt.MouseButton.LeftButton)  # the replay runs in the release
    assert finished
    return finished[0]


def lamp_reference(targets: dict[str, object], *, answer: bool = True) -> Trajectory:
    steps = [Step(action="click", target=targets["Desk lamp"], url=HOME)]
    if answer:
        steps.append(Step(action="answer", value="$24.90", url=LAMP))
    return Trajectory(task_id="shop-1", actor="person:test", steps=steps, answer="$24.90" if answer else None,
                      stop="answer" if answer else None)


@pytest.mark.timeout(180)
def test_an_answer_on_a_page_gone_from_the_site_is_the_first_failing_step(viewer, agent, shop, targets) -> None:
    reference = lamp_reference(targets)
    result = replay_by_click(viewer, reference)
    assert result.ok, result.message  # while the lamp's page is in the site

    lamp = shop / "lamp.mhtml"
    kept = lamp.read_bytes()
    lamp.unlink()
    agent.browser.set_site(build_site(shop))  # the site re-captured without the lamp's page
    try:
        result = replay_by_click(viewer, reference)
        assert not result.ok and result.failed_step == 1 and result.done == 1, result.message
        assert result.message.startswith(f"step 2 (ANSWER; $24.90) failed on {LAMP}: ")
        assert "not in this snapshot" in result.message
        assert "✓" not in viewer.status.text() and "✗" in viewer.status.text()
        assert viewer.timeline.item(1).background().color() == FAILED_BACKGROUND

        # Without the answer, the steps all run, but they end on the missing page: said, and no ✓ either.
        result = replay_by_click(viewer, lamp_reference(targets, answer=False))
        assert not result.ok and result.failed_step is None and result.done == 1 and result.ended_outside
        assert result.message == f"all 1 steps replayed, but they end on {LAMP}, which is not in this snapshot"
        assert "✗" in viewer.status.text()
    finally:
        lamp.write_bytes(kept)
        agent.browser.set_site(build_site(shop))


@pytest.mark.timeout(180)
def test_going_back_from_a_page_not_in_the_snapshot_is_no_failure(viewer, targets) -> None:
    wandered = Trajectory(task_id="shop-1", actor="person:test", steps=[
        Step(action="click", target=targets["About us"], url=HOME),
        Step(action="go_back", url=MISSING),
        Step(action="click", target=targets["Desk lamp"], url=HOME),
        Step(action="answer", value="$24.90", url=LAMP),
    ], answer="$24.90", stop="answer")
    result = replay_by_click(viewer, wandered)
    assert result.ok and result.done == 4, result.message
    assert "✓ all 4 steps replayed" in viewer.status.text()
