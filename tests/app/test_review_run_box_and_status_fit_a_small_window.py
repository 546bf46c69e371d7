"""In a 1024×700 window the Review tab's run box ends the chosen run's line in "…" (its tip holds the whole), where
it cut it mid-word at its edge; and a long status message ends in "…" a gap before the blocked-requests count,
also as the count grows, where its "…" ran into the count."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from tests.app.review_helpers import half_run
from tests.app.window_helpers import said

pytestmark = pytest.mark.app

LONG = ("compared bea's labels with the project's on 12 pages both labelled: P 0.969, R 0.844, F1 0.897; they "
        "disagree on 2 of them (W opens the worst), and more words than a status bar of this width can hold")


@pytest.fixture
def small(window):
    window.resize(1024, 700)
    QApplication.processEvents()
    assert (window.width(), window.height()) == (1024, 700)
    return window


def test_the_run_box_elides_the_chosen_line_and_tips_the_whole(qtbot, small):
    window = small
    half_run(window.project)
    run = half_run(window.project)  # two runs of one method: each line says when it started and where from
    window.start_review(run)
    qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
    box = window.review_panel.runs
    whole = box.currentText()
    elided = box.shown_text()
    assert elided != whole and elided.endswith("…") and whole.startswith(elided[:-1]), (whole, elided)
    assert whole in box.toolTip()
    drawn = box.grab().toImage()
    box.setItemText(box.currentIndex(), elided)  # what the box must look like: the line's start and "…"
    try:
        assert box.grab().toImage() == drawn, "the run box draws its line cut at its edge, not elided"
    finally:
        box.setItemText(box.currentIndex(), whole)


def message_end_and_count(window) -> tuple[int, int]:
    """Where the status message drawn ends, and where the blocked-requests count starts (the first permanent
    widget on show here), once the layout pass under way is over but before any timer runs."""
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    bar = window.statusBar()
    first = next(w for w in (window.jobs.progress_bar, window.zoom.label, window.blocked_label) if w.isVisible())
    assert first is window.blocked_label
    return 6 + bar.fontMetrics().horizontalAdvance(bar.shown_text()), first.x()


def test_a_long_message_ends_a_gap_before_the_blocked_count_also_as_it_grows(qtbot, small):
    window = small
    window.message(LONG, 15000)
    bar = window.statusBar()
    assert said(window) == LONG and bar.shown_text().endswith("…")
    gap = bar.fontMetrics().horizontalAdvance("  ")  # two spaces: the message and the count read apart
    end, count = message_end_and_count(window)
    assert end + gap <= count, (end, count, bar.shown_text())
    window.blocked_label.setText("123456 requests blocked")  # the count grows leftwards under the message
    end, count = message_end_and_count(window)
    assert end + gap <= count, (end, count, bar.shown_text())
    assert bar.toolTip().startswith(LONG)
    assert bar.shown_text().endswith("…") and LONG.startswith(bar.shown_text()[:-1])
