"""What a day of real labelling showed (issue 12): each bug has its test here, on the main window with a real
project, real keys and real pointer events."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app import test_main_window as main_tests

# The main window's fixtures: a project of the demo product grid (page 1, labelled) and a plain list (page 2).
project_dir = main_tests.project_dir
window = main_tests.window

pytestmark = pytest.mark.app


def key(window, sequence: str) -> None:
    QTest.keySequence(window, sequence)


def test_rejecting_a_rejected_record_is_no_edit_and_takes_no_undo(qtbot, window):
    first = window.project.labels("1")[0]
    window.select_records([first.id])
    key(window, "R")
    assert window.project.labels("1")[0].status == "rejected"
    entries = len(window.project.history("1"))
    stack = window.undo_group.activeStack()
    steps = stack.count()
    window.select_records([first.id])
    key(window, "R")
    assert len(window.project.history("1")) == entries
    assert stack.count() == steps
    key(window, "Ctrl+Z")  # one undo takes the one real reject back
    assert window.project.labels("1")[0].status == "accepted"


def test_review_calls_a_low_overlap_pair_partial_in_its_own_colour_and_the_summary_agrees(qtbot, window):
    from recordlens.annotator.labelling.page_view import STATE_COLOURS
    from tests.app.test_main_window import PRICE_1

    truth = window.project.true_records("1")
    run = window.project.runs.add("handmade")
    window.project.runs.add_predictions(run, {"1": [[PRICE_1], *truth[1:10]]})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    review = window.review
    kinds = [r.kind for r in review.records]
    assert kinds == ["partial"] + ["matched"] * 9 + ["missed"] * (len(truth) - 10)
    assert 0 < review.records[0].overlap < 0.5
    assert [r["colour"] for r in window.page_view._records] == [STATE_COLOURS[k] for k in kinds]
    assert len(set(STATE_COLOURS.values())) == 4
    figures = window.review_panel.page_figures.text()
    assert f"9 matched · 1 partial · {len(truth) - 10} missed · 0 spurious" in figures
    assert f"overlap {review.score.total_overlap:.2f} of 10 predicted (P) and {len(truth)} true (R)" in figures
    assert "partial" in window.review_panel.legend.text()
    # Each row says what the record is, not only its class.
    rows = [window.review_panel.records.item(i).text() for i in range(window.review_panel.records.count())]
    assert all("\n" in row and "(no text)" not in row for row in rows)
    assert window.page_view.core_page.resolve(PRICE_1).text().strip()[:10] in rows[0]
