"""What keeps a colour readable across a theme switch (`contrast.py`: `keep_as_warning`, `keep_readable`,
`show_readable`, `ink_cell`, `tint_cell`, `when_the_palette_changes`) makes no reference cycle through a Qt object:
a window closed and let go is freed at once, and the GUI thread's collector (`main_thread_gc.py`) finds nothing of
it to free. A first version's watchers held their label and its window in a closure: the settings dialog, let go,
was left in a cycle, and the collector freeing it crashed the process (a segmentation fault after
tests/app/test_adjudicate_team.py's settings test, every run). Qt deleted the dialog's label, a child of the dialog,
while Python still held it through the closure and PySide counted it as its form layout's (`QFormLayout.addRow`).
The crash is tried in a process of its own, so that it fails this test instead of ending the test run."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QCheckBox, QDialog, QFormLayout, QLabel, QListWidget, QWidget

from recordlens.annotator.qt.contrast import (
    ink_cell,
    keep_as_warning,
    keep_readable,
    show_readable,
    tint_cell,
    when_the_palette_changes,
)
from recordlens.annotator.qt.widgets import dot_that_shows, show_focus

pytestmark = pytest.mark.app

ROOT = Path(__file__).resolve().parents[2]
# What a failing test here left in a cycle, held for good: the collector freeing it would crash the test run.
NEVER_FREED: list[object] = []

# Each case builds a window as the app does, shows it, closes it and lets it go; then the GUI thread's collector
# collects, as `main_thread_gc` does while the app runs (and the test run's teardown after each test).
SCRIPT = r'''
import sys

from PySide6.QtWidgets import QApplication, QDialog, QFormLayout, QLabel, QListWidget, QListWidgetItem

from recordlens.annotator.qt.contrast import ink_cell, keep_as_warning, keep_readable, show_readable, tint_cell
from recordlens.annotator.qt.main_thread_gc import collect_in_the_gui_thread


def form_with(label):
    """A dialog holding `label` as the settings dialog holds its warnings: a form's row without a name."""
    dialog = QDialog()
    QFormLayout(dialog).addRow("", label)
    return dialog


def warning():
    label = QLabel("a warning")
    dialog = form_with(label)
    keep_as_warning(label, bold=True)
    return dialog


def readable():
    label = QLabel()
    dialog = form_with(label)
    keep_readable(label, "#868e96")
    return dialog


def markup():
    label = QLabel()
    dialog = form_with(label)
    show_readable(label, "<span style='color:#c92a2a'>wrong</span>")
    show_readable(label, "<span style='color:#2b8a3e'>correct</span>")
    return dialog


def cells():
    view = QListWidget()
    dialog = form_with(view)
    for text in ("failed", "replayed"):
        view.addItem(QListWidgetItem(text))
    ink_cell(view, view.model().index(0, 0), "#c92a2a")
    tint_cell(view, view.model().index(1, 0), "#e6fcf5")
    return dialog


def trajectory_viewer():
    from recordlens.annotator.agent.trajectory_viewer import TrajectoryViewer
    from recordlens.core.agent.actions import Step
    from recordlens.core.agent.model import Trajectory

    steps = [Step(action="click", url="https://papers.example.org/", raw="Action: Click [99]",
                  error="no element [99] on the page", seconds=1.5),
             Step(action="answer", value="Nobody", url="https://papers.example.org/", seconds=0.5)]
    viewer = TrajectoryViewer()
    viewer.set_trajectory(Trajectory(task_id="lookup-1", actor="agent:scripted", steps=steps, answer="Nobody",
                                     success=False, run=0, stop="answer"))
    return viewer


def task_editor():
    from PySide6.QtWidgets import QTableWidgetItem

    from recordlens.annotator.agent.task_editor import COLUMNS, TaskEditor
    from tests.app.agent_helpers import DEMO_TASKS

    editor = TaskEditor()
    editor.load(DEMO_TASKS)
    bad = editor.table.rowCount()
    editor.table.insertRow(bad)  # a row with no id: bad, tinted once checked
    editor.table.setItem(bad, COLUMNS.index("instruction"), QTableWidgetItem("A task being written"))
    editor.tasks()
    return editor


