"""Where no disagreement with an annotator is left open, what the review says counts the decisions as they were
made: those T took or deleted are no disagreement any more (the records now agree), and were said with the rest
as kept ("every page's disagreements with bea are kept") though only O kept one."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.review_helpers import review_bea
from tests.app.test_review_says_where_w_and_decisions_leave_off import two_pages_disagreeing, w_to
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def test_the_last_decisions_and_w_count_what_t_took_and_deleted_and_what_o_kept(qtbot, window):
    two_pages_disagreeing(window)
    review_bea(qtbot, window)
    w_to(qtbot, window, "2")
    QTest.keySequence(window, "O")  # page 2: the project's version kept
    w_to(qtbot, window, "1")
    for _ in range(2):  # page 1: the project's first record deleted, bea's header taken
        QTest.keySequence(window, "T")
    assert said(window).endswith("no disagreement with bea left open on page 1, nor on any other page: every "
                                 "disagreement with bea is decided (1 taken, 1 deleted, 1 kept (O))"), said(window)
    QTest.keySequence(window, "W")
    assert said(window) == ("no open disagreement with bea left: every disagreement with bea is decided (1 taken, "
                            "1 deleted, 1 kept (O)) and the other pages agree: no page left to open"), said(window)


def test_disagreements_all_decided_with_t_are_said_decided_not_absent(qtbot, window):
    two_pages_disagreeing(window)
    review_bea(qtbot, window)
    w_to(qtbot, window, "2")
    QTest.keySequence(window, "T")
    w_to(qtbot, window, "1")
    for _ in range(2):
        QTest.keySequence(window, "T")
    QTest.keySequence(window, "W")
    assert said(window) == ("no open disagreement with bea left: every disagreement with bea is decided (1 taken, "
                            "2 deleted) and every page both labelled agrees now: no page left to open"), said(window)
