"""W and the decisions in an annotator's review say where they leave the reviewer: the page W opens is named with
how many disagreements are open there, and a decision that leaves none open on the page chooses no row (a matched
row chosen reads as one left to decide, and T on it would change the project's record) and says that none is left
and whether W has another page to open."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.demo_project import HEADER, ITEM
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def two_pages_disagreeing(window) -> None:
    """Page 1: bea left out the first record and added the header (2 disagreements); page 2, the list labelled by
    the project: bea left out the last item (1 disagreement)."""
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])
    for k in range(1, 5):
        project.add_record("2", [ITEM.format(k)], window.person, status="accepted")
    project.set_status("2", "labelled", window.person)
    project.annotators.set_page("bea", "2", [[ITEM.format(k)] for k in range(1, 4)])


def w_to(qtbot, window, page: str) -> None:
    QTest.keySequence(window, "W")
    assert window.page_name == page and window.page_view.wait_until_loaded()
    qtbot.waitUntil(lambda: window.review_panel.current_index() is not None, timeout=5_000)


def test_w_says_which_page_it_opened_and_how_many_disagreements_are_open_there(qtbot, window):
    two_pages_disagreeing(window)
    review_bea(qtbot, window)
    w_to(qtbot, window, "2")  # the least agreeing (F1 0.857)
    assert said(window).startswith("W: page 2, 1 disagreement with bea open here"), said(window)
    w_to(qtbot, window, "1")
    assert said(window).startswith("W: page 1, 2 disagreements with bea open here"), said(window)
    choose(window, "missed")
    QTest.keySequence(window, "O")
    w_to(qtbot, window, "2")
    w_to(qtbot, window, "1")
    assert said(window).startswith("W: page 1, 1 disagreement with bea open here (1 kept)"), said(window)


def test_the_last_decision_on_a_page_chooses_no_row_and_says_none_is_left(qtbot, window):
    two_pages_disagreeing(window)
    review_bea(qtbot, window)
    w_to(qtbot, window, "2")
    assert kinds(window)[window.review_panel.current_index()] == "missed"
    QTest.keySequence(window, "O")  # the page's only disagreement decided: every row left is matched
    panel = window.review_panel
    assert panel.current_index() is None and not panel.records.selectedItems(), \
        f"chose {kinds(window)[panel.current_index() or 0]} row"
    assert "no disagreement with bea left open on page 2: W opens the next of 1 page with one" in said(window), \
        said(window)
    QTest.keySequence(window, "T")  # no row: nothing of the project's is changed
    assert len(window.project.true_records("2")) == 4

    w_to(qtbot, window, "1")
    for _ in range(2):  # T on each: bea's header taken, the project's first record deleted
        QTest.keySequence(window, "T")
    assert panel.current_index() is None and not panel.records.selectedItems()
    assert "no disagreement with bea left open on page 1, nor on any other page" in said(window), said(window)
