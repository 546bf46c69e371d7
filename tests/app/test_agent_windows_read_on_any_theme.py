"""The agent windows' colours read on the theme in use, and follow a theme switched while a window is on show: the
trajectory viewer's grey words (a missing screenshot, a detail's name, a cut episode's "not scored"), its red and
green words (a wrong answer, a failed step, a replay that failed or went through), its tinted rows (a step replayed,
the step a replay could not carry out) and the grey line at a screenshot's edge (a graphic: at 3:1), the picker's
grey rows (not counted) and red verdicts, the task editor's bad row and the review queue's flagged one. They were
fixed colours chosen on white: the grey read at 2.89:1 on a light window (under 4.5:1), the red and green at 2.3 to
2.9:1 on a dark one, and the pale rows kept a dark theme's light text on a light pink or mint (about 1.1:1). Each is
now its colour in the shade of its hue that reads where it is drawn, a tint laid on the theme's rows as it lies on
white (its hue kept), and all of it worked out again when the theme switches."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPalette
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTableWidgetItem, QWidget

from recordlens.annotator.agent.review_queue import FLAGGED, ReviewQueue
from recordlens.annotator.agent.task_editor import BAD_ROW, COLUMNS, TaskEditor
from recordlens.annotator.agent.trajectory_viewer import (
    FAILED_BACKGROUND,
    REPLAYED_BACKGROUND,
    StoredTrajectoryPicker,
    TrajectoryViewer,
)
from recordlens.annotator.qt.contrast import GRAPHICS, READABLE, contrast
from recordlens.core.agent.actions import Step
from recordlens.core.agent.candidates import Candidate, save_candidates
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.targets import Target
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.store.project import init_project
from tests.app.agent_helpers import DEMO_REFERENCE, DEMO_SITE, DEMO_TASKS
from tests.app.themes import DARK, LIGHT, Theme, switch_to, theme_put_back

pytestmark = pytest.mark.app

HUE_KEPT = 6  # degrees a tint's hue may stray from its pastel's on another theme's rows (whole bytes per channel)
TINT_APART = 1.5  # the most contrast a tint has with the rows it lies among (the pastels have 1.1 to 1.2 on white)
COLOUR = re.compile(r"(?<![\w-])color\s*:\s*(#[0-9a-fA-F]{6})")
ROLE = QPalette.ColorRole


@pytest.fixture(params=[(LIGHT,), (DARK,), (LIGHT, DARK), (DARK, LIGHT)],
                ids=["light", "dark", "light to dark", "dark to light"])
def themes(request) -> Iterator[tuple[Theme, ...]]:
    """The theme the windows are opened in, and the one switched to while they are on show (if any); the session's
    palette back after."""
    with theme_put_back():
        switch_to(request.param[0])
        yield request.param


def on_show(qtbot, widget: QWidget) -> QWidget:  # noqa: ANN001
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def then(themes: tuple[Theme, ...]) -> Theme:
    """Switch to the theme the windows end in (while they are on show), and give it."""
    if len(themes) > 1:
        switch_to(themes[1])
    QApplication.processEvents()
    return themes[-1]


def written_colours(label: QLabel) -> list[QColor]:
    """The colours a label's text is drawn in: those its rich text and its style sheet name (none: the theme's)."""
    return [QColor(found) for found in COLOUR.findall(label.text() + " " + label.styleSheet())]


def drawn_on(label: QLabel) -> QColor:
    """What a label's text is drawn on: the window of the widget holding it (a label fills no background)."""
    return (label.parentWidget() or label).palette().color(ROLE.Window)


def assert_label_reads(label: QLabel, theme: Theme, *, colours: int) -> None:
    background = drawn_on(label)
    assert background == QColor(theme[3]), background.name()  # the window followed the theme
    found = written_colours(label)
    assert len(found) >= colours, (label.text(), label.styleSheet())
    for colour in found:
        assert contrast(colour, background) >= READABLE, (label.text(), colour.name(), background.name())


def is_set(brush: QBrush) -> bool:
    """Whether a cell's brush is its own (else the view draws the theme's)."""
    return brush.style() != Qt.BrushStyle.NoBrush


def cell_colours(view: QAbstractItemView, foreground: QBrush, background: QBrush) -> tuple[QColor, list[QColor]]:
    """A cell's text colour and what it may be drawn on: its tint, or the view's rows (either of the alternate
    ones), from the cell's brushes (a brush not set: the theme's)."""
    palette = view.palette()
    ink = foreground.color() if is_set(foreground) else palette.color(ROLE.Text)
    if is_set(background):
        return ink, [background.color()]
    return ink, [palette.color(ROLE.Base), palette.color(ROLE.AlternateBase)]


def assert_cell_reads(view: QAbstractItemView, theme: Theme, foreground: QBrush, background: QBrush,
                      what: str) -> None:
    assert view.palette().color(ROLE.Base) == QColor(theme[0]), what  # the rows followed the theme
    ink, under = cell_colours(view, foreground, background)
    for colour in under:
        assert contrast(ink, colour) >= READABLE, (what, ink.name(), colour.name())


