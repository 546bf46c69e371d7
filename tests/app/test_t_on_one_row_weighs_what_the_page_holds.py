"""T (and Shift+T) on one Review row weighs the annotator's record against what the page holds as take-all (Ctrl+T)
and Propose do (`weigh_proposals`): T compared XPaths only, so it added, accepted, a record whose text a record of
the page already covered under other XPaths (a pair `labels check` calls duplicates), or covered rejected (a
rejection overturned unseen). Such a record is left out now, in take-all's words; one the page lacks is taken. (One
whose text only a proposal covers accepts that proposal: test_t_on_a_record_the_page_holds_proposed.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import review_bea
from tests.app.window_helpers import said
from tests.app.wrapped_items_page import FOOTER, ITEM, WRAPPER, row_of, statuses, t_on, window_on_the_page

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """The page of five items (`wrapped_items_page`), bea's records items 3 to 5 at the `li`, item 5 at its wrapper
    too, and the footer. Reviewed against bea."""
    with window_on_the_page(qtbot, tmp_path, [[ITEM.format(k)] for k in range(3, 6)]
                            + [[WRAPPER.format(5)], [FOOTER]]) as win:
        review_bea(qtbot, win)
        yield win


@pytest.mark.parametrize("keys", ["T", "Shift+T"])
def test_their_record_whose_text_the_project_rejected_is_not_taken(qtbot, window: MainWindow, keys: str) -> None:
    before = statuses(window)
    t_on(window, ITEM.format(4), keys)
    assert statuses(window) == before and before[3][0] == "rejected"
    assert said(window) == "page p: left out 1 whose text the project's record 4 covers already: nothing taken"


def test_a_record_the_page_lacks_is_taken_and_then_its_twin_of_the_same_text_is_not(qtbot, window: MainWindow
                                                                                    ) -> None:
    before = statuses(window)
    t_on(window, ITEM.format(5))
    assert statuses(window) == [*before, ("accepted", [ITEM.format(5)])]
    assert said(window).startswith("page p: take bea's record"), said(window)
    # Their wrapper of item 5 is now the same text as the record just taken: left out, where T took it as well
    t_on(window, WRAPPER.format(5))
    assert statuses(window) == [*before, ("accepted", [ITEM.format(5)])]
    assert said(window) == "page p: left out 1 whose text the project's record 5 covers already: nothing taken"


def test_of_several_rows_chosen_the_covered_one_is_left_out_and_said(qtbot, window: MainWindow) -> None:
    before = statuses(window)
    rows = window.review_panel.records
    rows.setCurrentRow(row_of(window, FOOTER))
    rows.item(row_of(window, ITEM.format(4))).setSelected(True)
    QTest.keySequence(window, "T")
    assert statuses(window) == [*before, ("accepted", [FOOTER])]
    assert said(window).startswith("page p: take bea's record; left out 1 whose text the project's record 4 covers "
                                   "already: not taken again"), said(window)
