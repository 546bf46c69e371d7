"""The keys that select a record say which one, as a click does (verifier's finding 10: J / K and Enter in the
record finder selected a record and the status bar, which a screen reader reads, said nothing), and Space in the
record list selects the current row as in any list (it moved on to the next: Qt's type-ahead took the Space, and
every row's text begins with one)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def texts_of(window: MainWindow, number: int) -> str:
    """The first texts the record list shows of record `number`."""
    return window.record_panel.list.item(number - 1).text().splitlines()[0].split("  ", 2)[2].strip()


def test_j_and_k_say_the_record_they_select(qtbot, window):
    labels = window.project.labels("1")
    assert len(labels) >= 3
    window.select_records([labels[0].id])
    key(window, "J")
    assert window.record_panel.selected_ids() == [labels[1].id]
    assert said(window).startswith(f"record 2 selected, {labels[1].status}: ")
    assert texts_of(window, 2) in said(window)
    key(window, "J")
    key(window, "K")
    assert window.record_panel.selected_ids() == [labels[1].id]
    assert said(window).startswith("record 2 selected")
    assert "record 2 selected" in window.messages.text()  # in the recent messages too


def test_enter_in_the_record_finder_says_the_record_it_selects(qtbot, window):
    labels = window.project.labels("1")
    key(window, "/")
    qtbot.waitUntil(window.record_panel.finder.hasFocus, timeout=2_000)
    QTest.keyClicks(window.record_panel.finder, "3")  # record 3, found by its number
    assert window.record_panel.found_ids() == [labels[2].id]
    QTest.keyClick(window.record_panel.finder, Qt.Key.Key_Return)
    assert window.record_panel.selected_ids() == [labels[2].id]
    assert said(window).startswith(f"record 3 selected, {labels[2].status}: ")
    assert texts_of(window, 3) in said(window)


def test_space_in_the_record_list_selects_the_current_row(qtbot, window):
    labels = window.project.labels("1")
    records = window.record_panel.list
    key(window, "Ctrl+3")
    qtbot.waitUntil(records.hasFocus, timeout=2_000)
    QTest.keyClick(records, Qt.Key.Key_End)
    QTest.keyClick(records, Qt.Key.Key_Home)  # as the verifier did: Home selects record 1
    assert window.record_panel.selected_ids() == [labels[0].id]
    QTest.keyClick(records, Qt.Key.Key_Space)
    assert window.record_panel.selected_ids() == [labels[0].id]  # not the next record
    assert records.currentRow() == 0
    QTest.keyClick(records, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # current moves, selection stays
    QTest.keyClick(records, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Space adds it
    assert window.record_panel.selected_ids() == [labels[0].id, labels[1].id]
    QTest.keyClick(records, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # and takes it out again
    assert window.record_panel.selected_ids() == [labels[0].id]
