"""A record whose text holds line breaks (a <pre>, an address) keeps to its row in the Records and the Review
lists: its breaks are shown as "↵", where they printed "b" and "c" as lines of their own under the row, outside its
indent, like rows of their own."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QStyleOptionViewItem

from recordlens.annotator.labelling.record_panel import RecordPanel, RecordRow
from recordlens.annotator.labelling.review_panel import ReviewPanel
from recordlens.annotator.qt.row_lines import isolated
from recordlens.core.records import PageReview, PageScore, ReviewRecord

pytestmark = pytest.mark.app

BROKEN = "a\nb\r\nc\u2028d"  # every way a page's text breaks a line: "\n", "\r\n", Unicode's line separator


def shown_lines(view, row: int) -> list[str]:
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.rect = view.visualItemRect(view.item(row))
    return view.itemDelegate().shown_lines(option, view.model().index(row, 0))


def test_a_text_with_line_breaks_is_one_line_of_its_own_direction():
    assert isolated(BROKEN) == "\u2068a↵b↵c↵d\u2069"
    assert isolated("a\n") == "\u2068a↵\u2069" and isolated("") == ""


def test_the_records_list_keeps_a_text_with_line_breaks_to_its_row(qtbot):
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.resize(400, 300)
    panel.set_rows([RecordRow(1, 1, "#1f77b4", "proposed", BROKEN, 1, 1, "mdr", False)], [])
    panel.show()
    qtbot.waitExposed(panel)
    lines = shown_lines(panel.list, 0)
    assert len(lines) == 2 and "a↵b↵c↵d" in lines[0] and "1 el · 1 text · proposed" in lines[1], lines


def test_the_review_list_keeps_a_text_with_line_breaks_to_its_row(qtbot):
    score = PageScore(page="1", precision=0.0, recall=0.0, f1=0.0, predicted_records=1, true_records=1, matches=[],
                      hallucinated_records=0, empty_true_records=0)
    review = PageReview(score, (ReviewRecord("missed", ("/body[1]/pre[1]",), None, 0, 0.0),
                                ReviewRecord("spurious", ("/body[1]/div[2]",), 0, None, 0.0)))
    panel = ReviewPanel()
    qtbot.addWidget(panel)
    panel.resize(400, 500)
    panel.show_page(review, texts=[BROKEN, "Camera"])
    panel.show()
    qtbot.waitExposed(panel)
    lines = shown_lines(panel.records, 0)
    assert len(lines) == 2 and "a↵b↵c↵d" in lines[1], lines
    assert panel.records.count() == 2
