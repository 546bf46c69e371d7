"""Open stored trajectory…: a reference recorded for an earlier version of its task (the task was changed since)
says so on its row, greyed with why in its tooltip, and is not the one that counts, even as its task's newest;
one recorded for the task as it is now counts again."""

from __future__ import annotations

from dataclasses import replace

import pytest

from recordlens.annotator.agent.trajectory_viewer import StoredTrajectoryPicker
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory

pytestmark = pytest.mark.app

TASK = Task(id="lookup-1", instruction="Who wrote it?", answer="Ilse Marrow", start_url="https://papers.example.org/")
EDITED = replace(TASK, instruction="Who is the paper's first author?")


def reference(answer: str = "Ilse Marrow") -> Trajectory:
    return Trajectory(task_id=TASK.id, actor="person:ana", answer=answer, stop="answer",
                      steps=[Step(action="answer", value=answer, url=TASK.start_url, at="2026-01-02T10:00:00+00:00")])


@pytest.fixture
def project(tmp_path):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    yield project
    project.close()


def rows(picker: StoredTrajectoryPicker) -> list[str]:
    group = picker.tree.topLevelItem(0)
    return [group.child(i).text(0) for i in range(group.childCount())]


def test_a_reference_of_an_earlier_version_of_its_task_says_so_and_does_not_count(qtbot, project):
    site = project.agent.site_id("demo-site")
    row = project.agent.save_task(site, TASK)
    first = project.agent.add_trajectory(row, reference())
    project.agent.save_task(site, EDITED)  # the task changed since (saved again from the agent window)

    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    picker.show()
    assert rows(picker) == ["lookup-1 · recorded for an earlier version: not used"]  # its only reference, unused
    (entry,) = picker.entries
    assert not entry.counts and entry.earlier_version
    item = picker.items[first]
    assert "Recorded for an earlier version of task lookup-1" in item.toolTip(0)
    assert "record the task again" in item.toolTip(0)
    assert "recorded for an earlier version of its task (changed since) is not used" in picker.note.text()
    picker.close()

    second = project.agent.add_trajectory(row, reference())  # recorded again, for the task as it is now
    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    picker.show()
    assert rows(picker) == ["lookup-1 · recorded for an earlier version: not used", "lookup-1 · newest: counts"]
    assert [e.counts for e in picker.entries] == [False, True]
    assert picker.items[second].toolTip(0) == ""
    picker.close()

    project.agent.save_task(site, replace(EDITED, answer="I. Marrow"))  # changed again: neither is of this version
    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    picker.show()
    assert rows(picker) == ["lookup-1 · recorded for an earlier version: not used"] * 2
    assert not any(e.counts for e in picker.entries)
    picker.close()
