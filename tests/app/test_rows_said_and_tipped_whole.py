"""What a screen reader says of a list's row, and what its tip holds where the row cuts its text.

The record list's rows were read as drawn: " 5  ?  \u2068Screen Resolution · …\u2069\\n 1 el · 7 texts · proposed",
marks for words, the isolates around the page's words, the text cut at 70 characters; their tip held no text at
all. The review list's rows began with "■" and a badge ("T3 ↔ P4"). A page list's title is cut at 40 characters,
and its tip did not hold it. Each now has a spoken form in words, with the whole text, and a tip with it whole.

On the main window's project (tests/app/demo_project.py): page 1, the demo product grid of 16 labelled cards."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QListWidget, QListWidgetItem

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_list import TITLE_CHARS, show_page_row
from recordlens.annotator.labelling.review_panel import DATA_ROLE
from recordlens.annotator.qt.row_lines import FIRST_STRONG_ISOLATE, LINE_SEPARATOR, POP_ISOLATE
from recordlens.core.store.project import PageInfo
from tests.app.review_helpers import review_bea

pytestmark = pytest.mark.app

MARKS = ("■", "↔", "✓", "✗", "✎", "?", "⚠", "⊘", FIRST_STRONG_ISOLATE, POP_ISOLATE, "…", "\n", LINE_SEPARATOR)


def said(view: QListWidget, row: int) -> str:
    """What a screen reader gets as the name of a list's row: its accessible cell's."""
    cell = QAccessible.queryAccessibleInterface(view).child(row)
    assert cell is not None
    return cell.text(QAccessible.Text.Name)


def read(tip: str) -> str:
    """A tip as words: its isolates dropped, its wrapped lines joined again."""
    return " ".join(tip.replace(FIRST_STRONG_ISOLATE, "").replace(POP_ISOLATE, "").replace(LINE_SEPARATOR, " ")
                    .split())


def words(text: str) -> str:
    return " ".join(text.split())


def letters(text: str) -> str:
    """`text` without what parts texts or wraps them (spaces, commas, "·"): texts compared whatever joins them."""
    return re.sub(r"[\s,·]", "", text)


def test_a_record_row_is_said_in_words_with_its_texts_whole_and_they_are_whole_in_its_tip(window: MainWindow) -> None:
    panel = window.record_panel
    texts = window.page_texts()
    cut = 0
    for row, label in enumerate(window.labels):
        whole = texts.whole(label.xpaths)  # every text of the record, in page order
        item = panel.list.item(row)
        cut += "…" in item.text()
        spoken = said(panel.list, row)
        assert spoken == item.data(Qt.ItemDataRole.AccessibleTextRole)
        elements = f"{len(label.xpaths)} element{'s' if len(label.xpaths) != 1 else ''}"
        assert spoken.startswith(f"record {row + 1}, {label.status}, {elements}, "), spoken
        assert letters(spoken.split(": ", 1)[1]) == letters(whole), spoken  # whole, texts apart by commas
        assert not any(mark in spoken for mark in MARKS), spoken
        assert letters(whole) in letters(read(item.toolTip())), item.toolTip()
    assert cut, "no row of the page is cut: the test shows nothing"


def test_a_review_row_is_said_in_words_with_its_record_s_text_whole(qtbot, window: MainWindow) -> None:
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[3:], ["/body[1]/div[1]/aside[1]"]])  # missed, matched, spurious
    review_bea(qtbot, window)
    panel = window.review_panel
    texts = window.page_texts()
    review = window.review
    assert review is not None
    kinds = set()
    for row in range(panel.records.count()):
        item = panel.records.item(row)
        record = review.records[int(item.data(DATA_ROLE))]
        kinds.add(record.kind)
        spoken = said(panel.records, row)
        assert spoken == item.data(Qt.ItemDataRole.AccessibleTextRole)
        assert item.text().startswith("■") and not any(mark in spoken for mark in MARKS), spoken
        badge = "predicted record" if record.kind == "spurious" else "true record"
        assert spoken.startswith(f"{badge} ") and f", {record.kind}" in spoken, spoken
        if record.kind == "matched":
            assert ", matched with predicted record " in spoken and ", overlap " in spoken, spoken
        assert spoken.endswith(words(texts.whole(record.xpaths)) or "no text"), spoken
    assert kinds == {"matched", "missed", "spurious"}


def page(title: str) -> PageInfo:
    return PageInfo(name="7", status="labelled", url="https://example.org/7", title=title, charset=None,
                    snapshot="0" * 64, suffix=".html", source=None, warnings=(), imported_at="", updated_at="",
                    true_labels=3)


def test_a_page_title_cut_in_its_row_is_whole_in_its_tip(qapp) -> None:
    title = "Annual report of the regional water board, with every appendix and the auditors' letter of 2024"
    assert len(title) > TITLE_CHARS
    item = QListWidgetItem()
    show_page_row(item, page(title))
    assert title not in read(item.text())  # cut in the row
    assert title in read(item.toolTip()), item.toolTip()
    lines = item.toolTip().replace("\n", LINE_SEPARATOR).split(LINE_SEPARATOR)
    assert all(len(line) <= 82 for line in lines), lines  # wrapped, as the records' tips
    assert title in item.data(Qt.ItemDataRole.AccessibleTextRole)
    short = QListWidgetItem()
    show_page_row(short, page("Contact"))
    assert short.toolTip() == "page labelled\nhttps://example.org/7"  # whole in the row: not said twice