def assert_tinted(view: QAbstractItemView, background: QBrush, pastel: QColor, what: str) -> None:
    """The cell is tinted, in its pastel's hue (its meaning kept), and a tint of the theme's rows: apart from them,
    yet close (a light row among a dark theme's, or a dark one among a light theme's, is no tint of them)."""
    assert is_set(background), what
    tint, rows = background.color(), view.palette().color(ROLE.Base)
    assert tint != rows and contrast(tint, rows) < TINT_APART, (what, tint.name(), rows.name())
    apart = abs(tint.hslHue() - pastel.hslHue()) % 360
    assert min(apart, 360 - apart) <= HUE_KEPT, (what, tint.name(), pastel.name())


# -- the trajectory viewer -------------------------------------------------------------------------------------------


def reference() -> Trajectory:
    """The demo's reference of lookup-1 (three steps, replayable on the demo site), judged right."""
    found = Trajectory.from_dict(json.loads((DEMO_REFERENCE / "lookup-1.json").read_text(encoding="utf-8")))
    return replace(found, success=True)


def gone(trajectory: Trajectory) -> Trajectory:
    """`trajectory` with its second step's target gone from the site: a replay fails there."""
    lost = Target(label=7, xpath="/body[1]/main[1]/div[9]/a[1]", text="A paper never saved", role="link",
                  name="A paper never saved")
    steps = [trajectory.steps[0], replace(trajectory.steps[1], target=lost), *trajectory.steps[2:]]
    return replace(trajectory, steps=steps)


def failed_episode(*, stop: str = "answer") -> Trajectory:
    """An agent's episode whose first step failed (a label the page does not have) and whose answer is wrong."""
    steps = [Step(action="click", url="https://papers.example.org/", raw="Action: Click [99]",
                  error="no element [99] on the page", seconds=1.5),
             Step(action="answer", value="Nobody", url="https://papers.example.org/", seconds=0.5)]
    return Trajectory(task_id="lookup-1", actor="agent:scripted", steps=steps, answer="Nobody", success=False, run=0,
                      stop=stop)


@pytest.fixture(scope="module")
def site_browser() -> HtmlSiteBrowser:
    return HtmlSiteBrowser(build_site(DEMO_SITE, write=False))


def viewer_of(qtbot, trajectory: Trajectory, browser: HtmlSiteBrowser | None = None) -> TrajectoryViewer:  # noqa: ANN001
    viewer = TrajectoryViewer()
    viewer.resize(1100, 700)
    on_show(qtbot, viewer)
    viewer.set_trajectory(trajectory)
    if browser is not None:
        viewer.set_replay_browser(browser)
    return viewer


def test_the_viewers_words_read_on_the_theme(qtbot, themes, site_browser) -> None:
    replayed = viewer_of(qtbot, reference(), site_browser)
    assert replayed.replay().ok
    failed = viewer_of(qtbot, gone(reference()), site_browser)
    assert failed.replay().failed_step == 1
    wrong = viewer_of(qtbot, failed_episode())
    cut = viewer_of(qtbot, failed_episode(stop="model budget"))
    theme = then(themes)

    assert_label_reads(replayed.title, theme, colours=1)  # "matches the gold answer", green
    assert_label_reads(replayed.status, theme, colours=1)  # ✓ all steps replayed, green
    assert_label_reads(failed.status, theme, colours=1)  # ✗ step 2 failed, red
    assert_label_reads(wrong.title, theme, colours=1)  # "wrong", red
    assert_label_reads(cut.title, theme, colours=1)  # "cut (model budget): not scored", grey
    assert_label_reads(wrong.details, theme, colours=4)  # each detail's name grey, the step's error red
    for picture in (replayed.before, replayed.after):  # the reference keeps no screenshot: "no screenshot", grey
        assert picture.text().startswith("no screenshot")
        assert_label_reads(picture, theme, colours=1)


def white_page() -> bytes:
    """A screenshot of a white page, as large as a picture of a page is (no stand-in)."""
    image = QImage(320, 200, QImage.Format.Format_RGB32)
    image.fill(QColor("#ffffff"))
    held = QBuffer()
    held.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(held, "PNG")
    return bytes(held.data())


