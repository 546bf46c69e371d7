"""W walks the pages from the worst; O (keep the project's version) and its undo change which pages it passes by,
and the walk under way follows at once, not only once the reviewer leaves it."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.demo_project import HEADER, ITEM
from tests.app.review_helpers import choose, kinds, review_bea

pytestmark = pytest.mark.app


def keep_every_disagreement(window) -> None:
    """O on each of the page's open disagreements (bea left out record 1 and added the header)."""
    choose(window, "missed")
    QTest.keySequence(window, "O")
    choose(window, "spurious")
    QTest.keySequence(window, "O")
    assert not {"missed", "spurious"} & {r.kind for i, r in enumerate(window.review.records)
                                         if i not in window.review_panel.kept}


def review_two_pages(qtbot, window) -> None:
    project = window.project
    project.set_status("2", "labelled", window.person)
    project.add_record("2", [ITEM.format(1)], window.person)
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])  # a near miss: F1 high
    project.annotators.set_page("bea", "2", [[ITEM.format(2)]])       # all wrong: the worst page
    review_bea(qtbot, window)
    QTest.keySequence(window, "W")
    assert window.page_name == "2"
    QTest.keySequence(window, "W")
    assert window.page_name == "1" and window.page_view.wait_until_loaded()
    assert {"missed", "spurious"} <= set(kinds(window))


def test_w_passes_by_a_page_kept_on_the_way(qtbot, window):
    review_two_pages(qtbot, window)
    keep_every_disagreement(window)
    QTest.keySequence(window, "W")
    assert window.page_name == "2"
    QTest.keySequence(window, "W")  # page 1 has nothing open left: W does not come back to it
    assert window.page_name == "2"


def test_w_walks_a_page_again_once_its_keeping_is_undone(qtbot, window):
    review_two_pages(qtbot, window)
    keep_every_disagreement(window)
    QTest.keySequence(window, "Ctrl+Z")
    QTest.keySequence(window, "Ctrl+Z")
    assert not window.review_panel.kept
    QTest.keySequence(window, "W")
    assert window.page_name == "2"
    QTest.keySequence(window, "W")
    assert window.page_name == "1"
