"""The trajectory viewer (timeline, screenshots with the target boxed, details, replay on the site) and the task
editor (JSONL with core's validation). The trajectory is an agent episode on QtWebEngine: core's loop with a
scripted model, so it has thoughts, timings and set-of-mark screenshots like a real run."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.agent.qt_browser import QtSiteBrowser
from recordlens.annotator.agent.task_editor import COLUMNS, TaskEditor, displayed_rows
from recordlens.annotator.agent.trajectory_viewer import (
    FAILED_BACKGROUND,
    HIGHLIGHT,
    StoredTrajectoryPicker,
    TrajectoryViewer,
    highlighted,
)
from recordlens.annotator.agent.window import AgentWindow, load_trajectory_file, save_trajectory_file
from recordlens.core.agent.loop import AgentSettings, run_episode
from recordlens.core.agent.model import Task
from recordlens.core.agent.targets import Target
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.llm.gemini import Answer
from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS, HOME

pytestmark = pytest.mark.app

TITLE = "Graph Message Passing with Learned Halting"


class ScriptedModel:
    """Answers in the agent grammar, one per call, as a model would."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = list(answers)

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        return Answer(text=self.answers.pop(0), usage={}, attempts=1, seconds=0.01)


@pytest.fixture(scope="module")
def agent(qapp):
    with QtSiteBrowser(DEMO_SITE, viewport=(1100, 720)) as browser:
        yield browser


@pytest.fixture(scope="module")
def episode(agent):
    task = Task(id="comparison-1", instruction="Which graph paper is newest?", answer=TITLE, start_url=HOME)
    model = ScriptedModel([
        "Thought: search for graph papers.\nAction: Type [6]; graph",
        "Thought: the first result is the newest.\nAction: Click [12]",
        f"Thought: found it.\nAction: ANSWER; {TITLE}",
    ])
    trajectory = run_episode(task, agent, model, AgentSettings(actor="agent:scripted"))
    assert trajectory.success and [s.action for s in trajectory.steps] == ["type", "click", "answer"]
    return trajectory


@pytest.fixture
def viewer(qapp, agent):
    widget = TrajectoryViewer()
    widget.resize(1300, 800)
    widget.set_replay_browser(agent)
    widget.show()
    yield widget
    widget.close()


def test_the_viewer_shows_steps_screenshots_and_details(viewer, episode):
    viewer.set_trajectory(episode)
    assert viewer.timeline.count() == 3
    assert viewer.timeline.item(1).text().startswith("2. Click [12]\n    https://papers.example.org/search?q=graph")
    assert viewer.timeline.item(1).toolTip() == "the first result is the newest."
    viewer.select_step(1)
    details = viewer.details.text()
    assert "Click [12]" in details and "the first result is the newest." in details and "/ol[1]/li[1]/a[1]" in details
    assert viewer.before._pixmap is not None and viewer.after._pixmap is not None

    step = episode.steps[1]
    picture = highlighted(episode.screenshots[step.screenshot_before], step.target.bbox).toImage()
    x, y, _w, h = step.target.bbox
    assert QColor(picture.pixel(round(x - 3), round(y + h / 2))) == HIGHLIGHT  # the box's left edge


def test_replay_succeeds_and_a_gone_target_is_reported(viewer, episode, agent):
    viewer.set_trajectory(episode)
    result = viewer.replay()
    assert result.ok, result.message
    assert "all 3 steps replayed" in viewer.status.text()

    gone = replace(episode.steps[1], target=Target(label=12, xpath="/body[1]/main[1]/div[9]/a[1]",
                                                   text="A paper that was never saved", role="link",
                                                   name="A paper that was never saved"))
    broken = replace(episode, steps=[episode.steps[0], gone, episode.steps[2]])
    broken.screenshots = episode.screenshots
    viewer.set_trajectory(broken)
    result = viewer.replay()
    assert not result.ok and result.failed_step == 1 and result.done == 1
    assert "step 2 (Click [12])" in result.message and "A paper that was never saved" in result.message
    assert viewer.timeline.currentRow() == 1
    assert viewer.timeline.item(1).background().color() == FAILED_BACKGROUND
    assert "step 2" in viewer.status.text()


