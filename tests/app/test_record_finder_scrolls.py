"""The Records list brings the record chosen into its view where Qt does not on its own.

Qt's list scrolls to its current row whenever the current row changes (`autoScroll`), which is what every
selection of another record does. The panel's own scrolling is for the rest: the record chosen is the current
row already but the list was scrolled away from it (Enter in the finder on the record selected before, a click
on the page on the record selected), or the record to show is not the current row (G selects a record's whole
list, whose last row is the current one, and shows the record the reviewer pointed at)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.record_panel import RecordPanel, RecordRow
from tests.app.gui_waits import until_it_holds

pytestmark = pytest.mark.app

ROWS = 300
FOUND_EVERY = 10  # rows 5, 15, 25, ... come from the "zeta" extractor: 30 rows found, more than the list shows


@pytest.fixture
def panel(qtbot) -> RecordPanel:
    panel = RecordPanel()
    qtbot.addWidget(panel)  # closed after the test
    panel.resize(320, 300)  # a list far shorter than its rows, so that it scrolls
    origin = ["zeta" if k % FOUND_EVERY == 5 else "mdr" for k in range(ROWS)]
    panel.set_rows([RecordRow(100 + k, k + 1, "#1f77b4", "proposed", f"item {k + 1}", 1, 1, origin[k], False)
                    for k in range(ROWS)], [])
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def in_view(panel: RecordPanel, row: int) -> bool:
    panel.list.doItemsLayout()  # the rows just hidden or shown laid out, as the next paint would
    return panel.list.viewport().rect().contains(panel.list.visualItemRect(panel.list.item(row)))


def test_enter_in_the_finder_shows_the_record_found_that_was_selected_already(panel, qtbot):
    first_found = 5
    panel.select_ids([panel.ids()[first_found]])  # chosen earlier: the current row
    bar = panel.list.verticalScrollBar()
    bar.setValue(bar.maximum())  # then the list scrolled to its end
    QTest.keyClicks(panel.finder, "zeta")
    assert panel.found_ids()[0] == panel.ids()[first_found] and len(panel.found_ids()) == ROWS // FOUND_EVERY
    until_it_holds(qtbot, lambda: not in_view(panel, first_found))  # the rows hidden: the last of those found shown
    assert not in_view(panel, first_found)
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    assert panel.selected_ids() == [panel.ids()[first_found]]
    assert in_view(panel, first_found)


def test_selecting_the_selected_record_again_shows_it_after_the_list_was_scrolled_away(panel):
    far = 250
    panel.select_ids([panel.ids()[far]])
    assert in_view(panel, far)  # Qt's own scrolling: another current row
    panel.list.verticalScrollBar().setValue(0)  # the user scrolls the list to its top
    assert not in_view(panel, far)
    panel.select_ids([panel.ids()[far]])  # the record clicked on the page again
    assert in_view(panel, far)


def test_scroll_to_id_shows_a_selected_record_that_is_not_the_current_row(panel):
    pointed, last = 10, 250  # G on record 11: its list selected, down to record 251
    panel.select_ids([panel.ids()[pointed], panel.ids()[last]])
    assert in_view(panel, last) and not in_view(panel, pointed)
    panel.scroll_to_id(panel.ids()[pointed])
    assert in_view(panel, pointed) and panel.selected_ids() == [panel.ids()[pointed], panel.ids()[last]]
