"""Open stored trajectory…: each reference's date, whether its answer matches the task's gold answer, which
reference of a task counts (the newest), and deleting one. A wrong reference used to be listed as any other."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.trajectory_viewer import StoredTrajectoryPicker, TrajectoryViewer
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory

pytestmark = pytest.mark.app

TASK = Task(id="lookup-1", instruction="Who wrote it?", answer="Ilse Marrow", start_url="https://papers.example.org/",
            normalise=("case", "punctuation", "whitespace"))


def reference(answer: str, success: bool | None) -> Trajectory:
    steps = [Step(action="wait", url=TASK.start_url, seconds=1.0, at="2026-01-02T10:00:01+00:00"),
             Step(action="answer", value=answer, url=TASK.start_url, seconds=2.0, at="2026-01-02T10:00:03+00:00")]
    return Trajectory(task_id=TASK.id, actor="person:ana", steps=steps, answer=answer, success=success, stop="answer",
                      started_at="2026-01-02T10:00:00+00:00")  # Record pressed at once: "Recorded" shows it


@pytest.fixture
def project(tmp_path):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    yield project
    project.close()


def column(picker: StoredTrajectoryPicker, row: int, col: int) -> str:
    return picker.tree.topLevelItem(0).child(row).text(col)


def test_the_picker_dates_each_reference_says_whether_it_matches_and_which_counts(qtbot, project, monkeypatch):
    row = project.agent.save_task(project.agent.site_id("demo-site"), TASK)
    older = project.agent.add_trajectory(row, reference("ilse  MARROW.", None))  # stored before answers were judged
    newer = project.agent.add_trajectory(row, reference("Paulo Verde", False))
    run = project.agent.add_run("scripted", {})
    episode = project.agent.add_trajectory(row, reference("Ilse Marrow", True), agent_run_id=run)

    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    picker.show()
    columns = list(picker.COLUMNS)
    assert columns[-1] == "Recorded" and columns[4] == "Result"
    assert [column(picker, i, 0) for i in range(2)] == ["lookup-1 · older: not used", "lookup-1 · newest: counts"]
    assert [column(picker, i, 4) for i in range(2)] == ["answer matches", "answer does NOT match"]
    assert column(picker, 0, 5).startswith("2026-01-02 10:00")
    assert "compared with (agreement) is the newest of the task's current version that ends with an answer" in \
        picker.note.text()

    picker.select(episode)  # an agent's episode belongs to its run: never deleted here
    assert not picker.delete_button.isEnabled() and not picker.delete_chosen()

    asked: list[str] = []
    monkeypatch.setattr(picker, "confirm_delete", lambda entry: asked.append(entry.trajectory.answer) or True)
    picker.select(newer)
    assert picker.delete_button.isEnabled()
    picker.activateWindow()
    picker.tree.setFocus()
    qtbot.waitUntil(picker.tree.hasFocus)
    QTest.keyClick(picker.tree, Qt.Key.Key_Delete)
    assert asked == ["Paulo Verde"]
    assert [r for r, _ in project.agent.trajectories(reference=True)] == [older]
    assert column(picker, 0, 0) == "lookup-1"  # the one left counts; nothing to say
    picker.close()


def test_the_viewer_says_a_references_answer_does_not_match(qapp):
    viewer = TrajectoryViewer()
    viewer.set_trajectory(reference("Paulo Verde", False))
    assert "does NOT match the gold answer" in viewer.title.text()
    viewer.close()
