"""A recording stopped with ■ Stop before any Answer is no finished reference, and the panel says so (it said "1 step
recorded and saved in the project", as for a reference); the red "does not match" warning goes when a recording
ends or another task is chosen (it stayed on after Stop, asking to press Answer again on a recording over)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.recorder import Recorder
from recordlens.annotator.agent.recording_panel import RecordingPanel
from recordlens.annotator.agent.window import AgentWindow
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.tasks import load_tasks
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, HOME, shown_browser

pytestmark = pytest.mark.app


def recorded(*steps: Step, answer: str | None = None) -> Trajectory:
    return Trajectory(task_id="lookup-1", actor="person:test", steps=list(steps), answer=answer,
                      stop="answer" if answer is not None else None)


def test_a_recording_stopped_without_an_answer_is_said_to_be_no_reference(qapp, tmp_path):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.panel.choose(load_tasks(DEMO_TASKS)[0])
        window._on_recorded(recorded(Step(action="wait", url=HOME)))
        assert window.panel.status.text() == (
            "1 step recorded and saved in the project, without an answer: not used as the task's reference "
            "(record it again, ending with Answer)")
        answer = "Ilse Marrow"
        window._on_recorded(recorded(Step(action="wait", url=HOME), Step(action="answer", value=answer, url=HOME),
                                     answer=answer))
        assert window.panel.status.text() == "2 steps recorded and saved in the project"
    finally:
        window.close()
        project.close()


def test_a_recording_without_an_answer_and_no_project_says_so_too(qapp):
    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window._on_recorded(recorded(Step(action="wait", url=HOME)))
        assert window.panel.status.text() == ("1 step recorded, without an answer: no reference (record it again, "
                                              "ending with Answer); save them with “Save trajectory…”")
    finally:
        window.close()


@pytest.fixture(scope="module")
def browser(qapp):
    yield from shown_browser(DEMO_SITE, (1000, 600))


TASK = Task(id="lookup-1", instruction="Who is the first author?", answer="Ilse Marrow", start_url=HOME)
OTHER = Task(id="lookup-2", instruction="How many pages?", answer="12", start_url=HOME)


def test_the_does_not_match_warning_goes_when_the_recording_ends_or_another_task_is_chosen(qtbot, browser):
    recorder = Recorder(browser, actor="person:test")
    panel = RecordingPanel(recorder)
    qtbot.addWidget(panel)
    panel.set_tasks([TASK, OTHER])
    panel.show()
    panel.toggle()  # ● Record
    panel.answer_edit.setText("Someone Else")
    QTest.mouseClick(panel.answer_button, Qt.MouseButton.LeftButton)
    assert recorder.recording and not panel.warning.isHidden()  # said before it is recorded
    panel.toggle()  # ■ Stop, no answer recorded: the warning asked for a second Answer on a recording now over
    assert not recorder.recording and panel.warning.isHidden()

    panel.toggle()  # a mismatching answer recorded anyway: the saved reference's note stays after it ends
    panel.answer_edit.setText("Someone Else")
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        panel.answer()
        panel.answer()
    assert "saved marked “does not match”" in panel.warning.text() and not panel.warning.isHidden()
    panel.choose(TASK)  # the same task picked again (Record this task): a fresh start
    assert panel.warning.isHidden()

    panel.toggle()
    panel.answer_edit.setText("Someone Else")
    with qtbot.waitSignal(recorder.finished, timeout=10_000):
        panel.answer()
        panel.answer()
    panel.choose(OTHER)  # another task
    assert panel.warning.isHidden()
