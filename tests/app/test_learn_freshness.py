"""Learn and the labels as they are now: labels edited while Learn runs are said to be left out of the model as it
ends; Propose says when the learnt model is out of date (pages labelled since, labels changed since), after a
restart too, and nothing more when it is current; quitting while Learn runs asks first, and a quit leaves the model
in place as it was.

On the demo project with 6 of its pages labelled: the fewest from which Learn makes a whole model (two stages) with
no warning of too few pages, in a few seconds. Every step is a key press, as a person labels."""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from recordlens.annotator.labelling.demo_project import open_demo_project
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.extract import training
from recordlens.core.extract.fit_pool import WORKERS_VARIABLE
from recordlens.core.store import (
    Project,
    Provenance,
    labelled_page_names,
    model_freshness,
    open_project,
    project_model_path,
    train_on_project,
)
from tests.app.window_helpers import Answering, key, open_window

pytestmark = [pytest.mark.app, pytest.mark.usefixtures("quick_fits")]


LABELLED = 6  # the demo project's first 6 labelled pages stay labelled; the others are set back to in progress
LEARN = "Learn from this project’s labelled pages (Ctrl+Shift+L)"
LEARNT_FROM_6 = "Propose now follows this project's labels (learned from 6 labelled pages)"
PROPOSING = "proposing with selector, as learnt from this project's labels"


