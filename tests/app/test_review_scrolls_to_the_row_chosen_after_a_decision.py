"""After a decision in an annotator's review (O, T, Shift+T, on one row or several), the next open row is chosen in
the list, drawn selected on the page and the page scrolled to its record, as a click on the row or W does: T or O
again decides a row whose records the reviewer sees (verifier's report v41, scroll after a decision). And T or
Shift+T on a matched row whose XPaths are the project's record's says which record holds them already, in the words
of the other nothing-taken messages, not "already so".

On a tall page of four cards far apart (a screen and more between each) and a footer below them, all but the footer
labelled by the project; cyd made cards 2 and 3 and the footer, and left out cards 1 and 4.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.review_panel import DATA_ROLE
from tests.app.window_helpers import imported_project, said

pytestmark = pytest.mark.app

GAP = '<div style="height: 2400px">between</div>'
CARDS = [f'<div class="card"><h3>{title}</h3><p>{words}</p></div>'
         for title, words in (("One", "alpha"), ("Two", "beta"), ("Three", "gamma"), ("Four", "delta"))]
FOOTER = '<div class="foot"><b>Footer</b> <i>words</i></div>'
PAGE = f"<!doctype html><html><body>{GAP.join([*CARDS, FOOTER])}</body></html>"
CARD = "/body[1]/div[{}]"  # card k (1-based) is the body's div 2k - 1: a gap between each two
CARD_XPATHS = [CARD.format(2 * k - 1) for k in range(1, 5)]
FOOTER_XPATH = CARD.format(9)
TRUTH = [[xpath] for xpath in CARD_XPATHS]
THEIRS = [[CARD_XPATHS[1]], [CARD_XPATHS[2]], [FOOTER_XPATH]]


@pytest.fixture
def project_dir(tmp_path):
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps(TRUTH)})


def review_cyd(qtbot, window) -> None:
    project = window.project
    project.set_status("1", "labelled", window.person)
    project.annotators.set_page("cyd", "1", THEIRS)
    window.start_review("annotator:cyd")
    qtbot.waitUntil(lambda: "cyd" in window.reviewing.agreements and window.job is None, timeout=20_000)
    window.page_view.wait_until_drawn()


def row_of(window, xpath: str) -> int:
    """The review row whose record (or true record) is the element at `xpath`."""
    rows, records = window.review_panel.records, window.review.records
    return next(row for row in range(rows.count())
                if xpath in (*(record := records[int(rows.item(row).data(DATA_ROLE))]).xpaths, *record.true_xpaths))


def click_row(qtbot, window, xpath: str, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """A real click on the row of the record at `xpath`; the page then shows that record."""
    rows = window.review_panel.records
    item = rows.item(row_of(window, xpath))
    rows.scrollToItem(item)
    QTest.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, modifier, rows.visualItemRect(item).center())
    qtbot.waitUntil(lambda: window.page_view.top_in_view(xpath) is not None, timeout=10_000)


def chosen_record(window) -> str:
    index = window.review_panel.current_index()
    assert index is not None, said(window)
    return window.review.records[index].xpaths[0]


def in_view(window, xpath: str) -> bool:
    return window.page_view.top_in_view(xpath) is not None


@pytest.mark.parametrize("keys", ["O", "T", "Shift+T"])
def test_the_next_open_row_after_a_decision_is_scrolled_to(qtbot, window, keys):
    review_cyd(qtbot, window)
    click_row(qtbot, window, CARD_XPATHS[0])  # card 1, which cyd left out: at the top of the page
    assert not in_view(window, CARD_XPATHS[3])

    QTest.keySequence(window, keys)

    assert chosen_record(window) == CARD_XPATHS[3], said(window)  # card 4, the next open row, a screen lower
    qtbot.waitUntil(lambda: in_view(window, CARD_XPATHS[3]), timeout=10_000)
    drawn = [r["xpaths"] for r in window.page_view._records if r["selected"]]
    assert drawn == [[CARD_XPATHS[3]]]


def test_the_next_open_row_after_a_decision_on_several_rows_is_scrolled_to(qtbot, window):
    review_cyd(qtbot, window)
    click_row(qtbot, window, FOOTER_XPATH)
    click_row(qtbot, window, CARD_XPATHS[0], Qt.KeyboardModifier.ControlModifier)  # both chosen: the page on card 1
    assert len(window.review_panel.chosen_indices()) == 2
    assert not in_view(window, CARD_XPATHS[3])

    QTest.keySequence(window, "O")

    assert "kept the project's version of 2 disagreements with cyd" in said(window), said(window)
    assert chosen_record(window) == CARD_XPATHS[3], said(window)
    qtbot.waitUntil(lambda: in_view(window, CARD_XPATHS[3]), timeout=10_000)


@pytest.mark.parametrize("keys", ["T", "Shift+T"])
def test_t_on_a_matched_row_of_the_projects_very_record_says_which_record_holds_it(qtbot, window, keys):
    review_cyd(qtbot, window)
    click_row(qtbot, window, CARD_XPATHS[1])  # card 2: matched, the same XPaths on both sides
    labels = window.project.labels("1")

    QTest.keySequence(window, keys)

    assert said(window) == "page 1: cyd's record is already in the project as record 2: nothing taken", said(window)
    assert window.project.labels("1") == labels
