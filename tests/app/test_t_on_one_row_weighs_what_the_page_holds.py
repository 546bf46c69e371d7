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
from tests.app.test_take_all_weighs_what_the_page_holds import FOOTER, ITEM, MDR, PAGE, WRAPPER  # the same page
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """Page p: items 1 and 2 labelled at their wrappers (accepted), item 3's wrapper proposed, item 4's rejected;
    bea labelled items 3 to 5 at the `li`, item 5 at its wrapper too, and the footer. Reviewed against bea."""
    folder = imported_project(tmp_path, {"html/p.html": PAGE,
                                         "gt/p.json": f'[["{WRAPPER.format(1)}"], ["{WRAPPER.format(2)}"]]'})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    project = win.project
    project.add_records("p", [[WRAPPER.format(3)], [WRAPPER.format(4)]], MDR)
    project.reject(project.labels("p")[3].id, win.person)
    project.annotators.set_page("bea", "p", [[ITEM.format(k)] for k in range(3, 6)]
                                + [[WRAPPER.format(5)], [FOOTER]])
    win.reload_labels()
    review_bea(qtbot, win)
    yield win
    win.close()


def row_of(window: MainWindow, xpath: str) -> int:
    """The Review row of bea's record `xpath` (every class is shown: rows are the review's order)."""
    return next(i for i, r in enumerate(window.review.records) if r.kind == "spurious" and list(r.xpaths) == [xpath])


def records(window: MainWindow) -> list[tuple[str, list[str]]]:
    return [(label.status, list(label.xpaths)) for label in window.project.labels("p")]


@pytest.mark.parametrize("keys", ["T", "Shift+T"])
def test_their_record_whose_text_the_project_rejected_is_not_taken(qtbot, window: MainWindow, keys: str) -> None:
    before = records(window)
    window.review_panel.records.setCurrentRow(row_of(window, ITEM.format(4)))
    QTest.keySequence(window, keys)
    assert records(window) == before and before[3][0] == "rejected"
    assert said(window) == "page p: left out 1 whose text the project's record 4 covers already: nothing taken"


def test_a_record_the_page_lacks_is_taken_and_then_its_twin_of_the_same_text_is_not(qtbot, window: MainWindow
                                                                                    ) -> None:
    before = records(window)
    window.review_panel.records.setCurrentRow(row_of(window, ITEM.format(5)))
    QTest.keySequence(window, "T")
    assert records(window) == [*before, ("accepted", [ITEM.format(5)])]
    assert said(window).startswith("page p: take bea's record"), said(window)
    # Their wrapper of item 5 is now the same text as the record just taken: left out, where T took it as well
    window.review_panel.records.setCurrentRow(row_of(window, WRAPPER.format(5)))
    QTest.keySequence(window, "T")
    assert records(window) == [*before, ("accepted", [ITEM.format(5)])]
    assert said(window) == "page p: left out 1 whose text the project's record 5 covers already: nothing taken"


def test_of_several_rows_chosen_the_covered_one_is_left_out_and_said(qtbot, window: MainWindow) -> None:
    before = records(window)
    rows = window.review_panel.records
    rows.setCurrentRow(row_of(window, FOOTER))
    rows.item(row_of(window, ITEM.format(4))).setSelected(True)
    QTest.keySequence(window, "T")
    assert records(window) == [*before, ("accepted", [FOOTER])]
    assert said(window).startswith("page p: take bea's record; left out 1 whose text the project's record 4 covers "
                                   "already: not taken again"), said(window)