@pytest.fixture(scope="module")
def demo_with_six_labelled(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo") / "project"
    with open_demo_project(folder) as project:
        for name in labelled_page_names(project)[LABELLED:]:
            project.set_status(name, "proposed", Provenance.person("tester"))
        assert len(labelled_page_names(project)) == LABELLED
    return folder


@pytest.fixture
def folder(demo_with_six_labelled: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(demo_with_six_labelled, tmp_path / "project"))


def go_to(window: MainWindow, page: str) -> None:
    """PgDn or PgUp until the page is on show, as a person goes through the list."""
    names = window.page_list.names()
    steps = names.index(page) - names.index(window.page_name)
    for _ in range(abs(steps)):
        key(window, "PgDown" if steps > 0 else "PgUp")
    # Keys pressed before the window's next turn only move the page ahead: on show once it has loaded
    assert window.page_view.wait_until_loaded(30_000)
    assert window.page_name == page


def learn(qtbot, window: MainWindow) -> None:
    key(window, "Ctrl+Shift+L")
    assert window.job is not None, window.statusBar().currentMessage()
    qtbot.waitUntil(lambda: window.job is None, timeout=180_000)


def propose(qtbot, window: MainWindow) -> tuple[str, str]:
    """P on the page on show: what the status bar says as it starts, and as it ends."""
    key(window, "P")
    started = window.statusBar().currentMessage()
    assert window.job is not None, started
    qtbot.waitUntil(lambda: window.job is None, timeout=120_000)
    return started, window.statusBar().currentMessage()


def fits_held(monkeypatch, release: threading.Event, let_go: Callable[[], bool] = lambda: False
              ) -> threading.Event:
    """Learn's fits, in this process, each held until `release` (or `let_go()`); the event returned is set when
    the first fit is reached: every page has been read by then."""
    fitting = threading.Event()
    real_fit = training._fit_task

    def held_fit(task):  # noqa: ANN001, ANN202 - the training's own fit, once let go
        fitting.set()
        deadline = time.monotonic() + 120
        while not (release.is_set() or let_go()) and time.monotonic() < deadline:
            time.sleep(0.02)
        return real_fit(task)

    monkeypatch.setenv(WORKERS_VARIABLE, "1")  # in this process, where the held fit is
    monkeypatch.setattr(training, "_fit_task", held_fit)
    return fitting


def loads_in_this_thread(monkeypatch) -> list[str]:
    """The pages parsed in the interface thread from now on (what makes a Propose slow before it starts)."""
    loaded: list[str] = []
    real_load = Project.load

    def load(project: Project, name: str):  # noqa: ANN202
        if threading.current_thread() is threading.main_thread():
            loaded.append(name)
        return real_load(project, name)

    monkeypatch.setattr(Project, "load", load)
    return loaded


def test_labels_edited_while_learning_are_said_to_be_left_out(qtbot, tmp_path: Path, folder: Path,
                                                              monkeypatch) -> None:
    release = threading.Event()
    fitting = fits_held(monkeypatch, release)
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert window.page_name == "1" and "1" in labelled_page_names(window.project)
        records = len(window.labels)
        key(window, "Ctrl+Shift+L")
        qtbot.waitUntil(fitting.is_set, timeout=120_000)  # every page read: page 1's labels are in the model
        key(window, "J")  # its first record
        key(window, "Del")
        assert len(window.labels) == records - 1
        release.set()
        qtbot.waitUntil(lambda: window.job is None, timeout=180_000)
        assert project_model_path(folder).is_file()
        assert window.statusBar().currentMessage() == (
            "labels of page 1 changed while learning: learn again (Ctrl+Shift+L) to include the change; "
            f"{LEARNT_FROM_6}")
        learn(qtbot, window)  # learnt again: the model follows the labels as they are, and says nothing of them
        assert window.statusBar().currentMessage() == (
            f"{LEARNT_FROM_6}; the earlier learnt model is kept as models/selector.forgotten.json")
    finally:
        release.set()
        window.shutdown()  # first: a window closed while Learn runs would ask, and no one would answer
        window.close()


def test_propose_says_when_the_learnt_model_is_out_of_date_after_a_restart_too(qtbot, tmp_path: Path,
                                                                              folder: Path, monkeypatch) -> None:
    settings = tmp_path / "settings.json"
    out_of_date = ("this project's learnt model is out of date (learnt from 6 of the 7 labelled pages; 1 labelled "
                   f"since): {LEARN} learns it again")
    window = open_window(folder, settings, qtbot=qtbot)
    try:
        learn(qtbot, window)
        assert window.statusBar().currentMessage() == LEARNT_FROM_6
        go_to(window, "4")
        started, ended = propose(qtbot, window)
        assert started == PROPOSING  # current: nothing more is said
        assert "out of date" not in ended, ended
        go_to(window, "3_v1")
        key(window, "L")
        assert window.project.page("3_v1").status == "labelled"
        go_to(window, "4")
        loaded = loads_in_this_thread(monkeypatch)
        started, ended = propose(qtbot, window)
        assert started == f"{PROPOSING}: {out_of_date}"
        assert ended.startswith("done") and ended.endswith(f"; {out_of_date}"), ended  # what it did, then again
        assert loaded == ["3_v1"]  # only the page labelled since is read, the others' digests are remembered
        key(window, "Ctrl+Q")
        assert window.closed
    finally:
        window.shutdown()
        window.close()
    window = open_window(folder, settings, qtbot=qtbot)  # a restart
    try:
        go_to(window, "4")
        loaded.clear()
        started, _ = propose(qtbot, window)
        assert started == f"{PROPOSING}: {out_of_date}"
        assert loaded == []  # fast: no page read before the job starts
        learn(qtbot, window)
        assert window.statusBar().currentMessage() == (
            "Propose now follows this project's labels (learned from 7 labelled pages); the earlier learnt model is "
            "kept as models/selector.forgotten.json")
        started, _ = propose(qtbot, window)
        assert started == PROPOSING
    finally:
        window.shutdown()
        window.close()


def test_quitting_while_learning_asks_first_and_leaves_the_model_in_place(qtbot, tmp_path: Path, folder: Path,
                                                                          monkeypatch) -> None:
    train_on_project(folder)  # the project's model, from its 6 labelled pages
    learnt = project_model_path(folder).read_bytes()
    with open_project(folder) as project:  # a seventh page labelled since: Learn would make another model
        project.set_status("3_v1", "labelled", Provenance.person("tester"))
    release = threading.Event()
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    fitting = fits_held(monkeypatch, release, let_go=lambda: window.jobs.job is None or window.jobs.job.cancelled)
    answering = Answering(Qt.Key.Key_Escape, Qt.Key.Key_Q)  # Keep working (the default, on Esc), then Quit
    try:
        key(window, "Ctrl+Shift+L")
        qtbot.waitUntil(fitting.is_set, timeout=120_000)
        key(window, "Ctrl+Q")
        assert len(answering.asked) == 1
        question, details, buttons = answering.asked[0]
        assert re.fullmatch(r"learning from 7 labelled pages is running \(started \d+ s ago\): quit anyway\?",
                            question), question
        assert details == "No model will be written: Propose still uses this project's earlier learnt model."
        assert sorted(buttons) == ["&Keep working", "&Quit"]
        assert not window.closed and window.isVisible() and window.job is not None  # learning goes on
        window.activateWindow()  # as the window manager gives it back the keys (the offscreen platform does not)
        qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
        key(window, "Ctrl+Q")
        assert len(answering.asked) == 2
        assert window.closed  # quit: the job was cancelled and waited for
        assert project_model_path(folder).read_bytes() == learnt  # the model in place, as it was
        assert not (folder / "models" / "selector.forgotten.json").exists()
        with open_project(folder) as project:
            fresh = model_freshness(project)
            assert fresh is not None and fresh.new == ["3_v1"]
    finally:
        answering.stop()
        release.set()
        window.shutdown()
        window.close()


def test_sigterm_while_learning_quits_without_asking(qtbot, tmp_path: Path, folder: Path, monkeypatch) -> None:
    """A session logging out sends SIGTERM: no one may be there to answer, so nothing is asked (the model in place
    stays, as at a quit)."""
    release = threading.Event()
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    fitting = fits_held(monkeypatch, release, let_go=lambda: window.jobs.job is None or window.jobs.job.cancelled)
    answering = Answering(Qt.Key.Key_Escape)  # would keep the app running, were a question asked
    try:
        key(window, "Ctrl+Shift+L")
        qtbot.waitUntil(fitting.is_set, timeout=120_000)
        window.close_on_terminate()  # what the SIGTERM handler queues
        assert answering.asked == [] and window.closed
        assert not project_model_path(folder).exists()
    finally:
        answering.stop()
        release.set()
        window.shutdown()
        window.close()


@pytest.mark.filterwarnings("error::RuntimeWarning")  # the ended job, deleted meanwhile, is let go quietly
def test_a_question_about_a_learn_that_ends_meanwhile_closes_as_a_yes(qtbot, tmp_path: Path, folder: Path,
                                                                       monkeypatch) -> None:
    """Learn ended while its quit question was on show: the question said "No model will be written" of a model
    written since. It closes itself, and the quit goes on: nothing is left to lose."""
    release = threading.Event()
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    fitting = fits_held(monkeypatch, release)
    asked: list[str] = []

    def let_learning_end_while_asked() -> None:
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and box.isVisible() and not asked:
            asked.append(box.text())
            release.set()

    watcher = QTimer()
    watcher.timeout.connect(let_learning_end_while_asked)
    watcher.start(50)
    try:
        key(window, "Ctrl+Shift+L")
        qtbot.waitUntil(fitting.is_set, timeout=120_000)
        key(window, "Ctrl+Q")
        assert len(asked) == 1 and asked[0].endswith("quit anyway?")
        assert window.closed
        assert project_model_path(folder).is_file()  # Learn ended whole, before the quit
    finally:
        watcher.stop()
        release.set()
        window.shutdown()
        window.close()


def test_opening_another_project_while_learning_asks_first(qtbot, tmp_path: Path, folder: Path,
                                                            monkeypatch) -> None:
    release = threading.Event()
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    fitting = fits_held(monkeypatch, release, let_go=lambda: window.jobs.job is None or window.jobs.job.cancelled)
    answering = Answering(Qt.Key.Key_Escape)  # Keep working: no folder is asked for, learning goes on
    try:
        key(window, "Ctrl+Shift+L")
        qtbot.waitUntil(fitting.is_set, timeout=120_000)
        window.do_open_project()
        assert len(answering.asked) == 1
        question, _, buttons = answering.asked[0]
        assert question.endswith("open another project anyway?") and "&Open another" in buttons
        assert window.job is not None and window.project.root == folder
    finally:
        answering.stop()
        release.set()
        window.shutdown()
        window.close()
