"""Adjudication where there is nothing of the other annotator's to decide: a page they never labelled is not
compared (T, Shift+T and O take nothing there, its records are not "missed"); a page whose pairs all meet the
match overlap does not disagree (as `recordlens agreement` counts); W, with every disagreement kept, says that
none is left (as the end of a comparison does); and the page W opens has its first open disagreement chosen, so
that T decides it at once."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from tests.app.demo_project import HEADER, ITEM
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import recent_messages, said

pytestmark = pytest.mark.app

PART = ITEM + "/b[1]"  # the item's name without its price: half of its text, which still pairs with the item


def label_the_list(window, beas: list[list[str]]) -> None:
    """Page 2, the list, labelled by the project (its four items) and by bea (`beas`); page 1 by the project only."""
    project = window.project
    for k in range(1, 5):
        project.add_record("2", [ITEM.format(k)], window.person, status="accepted")
    project.set_status("2", "labelled", window.person)
    project.annotators.set_page("bea", "2", beas)


def test_a_page_the_annotator_never_labelled_is_not_compared_and_nothing_is_taken_there(qtbot, window):
    label_the_list(window, [[ITEM.format(k)] for k in range(1, 5)])
    review_bea(qtbot, window)
    assert window.page_name == "1"  # labelled by the project only
    labels = window.project.labels("1")
    panel = window.review_panel
    assert panel.records.count() == 0, "the project's records listed as bea's misses"
    assert "not compared: annotator bea did not label this page" in panel.page_figures.text()
    assert "0.000" not in panel.page_figures.text()
    for keys in ("T", "Shift+T", "O", "Ctrl+T"):
        if panel.records.count():
            panel.records.setCurrentRow(0)
        QTest.keySequence(window, keys)
        assert window.project.labels("1") == labels, keys
        assert "bea did not label this page, so it is not compared: nothing to decide here" in said(window), keys


def test_pairs_at_the_match_overlap_are_no_disagreement_to_the_app_either(qtbot, window):
    label_the_list(window, [[PART.format(1)], *([ITEM.format(k)] for k in range(2, 5))])
    review_bea(qtbot, window)
    qtbot.waitUntil(lambda: said(window).startswith("compared bea's labels with the project's"), timeout=10_000)
    page = window.reviewing.agreements["bea"].pages[0]
    assert page.f1 < 1 and not page.disagreements  # as `recordlens agreement` counts: "disagree 0"
    assert said(window) == (f"compared bea's labels with the project's on 1 page both labelled: P "
                            f"{page.precision:.3f}, R {page.recall:.3f}, F1 {page.f1:.3f}; they agree on every one")


def test_w_with_every_disagreement_kept_says_none_is_left(qtbot, window):
    label_the_list(window, [[ITEM.format(k)] for k in range(1, 5)])  # page 2: they agree
    truth = window.project.true_records("1")
    window.project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])  # page 1: two disagreements
    review_bea(qtbot, window)
    for kind in ("missed", "spurious"):
        choose(window, kind)
        QTest.keySequence(window, "O")
    QTest.keySequence(window, "W")
    assert window.page_name == "1", "W opened page 2, where nothing is left to decide"
    assert "no open disagreement with bea left" in said(window)
    assert "no open disagreement with bea left" in recent_messages(window)
    review_bea(qtbot, window)  # compared again, as at the next start: the pages that disagree, none left open
    qtbot.waitUntil(lambda: said(window).startswith("compared bea's labels with the project's"), timeout=10_000)
    assert said(window).endswith("they disagree on 1 of them, every disagreement kept (the project's version): "
                                 "nothing to decide"), said(window)


def test_the_page_w_opens_has_its_first_open_disagreement_chosen(qtbot, window):
    label_the_list(window, [[ITEM.format(k)] for k in range(1, 4)])  # page 2: bea left out the last item
    truth = window.project.true_records("1")
    window.project.annotators.set_page("bea", "1", truth)  # page 1: they agree
    review_bea(qtbot, window)
    QTest.keySequence(window, "W")
    assert window.page_name == "2" and window.page_view.wait_until_loaded()
    qtbot.waitUntil(lambda: window.review_panel.current_index() is not None, timeout=5_000)
    assert kinds(window)[window.review_panel.current_index()] == "missed"
    QTest.keySequence(window, "T")  # at once: bea made none there, so the project's record goes
    assert "choose a record in the Review list first" not in said(window)
    assert len(window.project.true_records("2")) == 3