def test_a_trajectory_file_keeps_its_screenshots(tmp_path, episode):
    path = save_trajectory_file(episode, tmp_path / "comparison-1.json")
    again = load_trajectory_file(path)
    assert again.steps == episode.steps and again.screenshots == episode.screenshots


def test_a_trajectory_saved_again_and_cut_short_leaves_the_earlier_file_whole(tmp_path, episode, monkeypatch):
    from recordlens.core import atomic

    path = save_trajectory_file(episode, tmp_path / "comparison-1.json")
    before = path.read_bytes()

    def killed_before_it_is_in_place(*_args: object, **_kwargs: object) -> None:  # the new bytes written, not moved
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "move_into_place", killed_before_it_is_in_place)
    with pytest.raises(KeyboardInterrupt):
        save_trajectory_file(episode, path)
    assert path.read_bytes() == before and load_trajectory_file(path).steps == episode.steps
    assert not [p for p in path.parent.rglob("*.tmp")]  # nothing half-written left beside it


def test_task_editor_round_trip_and_validation(qapp, tmp_path):
    editor = TaskEditor()
    tasks = editor.load(DEMO_TASKS)
    assert len(tasks) == 12 and editor.table.rowCount() == 12
    assert displayed_rows(editor.table)[0][: len(COLUMNS) - 1] == [
        tasks[0].id, tasks[0].category, tasks[0].instruction, tasks[0].answer, tasks[0].answer_kind,
        ", ".join(tasks[0].normalise)]
    editor.add_task()
    assert editor.table.rowCount() == 13
    target = tmp_path / "tasks.jsonl"
    assert editor.save(target) is None  # the new row has no instruction nor answer yet
    assert not target.exists() and "row 13" in editor.status.text()
    row = 12
    editor.table.item(row, COLUMNS.index("instruction")).setText("What is the newest cs.CV paper?")
    editor.table.item(row, COLUMNS.index("answer")).setText("Graph Neural Fields for Scene Layout")
    editor.table.item(row, COLUMNS.index("normalise")).setText("case, shouting")
    assert editor.save(target) is None and "shouting" in editor.status.text()
    editor.table.item(row, COLUMNS.index("normalise")).setText("case, whitespace")
    assert editor.save(target) == target
    again = load_tasks(target)
    assert again[:12] == tasks and again[12].answer == "Graph Neural Fields for Scene Layout"
    assert again[12].site == tasks[0].site


def test_the_tasks_table_shows_a_dozen_tasks_at_a_laptop_s_size(qapp):
    window = AgentWindow(person="tester")
    try:
        window.resize(1400, 900)
        window.show()
        window.tabs.setCurrentWidget(window.task_editor)
        QApplication.processEvents()
        table = window.task_editor.table
        assert table.rowCount() == 12
        # Rows sized for the instruction column's real width: a few lines each (365 px before)
        assert max(table.rowHeight(r) for r in range(12)) <= 6 * table.fontMetrics().lineSpacing() + 12
        assert sum(table.rowHeight(r) for r in range(12)) <= table.viewport().height()
        url = table.item(0, COLUMNS.index("start_url"))
        assert url.toolTip() == url.text() and url.text().startswith("https://")
    finally:
        window.close()


def test_agent_window_opens_the_demo_site_and_tasks(qapp):
    window = AgentWindow(person="tester")
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        assert window.browser.url == HOME
        assert len(window.panel.tasks) == 12 and window.panel.current_task().id == "lookup-1"
        assert window.recorder.actor == "person:tester"
        assert [window.tabs.tabText(i) for i in range(window.tabs.count())] == ["Site", "Trajectory", "Tasks"]
        [menu] = [a.menu() for a in window.menuBar().actions() if a.menu() is not None]
        items = [a.text() for a in menu.actions()]
        assert items[-1] == "&Close" and "Capture a site from the &web…" in items  # Close stays last
    finally:
        window.close()


