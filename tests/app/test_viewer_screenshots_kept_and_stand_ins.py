"""Two faults of the trajectory viewer's screenshots. A text-browser episode showed a grey blur as each step's
"Before" and "After": the 4×3 white PNG the text browser stores for a screenshot it cannot take, scaled up. And
Save trajectory… of a trajectory stored in the project wrote no screenshots: the viewer showed them from the
project, so the trajectory itself held none (`with_screenshots` gathers them for the file)."""

from __future__ import annotations

import hashlib

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage

from recordlens.annotator.agent.trajectory_viewer import TrajectoryViewer
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.text_browser import blank_png

pytestmark = pytest.mark.app

HOME = "https://shop.example.com/"


def page_png() -> bytes:
    image = QImage(320, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("#3366cc"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data)


def digest(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()


def test_a_text_browser_stand_in_is_said_to_be_no_screenshot(qtbot) -> None:
    blank = blank_png()
    viewer = TrajectoryViewer()
    qtbot.addWidget(viewer)
    episode = Trajectory(task_id="t1", actor="agent:m", run=0, steps=[
        Step(action="wait", url=HOME, screenshot_before=digest(blank), screenshot_after=digest(blank))])
    viewer.set_trajectory(episode, screenshots={digest(blank): blank}.get)
    viewer.select_step(0)
    assert viewer.before.text() == "no screenshot before" and viewer.after.text() == "no screenshot after"
    assert viewer.before.pixmap().isNull()


def test_a_stored_trajectory_is_given_its_screenshots_to_be_saved(qtbot) -> None:
    first, second = page_png(), page_png()[:-1] + b"\x00"  # two distinct contents
    stored = {digest(first): first, digest(second): second}
    viewer = TrajectoryViewer()
    qtbot.addWidget(viewer)
    reference = Trajectory(task_id="t1", actor="person:ana", steps=[
        Step(action="wait", url=HOME, screenshot_before=digest(first), screenshot_after=digest(second)),
        Step(action="answer", value="x", url=HOME, screenshot_before=digest(second), screenshot_after="gone")])
    viewer.set_trajectory(reference, screenshots=stored.get)
    assert reference.screenshots == {}  # shown from the project
    saved = viewer.with_screenshots()
    assert saved is reference and saved.screenshots == stored
