"""T (or Shift+T) on a Review row of the annotator's record that the page holds only as a proposal (the same
XPaths, or a proposal covering its text under other XPaths) took nothing and left the row an open disagreement:
W came back to the page, the next decision's "next open row" chose it again, and only O (which keeps "the project
has no record here", the opposite of what T says) closed it. The same XPaths were even refused as "changed
elsewhere since it was shown", naming the proposal's add. T now accepts that proposal as the annotator's record, in
one undoable step noted as adjudicated with them: the row is then matched, no longer open. A record whose text a
rejected record covers is still left to O (a rejection is not overturned unseen), and so is a proposal whose text
an accepted record covers too (a duplicate), said as covered where T took it for one made elsewhere and refused it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import review_bea
from tests.app.window_helpers import said
from tests.app.wrapped_items_page import FOOTER, ITEM, MDR, WRAPPER, row_of, statuses, t_on, window_on_the_page

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """The page of five items (`wrapped_items_page`), bea's records items 1 and 2 at their wrappers, item 3 at the
    `li` (the wrapper's text), item 4 at the `li`, and the footer; not yet reviewed."""
    with window_on_the_page(qtbot, tmp_path, [[WRAPPER.format(1)], [WRAPPER.format(2)], [ITEM.format(3)],
                                              [ITEM.format(4)], [FOOTER]]) as win:
        yield win


def kind_of(window: MainWindow, xpath: str) -> str:
    """The class of bea's record `xpath` in the review on show."""
    return next(r.kind for r in window.review.records if list(r.xpaths) == [xpath])


@pytest.mark.parametrize("keys", ["T", "Shift+T"])
def test_their_record_whose_text_a_proposal_covers_accepts_the_proposal(qtbot, window: MainWindow, keys: str
                                                                        ) -> None:
    review_bea(qtbot, window)
    panel = window.review_panel
    open_before = panel.open_count()
    before = statuses(window)
    t_on(window, ITEM.format(3), keys)

    assert statuses(window) == [*before[:2], ("accepted", [WRAPPER.format(3)]), *before[3:]]
    assert kind_of(window, ITEM.format(3)) == "matched"  # decided: no longer an open disagreement
    assert panel.open_count() == open_before - 1
    assert said(window).startswith("page p: accept the project's proposed record as bea's (record 3)"), said(window)
    history = window.project.history("p")[-1]
    assert (history.action, history.detail.get("adjudicated")) == ("accept", "bea")  # a decision: W and export see it

    QTest.keySequence(window, "Ctrl+Z")
    assert statuses(window) == before
    assert kind_of(window, ITEM.format(3)) == "spurious"


def test_their_record_of_a_proposals_very_xpaths_accepts_it_not_refused_as_made_elsewhere(qtbot, window: MainWindow
                                                                                       ) -> None:
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(1)], [WRAPPER.format(2)], [WRAPPER.format(3)]])
    review_bea(qtbot, window)
    before = statuses(window)
    t_on(window, WRAPPER.format(3))

    assert statuses(window) == [*before[:2], ("accepted", [WRAPPER.format(3)]), *before[3:]]
    assert kind_of(window, WRAPPER.format(3)) == "matched"
    assert "changed elsewhere" not in said(window), said(window)
    assert said(window).startswith("page p: accept the project's proposed record as bea's (record 3)"), said(window)


def test_their_record_whose_text_a_rejected_record_covers_is_still_left_to_o(qtbot, window: MainWindow) -> None:
    review_bea(qtbot, window)
    before = statuses(window)
    t_on(window, ITEM.format(4))
    assert statuses(window) == before
    assert said(window) == "page p: left out 1 whose text the project's record 4 covers already: nothing taken"


def test_of_several_rows_one_proposal_accepted_and_one_record_added_as_one_step(qtbot, window: MainWindow) -> None:
    review_bea(qtbot, window)
    before = statuses(window)
    rows = window.review_panel.records
    rows.setCurrentRow(row_of(window, FOOTER))
    rows.item(row_of(window, ITEM.format(3))).setSelected(True)
    QTest.keySequence(window, "T")

    assert statuses(window) == [*before[:2], ("accepted", [WRAPPER.format(3)]), before[3], ("accepted", [FOOTER])]
    assert said(window).startswith("page p: took bea's version of 2 records (1 added, 1 accepted) as one step"), \
        said(window)
    QTest.keySequence(window, "Ctrl+Z")
    assert statuses(window) == before


def test_their_record_proposed_whose_text_an_accepted_record_covers_too_is_left_out_not_refused(
        qtbot, window: MainWindow) -> None:
    """The proposal of their record's very XPaths, the page's record 1 of its text accepted already: accepting it
    would make a pair `labels check` calls duplicates. Left out as covered, where T said the proposal had been made
    elsewhere since the page was shown."""
    window.project.add_records("p", [[ITEM.format(1)]], MDR)
    window.project.annotators.set_page("bea", "p", [[WRAPPER.format(1)], [WRAPPER.format(2)], [ITEM.format(1)]])
    window.reload_labels()
    review_bea(qtbot, window)
    before = statuses(window)
    t_on(window, ITEM.format(1))
    assert statuses(window) == before
    assert said(window) == "page p: left out 1 whose text the project's records 1, 5 cover already: nothing taken"
