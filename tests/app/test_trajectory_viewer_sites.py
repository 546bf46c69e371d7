"""Open stored trajectory… on a project of two sites that both have a task "t1": a task id is a site's own (as
`agent eval` and the tasks report take it), so each site's t1 has its own newest reference, judged by its own
site's task, and replayed from its own start page. The picker and the viewer name the zone of the local times they
show (in a tip, as the rest of the app does). A stored trajectory of a site other than the one open says whose it
is; opening that site keeps it on show (it used to be cleared with what belonged to the site open before)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from recordlens.annotator.agent.trajectory_viewer import (
    REFERENCES,
    StoredTrajectoryPicker,
    TrajectoryViewer,
    stored_trajectories,
)
from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from recordlens.core.store.project import Project

pytestmark = pytest.mark.app  # the app's conftest pins TZ=UTC: the zone's name is "UTC"

AT = "2026-01-02T10:00:00+00:00"


def task(site: str, answer: str) -> Task:
    return Task(id="t1", instruction="Which quay?", answer=answer, start_url=f"https://{site}.example/",
                site=site)


def reference(site: str, answer: str, at: str = AT) -> Trajectory:
    url = f"https://{site}.example/"
    steps = [Step(action="wait", url=url, seconds=1.0, at=at), Step(action="answer", value=answer, url=url,
                                                                     seconds=2.0, at=at)]
    return Trajectory(task_id="t1", actor="person:ana", steps=steps, answer=answer, stop="answer", started_at=at)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Project]:
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    yield project
    project.close()


def two_sites(project: Project) -> dict[str, int]:
    """t1 on site-a (gold "North quay") and on site-b (gold "South quay"), one reference each; site-b's stored last."""
    rows: dict[str, int] = {}
    for site, answer in (("site-a", "North quay"), ("site-b", "South quay")):
        row = project.agent.save_task(project.agent.site_id(site), task(site, answer))
        rows[site] = project.agent.add_trajectory(row, reference(site, answer))
    return rows


def test_two_sites_tasks_of_one_id_keep_their_references_apart(qtbot: QtBot, project: Project) -> None:
    rows = two_sites(project)
    entries = {e.row_id: e for e in stored_trajectories(project) if e.agent_run is None}
    for site, row in rows.items():
        entry = entries[row]
        assert entry.site == site
        assert entry.counts and not entry.several  # each the newest, and only, reference of its site's t1
        assert entry.label == "t1"
        assert entry.trajectory.success is None or entry.trajectory.success  # judged by its own site's task

    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    groups = [picker.tree.topLevelItem(i).text(0) for i in range(picker.tree.topLevelItemCount())]
    assert groups == [f"{REFERENCES} · site-a", f"{REFERENCES} · site-b"]  # which t1 is whose
    picker.close()


def test_a_reference_stored_before_answers_were_judged_is_judged_by_its_own_sites_task(qtbot: QtBot,
                                                                                        project: Project) -> None:
    rows: dict[str, int] = {}
    for site, answer in (("site-a", "North quay"), ("site-b", "South quay")):
        row = project.agent.save_task(project.agent.site_id(site), task(site, answer))
        stored = reference(site, answer)
        stored.success = None  # as one stored before answers were judged
        rows[site] = project.agent.add_trajectory(row, stored)
    entries = {e.row_id: e for e in stored_trajectories(project)}
    assert [entries[rows[s]].trajectory.success for s in ("site-a", "site-b")] == [True, True]


def test_a_reference_opened_from_the_picker_replays_from_its_own_sites_start_page(qapp: QApplication,
                                                                                  project: Project) -> None:
    from recordlens.annotator.agent.window import AgentWindow
    from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS

    rows = two_sites(project)
    window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        entry = next(e for e in stored_trajectories(project) if e.row_id == rows["site-b"])
        window.show_stored(entry)
        assert window.viewer._start_url == "https://site-b.example/"  # not site-a's t1's, the project's first
        assert "belongs to the site site-b" in window.statusBar().currentMessage()
    finally:
        window.close()


def test_opening_the_site_a_stored_trajectory_belongs_to_keeps_it_on_show(qapp: QApplication, project: Project,
                                                                         tmp_path: Path) -> None:
    from recordlens.annotator.agent.window import AgentWindow
    from tests.app.agent_site import make_site

    rows = two_sites(project)
    for site in ("site-a", "site-b"):
        make_site(tmp_path / site)  # a site's name is its folder's
    window = AgentWindow(project, site=tmp_path / "site-a")
    try:
        entry = next(e for e in stored_trajectories(project) if e.row_id == rows["site-b"])
        window.show_stored(entry)
        assert "belongs to the site site-b" in window.statusBar().currentMessage()

        assert window.open_site(tmp_path / "site-b") is None  # as the message suggests, to replay it
        assert window.viewer.trajectory is entry.trajectory and window.viewer.timeline.count() == 2
        assert window.viewer._start_url == "https://site-b.example/" and window.viewer.replay_button.isEnabled()

        assert window.open_site(tmp_path / "site-a") is None  # a site it does not belong to: it goes
        assert window.viewer.trajectory is None and window.viewer.timeline.count() == 0
    finally:
        window.close()


def test_the_times_shown_name_their_zone_in_a_tip(qtbot: QtBot, project: Project,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    row = project.agent.save_task(project.agent.site_id("site-a"), task("site-a", "North quay"))
    project.agent.add_trajectory(row, reference("site-a", "North quay"))
    run = project.agent.add_run("scripted", {"site": "site-a"})
    project.agent.add_trajectory(row, Trajectory("t1", "agent:scripted", reference("site-a", "x").steps,
                                                 answer="x", run=0, stop="answer"), agent_run_id=run)
    picker = StoredTrajectoryPicker(project)
    qtbot.addWidget(picker)
    references, episodes = picker.tree.topLevelItem(0), picker.tree.topLevelItem(1)
    recorded = references.child(0)
    assert recorded.text(5) == "2026-01-02 10:00"  # the column stays short
    assert "2026-01-02 10:00:00 UTC" in recorded.toolTip(5)
    assert "UTC" in episodes.toolTip(0) and "started" in episodes.text(0)
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _parent, _title, text: asked.append(text))
    picker.select(references.child(0).data(0, Qt.ItemDataRole.UserRole))
    picker.delete_chosen()
    assert "recorded 2026-01-02 10:00 UTC by person:ana" in asked[0]  # the column's time, and its zone
    picker.close()

    viewer = TrajectoryViewer()
    qtbot.addWidget(viewer)
    viewer.set_trajectory(reference("site-a", "North quay"))
    viewer.select_step(1)
    assert "2026-01-02 10:00:00 UTC" in viewer.details.text()
    viewer.close()
