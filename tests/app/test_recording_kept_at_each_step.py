"""Killing the app during a recording lost every step the panel had said was recorded: the window stored the
recording only when it ended. Each step acknowledged ("recording: step N … recorded") is now in the project at
once, marked unfinished until the recording ends; the next start says that such a recording is kept, and the
stored-trajectory picker names it an unfinished recording."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.trajectory_viewer import stored_trajectories
from recordlens.annotator.agent.window import AgentWindow
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.store.project import init_project, open_project
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, click, element, short_waits

pytestmark = pytest.mark.app


@pytest.mark.timeout(180)
def test_each_step_recorded_is_in_the_project_at_once_and_kept_unfinished(qtbot, qapp, tmp_path,
                                                                          monkeypatch) -> None:
    short_waits(monkeypatch)
    project = init_project(tmp_path / "P")
    window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        window.panel.choose(load_tasks(DEMO_TASKS)[0])
        QTest.mouseClick(window.panel.record_button, Qt.MouseButton.LeftButton)
        assert window.recorder.recording
        click(window.browser, element(window.recorder.observation, "About"))
        qtbot.waitUntil(lambda: len(window.recorder.steps) == 1, timeout=10_000)
        assert "step 1" in window.panel.status.text() and "recorded" in window.panel.status.text()
        QTest.mouseClick(window.panel.wait_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: len(window.recorder.steps) == 2, timeout=10_000)

        # What another process (the app started again after a kill) finds, while this recording goes on.
        with open_project(tmp_path / "P") as after_a_kill:
            (row, kept), = after_a_kill.agent.trajectories(reference=True)
            assert [s.action for s in kept.steps] == ["click", "wait"] and kept.answer is None
            assert after_a_kill.agent.unfinished_recordings() == [row]
            entry, = stored_trajectories(after_a_kill)
            assert entry.unfinished and "unfinished recording" in entry.label
            again = AgentWindow(after_a_kill, site=DEMO_SITE, tasks=DEMO_TASKS)
            try:
                assert "1 recording ended with the app, unfinished" in again.statusBar().currentMessage()
            finally:
                again.close()

        window.recorder.answer(load_tasks(DEMO_TASKS)[0].answer)
        qtbot.waitUntil(lambda: not window.recorder.recording, timeout=10_000)
        (same, ended), = project.agent.trajectories(reference=True)
        assert same == row and len(ended.steps) == 3 and ended.stop == "answer"
        assert project.agent.unfinished_recordings() == []
    finally:
        window.close()
        project.close()


@pytest.mark.timeout(180)
def test_a_task_changed_since_runs_were_scored_is_said_at_the_first_step_with_the_windows_own_advice(
        qtbot, qapp, tmp_path, monkeypatch) -> None:
    from dataclasses import replace

    from recordlens.core.agent.model import Trajectory

    short_waits(monkeypatch)
    task = load_tasks(DEMO_TASKS)[0]
    project = init_project(tmp_path / "P")
    window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        site = window.browser.site
        scored = replace(task, answer=task.answer + " (as scored)")
        row = project.agent.save_task(project.agent.site_id(site.name, str(site.root.resolve())), scored)
        run = project.agent.add_run("scripted", {"site": site.name})
        project.agent.add_trajectory(row, Trajectory(task_id=task.id, actor="agent:scripted", run=0),
                                     agent_run_id=run)
        window.show()
        window.panel.choose(task)
        QTest.mouseClick(window.panel.record_button, Qt.MouseButton.LeftButton)
        QTest.mouseClick(window.panel.wait_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: len(window.recorder.steps) == 1, timeout=10_000)
        said = window.panel.status.text()
        assert said.startswith(f"recording, but not saved in the project: task {task.id} differs"), said
        assert "give the changed task an id of its own on the Tasks tab" in said and "--replace-tasks" not in said
        assert "“Save trajectory…” keeps it in a file" in said
    finally:
        window.close()
        project.close()
