"""A person's recording was stored as beginning at its first step's time: a first click PAUSE_S after ● Record, and
the reference said it began with that click. It begins at ● Record (the trajectory's `started_at`, taken before the
start page opens), in the project and in the JSON saved from the window, and each step keeps when its action came, to
the millisecond."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file, save_trajectory_file
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.store.project import init_project
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, click, element, short_waits

pytestmark = pytest.mark.app

PAUSE_S = 1.2  # the person looks at the start page this long before the first click


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


@pytest.mark.timeout(180)
def test_a_recording_begins_when_record_is_pressed(qtbot, qapp, tmp_path, monkeypatch) -> None:
    short_waits(monkeypatch)
    project = init_project(tmp_path / "P")
    window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        task = load_tasks(DEMO_TASKS)[0]
        window.panel.choose(task)
        pressed = datetime.now(UTC)
        QTest.mouseClick(window.panel.record_button, Qt.MouseButton.LeftButton)
        assert window.recorder.recording
        spin(int(PAUSE_S * 1000))
        clicked = datetime.now(UTC)
        click(window.browser, element(window.recorder.observation, "About"))
        qtbot.waitUntil(lambda: len(window.recorder.steps) == 1, timeout=10_000)
        window.recorder.answer(task.answer)
        qtbot.waitUntil(lambda: not window.recorder.recording, timeout=10_000)

        recorded = window.recorder.trajectory
        first, answer = recorded.steps
        assert pressed <= moment(recorded.started_at) < clicked <= moment(first.at) <= moment(answer.at)
        assert first.seconds >= PAUSE_S * 0.9 and "." in first.at  # to the millisecond
        (row, stored), = project.agent.trajectories(reference=True)
        assert stored.started_at == recorded.started_at
        assert project.agent.trajectory_dates() == {row: recorded.started_at}
        saved = load_trajectory_file(save_trajectory_file(recorded, tmp_path / "ref.json"))
        assert saved.started_at == recorded.started_at
    finally:
        window.close()
        project.close()