def test_the_main_window_opens_the_agent_tools_and_recordings_go_into_its_project(qapp, tmp_path, episode):
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.annotator.settings import Settings
    from recordlens.core.store.project import init_project
    from tests.app.window_helpers import FakeKeyStore

    window = MainWindow(init_project(tmp_path / "project"), settings=Settings(annotator="ana"),
                        settings_file=tmp_path / "settings.json", key_store=FakeKeyStore())
    try:
        menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions() if a.menu()}
        [open_tools] = [a for a in menus["Agent"].actions() if a.text().replace("&", "") == "Agent benchmarks…"]
        open_tools.trigger()
        tools = window.tools.agent_window
        assert tools is not None and tools.isVisible() and tools.recorder.actor == "person:ana"
        assert tools.browser.wait_until_loaded()
        # A finished recording of the chosen task is stored in the project, screenshots included.
        tools.panel.choose(load_tasks(DEMO_TASKS)[0])
        tools._on_recorded(episode)
        [(_, stored)] = window.project.agent.trajectories()
        assert [replace(s, at=None) for s in stored.steps] == [replace(s, at=None) for s in episode.steps]
        assert window.project.agent.screenshot_file(episode.steps[0].screenshot_before).read_bytes() == \
            episode.screenshots[episode.steps[0].screenshot_before]
    finally:
        window.close()
    assert tools.closed


def test_a_stored_trajectory_opens_from_the_picker_with_the_projects_screenshots(qapp, tmp_path, episode):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "project")
    try:
        tasks = {t.id: t for t in load_tasks(DEMO_TASKS)}
        site = project.agent.site_id("demo-site", str(DEMO_SITE))
        row = project.agent.save_task(site, tasks["comparison-1"])
        reference = replace(episode, actor="person:ana", run=None, calls=[])
        reference.screenshots = episode.screenshots
        project.agent.add_trajectory(row, reference)
        run_id = project.agent.add_run("gemini-test", {"memory": "window:4", "browser": "qt", "site": "demo-site"})
        for index in (1, 0):
            stored = replace(episode, run=index, answer=TITLE if index == 0 else "no idea", calls=[])
            stored.screenshots = episode.screenshots
            project.agent.add_trajectory(row, stored, agent_run_id=run_id)
        [(_, first), (second_row, _)] = project.agent.trajectories(agent_run_id=run_id)

        window = AgentWindow(project, site=DEMO_SITE, tasks=DEMO_TASKS)
        try:
            window.show()  # as the app shows it: a hidden view makes no frame, and each screenshot waits its 5 s out
            picker = window.open_stored_trajectory_dialog()
            assert isinstance(picker, StoredTrajectoryPicker) and picker.isVisible()
            groups = [picker.tree.topLevelItem(i).text(0) for i in range(picker.tree.topLevelItemCount())]
            assert groups[0] == "Reference trajectories"
            assert groups[1].startswith(f"Agent run {run_id} · gemini-test · window:4 · qt · demo-site")
            episodes = picker.tree.topLevelItem(1)
            assert [episodes.child(i).text(0) for i in range(episodes.childCount())] == [
                "comparison-1 · run 0", "comparison-1 · run 1"]  # by run index (as eval names it), not stored order
            assert episodes.child(0).text(4) == "correct" and episodes.child(1).text(3) == "no idea"

            picker.select(second_row)
            picker.accept()
            shown = window.viewer.trajectory
            assert window.tabs.currentWidget() is window.viewer
            assert shown.run == 0 and shown.answer == TITLE and not shown.screenshots  # pictures: from the project
            assert [s.action for s in shown.steps] == ["type", "click", "answer"]
            assert window.viewer.timeline.count() == 3
            assert window.viewer.timeline.item(1).text().startswith("2. Click [12]")
            window.viewer.select_step(1)
            assert window.viewer.before._pixmap is not None and window.viewer.after._pixmap is not None
            assert window.viewer._start_url == tasks["comparison-1"].start_url
            assert first.run == 1

            # A real click on "Replay on the site" replays: the steps run in the Site tab, then the viewer is back
            finished: list[object] = []
            window.viewer.replay_finished.connect(finished.append)
            button = window.viewer.replay_button
            window.activateWindow()  # the picker gone, a person's click lands in the window, and activates it
            assert QTest.qWaitForWindowActive(window)
            QTest.mousePress(button, Qt.MouseButton.LeftButton)  # a person's click: a press, then a release later
            QApplication.processEvents()
            QTest.mouseRelease(button, Qt.MouseButton.LeftButton)  # the replay runs in the release
            assert finished and finished[0].ok, finished[0].message
            assert window.tabs.currentWidget() is window.viewer
            assert "all 3 steps replayed" in window.viewer.status.text()
        finally:
            window.close()
    finally:
        project.close()


