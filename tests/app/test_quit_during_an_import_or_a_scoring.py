"""Ctrl+Q while a job of the window runs on its project. An import of a folder asks first, as Learn does, saying
how many of its pages are in so far and that the others will not be (Keep working goes on with it; Quit stops it
after the page under way, those imported staying). Whatever the job, its end (and a page's proposals), which come
once the window has closed its project, show nothing and raise nothing (they did: "Cannot operate on a closed
database")."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.propose import ProposeWorker
from recordlens.core import store
from recordlens.core.store import importer, open_project
from tests.app.review_helpers import half_run
from tests.app.window_helpers import Answering, key

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Page {n}</title></head><body>
<ul><li><b>One {n}</b> <i>$1</i></li><li><b>Two {n}</b> <i>$2</i></li></ul></body></html>"""
PAGES = 6
HELD_AT = 3  # the import is held on its third page, two being in


def held(reached: threading.Event, let_go: list[Callable[[], bool]]) -> None:
    """Called in the job's thread: says it got there, then waits until let go (at most two minutes). How it is let
    go (`let_go[0]`) is read on each look: the job's thread may get there before the test has said it."""
    reached.set()
    deadline = time.monotonic() + 120
    while not (let_go and let_go[0]()) and time.monotonic() < deadline:
        time.sleep(0.02)


def cancelled(window: MainWindow) -> Callable[[], bool]:
    job = window.jobs.job
    return lambda: job is None or job.cancelled


def test_quitting_during_an_import_asks_first_and_keeps_the_pages_imported_so_far(
        qtbot, window: MainWindow, project_dir: Path, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    for n in range(1, PAGES + 1):
        (folder / f"imported-{n}.html").write_text(PAGE.format(n=n), encoding="utf-8")
    before = len(window.project.pages())
    reached = threading.Event()
    let_go: list[Callable[[], bool]] = []
    real_import_page = importer.import_page
    calls = 0

    def import_page(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - the importer's own
        nonlocal calls
        calls += 1
        if calls == HELD_AT:
            held(reached, let_go)
        return real_import_page(*args, **kwargs)

    monkeypatch.setattr(importer, "import_page", import_page)
    answering = Answering(Qt.Key.Key_Escape, Qt.Key.Key_Q)  # Keep working (the default, on Esc), then Quit
    try:
        with qtbot.capture_exceptions() as raised:
            assert window.importing.import_paths([folder]) is not None
            let_go.append(cancelled(window))
            qtbot.waitUntil(reached.is_set, timeout=60_000)
            key(window, "Ctrl+Q")
            assert len(answering.asked) == 1
            question, details, _ = answering.asked[0]
            assert re.fullmatch(r"importing downloads is running \(started \d+ s ago\): quit anyway\?",
                                question), question
            assert details == (
                f"The import stops after the page under way: {HELD_AT} of the {PAGES} pages found in downloads are "
                f"gone through by then (imported, each whole, and kept); the other {PAGES - HELD_AT} are not "
                "imported: importing the same again brings them in (the pages already in the project are skipped).")
            assert not window.closed and window.job is not None  # the import goes on
            window.activateWindow()  # as the window manager gives it back the keys (the offscreen platform does not)
            qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5_000)
            key(window, "Ctrl+Q")
            assert len(answering.asked) == 2
            assert window.closed
            qtbot.wait(300)  # the job's end, queued as its thread ended, is delivered
        assert raised == []
    finally:
        answering.timer.stop()
        window.shutdown()
    with open_project(project_dir) as project:
        assert len(project.pages()) == before + HELD_AT  # the page under way finished; the rest not imported


def test_quitting_during_a_scoring_raises_nothing_as_it_ends(qtbot, window: MainWindow, monkeypatch) -> None:
    run = half_run(window.project)
    reached = threading.Event()
    let_go: list[Callable[[], bool]] = []
    real_score = store.score_stored_run

    def score_stored_run(project, run_id, progress):  # noqa: ANN001, ANN202 - the store's own
        def each(names):  # noqa: ANN001, ANN202
            for name in progress(names):
                held(reached, let_go)
                yield name
        return real_score(project, run_id, each)

    monkeypatch.setattr(store, "score_stored_run", score_stored_run)
    with qtbot.capture_exceptions() as raised:
        window.reviewing.score_run(run)
        let_go.append(cancelled(window))
        qtbot.waitUntil(reached.is_set, timeout=60_000)
        key(window, "Ctrl+Q")  # nothing is asked: a scoring is all or nothing, made again in seconds
        assert window.closed
        qtbot.wait(300)
    assert raised == []


def test_proposals_that_come_as_the_window_quits_raise_nothing(qtbot, window: MainWindow, monkeypatch) -> None:
    """A page's proposals sent as the quit cancels Propose reach the window after it closed its project."""
    reached = threading.Event()
    let_go: list[Callable[[], bool]] = []
    real_answered = ProposeWorker._answered

    def answered(worker: ProposeWorker, *args):  # noqa: ANN002, ANN202 - the worker's own
        held(reached, let_go)  # until the quit cancels the job: the proposals are sent after it
        return real_answered(worker, *args)

    monkeypatch.setattr(ProposeWorker, "_answered", answered)
    with qtbot.capture_exceptions() as raised:
        assert window.propose([window.page_name]) is not None
        let_go.append(cancelled(window))
        qtbot.waitUntil(reached.is_set, timeout=120_000)
        key(window, "Ctrl+Q")
        assert window.closed
        qtbot.wait(300)
    assert raised == []