def review_queue():
    import tempfile
    from dataclasses import replace
    from pathlib import Path

    from recordlens.annotator.agent.review_queue import ReviewQueue
    from recordlens.core.agent.candidates import Candidate, save_candidates
    from recordlens.core.agent.tasks import load_tasks
    from tests.app.agent_helpers import DEMO_TASKS

    task = load_tasks(DEMO_TASKS)[0]
    path = Path(tempfile.mkdtemp()) / "candidates.jsonl"
    save_candidates(path, [Candidate(task=replace(task, id="gen-1", answer="no page says this"), seeds=(task.id,),
                                     model="fake", evidence="")])  # in no saved page's text: flagged, tinted
    queue = ReviewQueue()
    queue.load(path)
    return queue


app = QApplication([])
collector = collect_in_the_gui_thread(app)  # automatic collection off, as while the app runs
window = globals()[sys.argv[1]]()
window.show()
app.processEvents()
window.close()
app.processEvents()
del window
collector.stop()  # what is garbage now, collected in this (the GUI) thread
print("collected")
'''

CASES = ["warning", "readable", "markup", "cells", "trajectory_viewer", "task_editor", "review_queue"]


@pytest.mark.parametrize("case", CASES)
def test_a_closed_window_is_collected_without_a_crash(case: str) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", SCRIPT, case], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0 and "collected" in done.stdout, (done.returncode, done.stderr[-3000:])


@pytest.fixture
def no_automatic_collection() -> Iterator[None]:
    """Only reference counting frees what a test lets go (the app's collector, off meanwhile, never ran either)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was:
        gc.enable()


def freed_when_let_go(build) -> bool:  # noqa: ANN001 - a function making a widget, shown then closed
    widget: QWidget | None = build()
    widget.show()
    widget.close()
    gone = weakref.ref(widget)
    widget = None
    if gone() is None:
        return True
    NEVER_FREED.append(gone())
    return False


def labelled(label: QLabel) -> QDialog:
    dialog = QDialog()
    QFormLayout(dialog).addRow("", label)
    return dialog


def test_a_window_with_watched_colours_is_freed_by_reference_counting_alone(qapp, no_automatic_collection) -> None:
    def with_a_warning() -> QDialog:
        label = QLabel("a warning")
        dialog = labelled(label)
        keep_as_warning(label)
        keep_readable(label, "#868e96")
        return dialog

    def with_markup() -> QDialog:
        label = QLabel()
        dialog = labelled(label)
        show_readable(label, "<span style='color:#c92a2a'>wrong</span>")
        return dialog

    def with_cells() -> QDialog:
        view = QListWidget()
        view.addItem("failed")
        dialog = QDialog()
        QFormLayout(dialog).addRow("", view)
        ink_cell(view, view.model().index(0, 0), "#c92a2a")
        tint_cell(view, view.model().index(0, 0), "#ffe3e3")
        return dialog

    def with_a_framed_list_and_a_dot() -> QDialog:
        view = QListWidget()
        toggle = QCheckBox("matched")
        dialog = QDialog()
        form = QFormLayout(dialog)
        form.addRow("", view)
        form.addRow("", toggle)
        show_focus(view)  # the framed lists' theme watch (widgets.py)
        dot_that_shows(toggle, "#2f9e44")  # a legend's dot that follows the theme
        return dialog

    for build in (with_a_warning, with_markup, with_cells, with_a_framed_list_and_a_dot):
        assert freed_when_let_go(build), f"{build.__name__}: left in a reference cycle, for the collector to free"


def test_a_watch_holding_a_qt_object_is_refused(qapp) -> None:
    """What a watch calls gets the object it draws, as Qt holds it: given its own (a bound method, a closure over a
    widget), it would make the cycle that crashed the collector."""
    label = QLabel()
    dialog = labelled(label)
    NEVER_FREED.append(dialog)  # a watch made all the same (the test failing) makes a cycle
    with pytest.raises(ValueError, match="cycle"):
        when_the_palette_changes(dialog, label.update, owner=label)
    with pytest.raises(ValueError, match="cycle"):
        when_the_palette_changes(dialog, lambda _owner: label.update(), owner=label)
