"""Open stored trajectory…: the reference that counts is the one agent eval compares with, the newest of the task's
current version that ends with an answer. A reference stopped before ANSWER used to be marked "newest: counts" and
the good one before it "older: not used"; one recorded for an earlier version was judged against the new gold answer
("answer does NOT match"), though it answered another question."""

from __future__ import annotations

from dataclasses import replace

import pytest

from recordlens.annotator.agent.trajectory_viewer import StoredTrajectoryPicker
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory

pytestmark = pytest.mark.app

TASK = Task(id="lookup-1", instruction="Who wrote it?", answer="Ilse Marrow", start_url="https://papers.example.org/")


def reference(answer: str | None = "Ilse Marrow") -> Trajectory:
    steps = [Step(action="wait", url=TASK.start_url, at="2026-01-02T10:00:00+00:00")]
    if answer is not None:
        steps.append(Step(action="answer", value=answer, url=TASK.start_url, at="2026-01-02T10:00:02+00:00"))
    return Trajectory(task_id=TASK.id, actor="person:ana", answer=answer, stop="answer" if answer else None,
                      steps=steps)


@pytest.fixture
def project(tmp_path):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    yield project
    project.close()


def opened(qtbot, project) -> StoredTrajectoryPicker:  # noqa: ANN001
    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    picker.show()
    return picker


def cells(picker: StoredTrajectoryPicker, col: int) -> list[str]:
    group = picker.tree.topLevelItem(0)
    return [group.child(i).text(col) for i in range(group.childCount())]


def test_a_reference_stopped_before_its_answer_is_kept_and_not_used(qtbot, project):
    row = project.agent.save_task(project.agent.site_id("demo-site"), TASK)
    good = project.agent.add_trajectory(row, reference())
    stopped = project.agent.add_trajectory(row, reference(None))

    picker = opened(qtbot, project)
    assert cells(picker, 0) == ["lookup-1 · counts", "lookup-1 · no answer: not used"]
    assert [e.counts for e in picker.entries] == [True, False]
    assert "Recorded without an answer: stopped before ANSWER" in picker.items[stopped].toolTip(0)
    assert picker.items[good].toolTip(0) == ""
    assert "recorded without an answer (stopped before ANSWER) is kept but not used" in picker.note.text()
    picker.close()

    project.agent.delete_trajectory(good)  # the stopped one alone: still not used, and said
    picker = opened(qtbot, project)
    assert cells(picker, 0) == ["lookup-1 · no answer: not used"]
    assert not picker.entries[0].counts
    picker.close()


def test_a_reference_of_an_earlier_version_is_not_judged_against_the_new_gold_answer(qtbot, project):
    site = project.agent.site_id("demo-site")
    row = project.agent.save_task(site, TASK)
    project.agent.add_trajectory(row, reference())
    project.agent.save_task(site, replace(TASK, answer="I. Marrow"))  # changed since: another question

    picker = opened(qtbot, project)
    assert cells(picker, 0) == ["lookup-1 · recorded for an earlier version: not used"]
    assert cells(picker, 4) == ["—"]  # not "answer does NOT match"
    assert picker.entries[0].trajectory.success is None  # nor in the viewer's title
    picker.close()