def test_the_screenshots_edge_shows_on_the_window(qtbot, themes) -> None:
    """The grey line at a screenshot's edge tells where a page as light as the window ends: at 3:1 on it."""
    shown = reference()
    shown.steps[0] = replace(shown.steps[0], screenshot_before="white", screenshot_after="white")
    page = white_page()
    viewer = TrajectoryViewer()
    viewer.resize(1100, 700)
    on_show(qtbot, viewer)
    viewer.set_trajectory(shown, screenshots=lambda _digest: page)
    theme = then(themes)

    for picture in (viewer.before, viewer.after):
        window = picture.parentWidget().palette().color(ROLE.Window)
        assert window == QColor(theme[3])
        drawn = picture._pixmap.toImage()
        edge = drawn.pixelColor(1, drawn.height() // 2)
        assert edge != QColor("#ffffff") and contrast(edge, window) >= GRAPHICS, (edge.name(), window.name())


def test_the_viewers_rows_read_on_the_theme(qtbot, themes, site_browser) -> None:
    replayed = viewer_of(qtbot, reference(), site_browser)
    assert replayed.replay().ok
    failed = viewer_of(qtbot, gone(reference()), site_browser)
    assert failed.replay().failed_step == 1
    wrong = viewer_of(qtbot, failed_episode())
    theme = then(themes)

    for viewer, row, pastel in ((replayed, 0, REPLAYED_BACKGROUND), (replayed, 2, REPLAYED_BACKGROUND),
                                (failed, 0, REPLAYED_BACKGROUND), (failed, 1, FAILED_BACKGROUND)):
        item = viewer.timeline.item(row)
        what = f"row {row}, tinted {pastel.name()}"
        assert_tinted(viewer.timeline, item.background(), pastel, what)
        assert_cell_reads(viewer.timeline, theme, item.foreground(), item.background(), what)
    step = wrong.timeline.item(0)  # the failed step, red
    assert is_set(step.foreground()) and step.foreground().color().hslHue() == QColor("#c92a2a").hslHue()
    assert_cell_reads(wrong.timeline, theme, step.foreground(), step.background(), "the failed step")


def test_the_pickers_grey_and_red_read_on_the_theme(qtbot, themes, tmp_path) -> None:
    project = init_project(tmp_path / "project")
    try:
        task = Task(id="lookup-1", instruction="Who wrote it?", answer="Ilse Marrow",
                    start_url="https://papers.example.org/")
        row = project.agent.save_task(project.agent.site_id("demo-site"), task)
        answered = [Step(action="answer", value="Someone Else", url=task.start_url, at="2026-01-02T10:00:00+00:00")]
        wrong = project.agent.add_trajectory(row, Trajectory(task_id=task.id, actor="person:ana", steps=answered,
                                                             answer="Someone Else", stop="answer"))
        stopped = project.agent.add_trajectory(row, Trajectory(task_id=task.id, actor="person:ana", steps=[
            Step(action="wait", url=task.start_url, at="2026-01-02T10:01:00+00:00")]))
        picker = on_show(qtbot, StoredTrajectoryPicker(project))
        theme = then(themes)

        result = picker.COLUMNS.index("Result")
        verdict = picker.items[wrong]
        assert verdict.text(result) == "answer does NOT match" and is_set(verdict.foreground(result))
        assert_cell_reads(picker.tree, theme, verdict.foreground(result), verdict.background(result), "red verdict")
        grey = picker.items[stopped]
        for column in range(len(picker.COLUMNS)):  # not used: greyed, every cell
            assert is_set(grey.foreground(column)), column
            assert_cell_reads(picker.tree, theme, grey.foreground(column), grey.background(column), f"grey {column}")
        picker.close()
    finally:
        project.close()


# -- the task editor and the review queue ----------------------------------------------------------------------------


def test_a_bad_task_rows_text_reads_on_its_tint(qtbot, themes) -> None:
    editor = TaskEditor()
    editor.load(DEMO_TASKS)
    bad = editor.table.rowCount()
    editor.table.insertRow(bad)  # a row with no id: bad
    editor.table.setItem(bad, COLUMNS.index("instruction"), QTableWidgetItem("A task being written"))
    on_show(qtbot, editor)
    assert editor.tasks()[1]  # checked: the bad row is tinted
    theme = then(themes)

    item = editor.table.item(bad, COLUMNS.index("instruction"))
    assert_tinted(editor.table, item.background(), BAD_ROW, "the bad row")
    assert_cell_reads(editor.table, theme, item.foreground(), item.background(), "the bad row")
    good = editor.table.item(0, COLUMNS.index("instruction"))
    assert not is_set(good.background())  # a good row keeps the theme's rows
    editor.close()


def test_a_flagged_candidates_text_reads_on_its_tint(qtbot, themes, tmp_path: Path) -> None:
    task = load_tasks(DEMO_TASKS)[0]
    path = tmp_path / "candidates.jsonl"
    save_candidates(path, [Candidate(task=replace(task, id="gen-1", answer="no page says this"), seeds=(task.id,),
                                     model="fake", evidence=""),  # checked: in no saved page's text
                           Candidate(task=replace(task, id="gen-2"), seeds=(task.id,), model="fake",
                                     evidence=task.start_url)])
    queue = ReviewQueue()
    queue.load(path)
    on_show(qtbot, queue)
    theme = then(themes)

    for column in range(queue.table.columnCount()):
        item = queue.table.item(0, column)
        assert_tinted(queue.table, item.background(), FLAGGED, f"flagged, column {column}")
        assert_cell_reads(queue.table, theme, item.foreground(), item.background(), f"flagged, column {column}")
    assert not is_set(queue.table.item(1, 0).background())
    queue.close()
