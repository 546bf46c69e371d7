"""Review of another annotator's label set compares them with the project's labels in the background. When that
comparison failed (a page's copy that cannot be read, a database that refuses), the Review tab went on saying
"comparing every page…" and W "still comparing" for ever, and nothing said what had failed. The failure is now said
where the comparison's figures would be, in the status bar and by W, with the page it failed on when it was on
one; the page on show is reviewed still, and choosing the annotator again in the run list compares again.

On the demo project, bea labelled pages 1 and 2 (page 2 as the project did, but for its last item)."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.test_review_says_where_w_and_decisions_leave_off import two_pages_disagreeing
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

AGAIN = "choose bea in the Review tab again to compare again"


def start_comparing(qtbot, window: MainWindow) -> None:
    """Review of bea's labels chosen, and waited for until its comparison ends."""
    window.start_review("annotator:bea")
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)


def choose_in_the_run_list(qtbot, window: MainWindow, choice: str) -> None:
    """The run list opened, then a click on the line of `choice` in it, as a person chooses (the line on show
    too)."""
    runs = window.review_panel.runs
    runs.showPopup()  # the person opens the list
    qtbot.waitUntil(runs.view().isVisible, timeout=5_000)
    view = runs.view()
    line = view.model().index(runs.findData(choice), 0)
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(line).center())
    qtbot.waitUntil(lambda: not runs.view().isVisible(), timeout=5_000)
    window.activateWindow()  # the list's popup gave the keys back (the offscreen platform leaves it to us)
    qtbot.waitUntil(window.isActiveWindow, timeout=5_000)


def test_a_comparison_that_fails_on_a_page_is_said_and_choosing_again_compares_again(qtbot, window) -> None:
    two_pages_disagreeing(window)
    copy = window.project.snapshot_file("2")
    kept = copy.with_name(copy.name + ".aside")
    copy.rename(kept)
    copy.mkdir()  # the copy of page 2 cannot be read
    start_comparing(qtbot, window)
    failed = "comparing bea's labels with the project's failed on page 2: "
    # said once the job's own end ("failed: …") is: what failed, and where
    qtbot.waitUntil(lambda: said(window).startswith(failed), timeout=5_000)
    assert said(window).endswith(f"it is a folder, not a file; {AGAIN}"), said(window)
    figures = window.review_panel.run_figures.text()
    assert "comparing every page" not in figures, figures
    assert failed in figures and figures.endswith(f"(the page on show is reviewed as it is): {AGAIN}"), figures
    assert window.review_panel.records.count() > 0  # page 1's review, as bea labelled it
    key(window, "W")
    assert said(window).startswith(failed), said(window)

    copy.rmdir()
    kept.rename(copy)  # the copy back: bea chosen again is compared again, and W goes on
    choose_in_the_run_list(qtbot, window, "annotator:bea")  # the line on show, chosen again
    qtbot.waitUntil(lambda: "bea" in window.reviewing.agreements and window.job is None, timeout=20_000)
    assert "failed" not in window.review_panel.run_figures.text()
    key(window, "W")
    qtbot.waitUntil(lambda: said(window).startswith("W: page 2,"), timeout=10_000)


def test_a_comparison_the_database_refuses_is_said_without_a_page(qtbot, window, monkeypatch) -> None:
    from recordlens.annotator.labelling import review_controller

    def refused(*_args: object, **_kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    two_pages_disagreeing(window)
    monkeypatch.setattr(review_controller, "project_agreement", refused)  # before any page is compared
    start_comparing(qtbot, window)
    failed = "comparing bea's labels with the project's failed: the project's database: disk I/O error"
    qtbot.waitUntil(lambda: said(window) == f"{failed}; {AGAIN}", timeout=5_000)
    assert window.review_panel.run_figures.text().splitlines()[1:] == [
        failed, f"no means nor worst pages until they are compared (the page on show is reviewed as it is): {AGAIN}"]
    key(window, "W")
    assert said(window) == f"{failed}; {AGAIN}", said(window)