def test_the_picker_says_when_the_project_has_no_trajectory(qapp, tmp_path):
    from recordlens.core.store.project import init_project

    project = init_project(tmp_path / "empty")
    try:
        picker = StoredTrajectoryPicker(project)
        assert picker.entries == [] and not picker.empty.isHidden() and picker.chosen() is None
        picker.close()
    finally:
        project.close()


def test_a_new_recording_or_another_task_starts_with_an_empty_answer(qapp):
    """The answer typed for one task stayed in the box, and one click stored it as the next task's reference."""
    window = AgentWindow(person="tester")
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        panel = window.panel
        panel.toggle()  # ● Record the first task
        assert window.recorder.recording
        panel.answer_edit.setText("42 kilometres")
        panel.toggle()  # ■ Stop
        panel.toggle()  # ● Record again: a new recording
        assert panel.answer_edit.text() == ""
        panel.answer_edit.setText("42 kilometres")
        panel.toggle()
        panel.task_box.setCurrentIndex(2)  # another task
        assert panel.answer_edit.text() == ""
    finally:
        window.close()


def test_review_candidates_opens_its_window_and_the_shipped_tasks_are_never_overwritten(qapp, tmp_path, monkeypatch):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QPushButton

    from recordlens.annotator.agent.review_queue import ReviewQueue

    editor = TaskEditor()
    try:
        editor.load(DEMO_TASKS)
        monkeypatch.setattr(ReviewQueue, "open_dialog", lambda self: None)  # the file dialog, answered with Cancel
        [review] = [b for b in editor.findChildren(QPushButton) if b.text() == "Review candidates…"]
        QTest.mouseClick(review, Qt.MouseButton.LeftButton)  # the button's `checked` was taken for a path
        assert editor.review is not None and editor.review.isVisible()
        before = DEMO_TASKS.read_bytes()
        asked: list[bool] = []
        monkeypatch.setattr(editor, "save_as_dialog", lambda: asked.append(True))
        editor.table.item(0, COLUMNS.index("answer")).setText("changed")
        editor.save()  # Save on the demo tasks: asks where instead
        assert asked == [True] and DEMO_TASKS.read_bytes() == before
        assert "never changed" in editor.status.text()
    finally:
        editor.close_review()
        editor.close()


def test_another_site_opened_after_the_demo_starts_on_its_own_pages_with_its_own_tasks(qapp, tmp_path):
    """The demo's tasks stayed in the panel and the view opened the demo's start page, "Not in this snapshot"."""
    from tests.app.agent_site import HOME as SHOP_HOME
    from tests.app.agent_site import make_site

    make_site(tmp_path / "shop")
    window = AgentWindow(person="tester")
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        window.open_site(tmp_path / "shop")
        assert window.browser.wait_until_loaded()
        assert window.browser.url == SHOP_HOME
        assert window.panel.tasks == [] and window.panel.current_task() is None  # the demo's start elsewhere
        assert f"site {window.browser.site.name} in {tmp_path / 'shop'}" in window.windowTitle()
        assert len(window.task_editor.tasks()[0]) == 12  # kept in the editor, unsaved edits and all
    finally:
        window.close()
