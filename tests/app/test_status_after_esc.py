"""The status bar never tells a selection that is gone: "record 1 selected: …" said on a click went on standing
after Esc had taken the keys to the record list and cleared the selection (or after the list was clicked empty,
or another page opened), and a person read it as still true. What is not about the selection stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.page_helpers import click_element
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>List</title></head><body>
<h1>Products</h1><ul><li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li>
<li><b>Tripod</b> <i>$59</i></li></ul><p>Prices include VAT.</p></body></html>"""
ITEM = "/body[1]/ul[1]/li[{}]"


@pytest.fixture
def shop(qtbot, tmp_path: Path):
    """A window on two pages; page 1 has a record on each of its three items, none selected."""
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "html/2.html": PAGE.replace("List", "List two")})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    for k in (1, 2, 3):
        win.project.add_record("1", [ITEM.format(k)], win.person)
    win.reload_labels([])
    yield win
    win.close()


def click_to_select_record_1(qtbot, win: MainWindow) -> int:
    """A real click on record 1's element, with nothing selected: it selects the record, and says so."""
    first = win.labels[0].id
    click_element(win.page_view, f"{ITEM.format(1)}/b[1]")
    qtbot.waitUntil(lambda: win.record_panel.selected_ids() == [first], timeout=5_000)
    assert said(win).startswith("record 1 selected: a click now adds to it")
    return first


def esc_in_the_page(qtbot, win: MainWindow) -> None:
    """Esc pressed with the keys in the page (where the click left them)."""
    win.page_view.view.setFocus()
    proxy = win.page_view.view.focusProxy()
    qtbot.waitUntil(proxy.hasFocus, timeout=5_000)
    QTest.keyClick(proxy, Qt.Key.Key_Escape)
    qtbot.waitUntil(win.record_panel.list.hasFocus, timeout=5_000)


def test_esc_from_the_page_leaves_no_word_of_the_selection_it_cleared(qtbot, shop):
    click_to_select_record_1(qtbot, shop)
    esc_in_the_page(qtbot, shop)
    assert shop.record_panel.selected_ids() == []
    assert "selected" not in said(shop)
    assert "selected" not in shop.statusBar().toolTip()  # nor the tip that shows the message whole


def test_esc_after_ctrl_a_or_shift_g_leaves_no_word_of_the_selection(qtbot, shop):
    QTest.keySequence(shop, "Ctrl+A")
    assert said(shop) == "3 records selected: A or R judges them all"
    esc_in_the_page(qtbot, shop)
    assert shop.record_panel.selected_ids() == [] and "selected" not in said(shop)
    click_to_select_record_1(qtbot, shop)
    QTest.keySequence(shop, "Shift+G")
    assert said(shop).startswith("3 records of record 1's list selected")
    QTest.keySequence(shop.record_panel.list, "Esc")  # Esc in the record list: deselects there
    assert shop.record_panel.selected_ids() == [] and "selected" not in said(shop)


def test_a_click_on_the_empty_part_of_the_record_list_or_another_page_leaves_no_stale_selection(qtbot, shop):
    click_to_select_record_1(qtbot, shop)
    listing = shop.record_panel.list
    below = QPoint(listing.viewport().width() // 2, listing.viewport().height() - 3)  # under the last row
    assert listing.indexAt(below).row() == -1
    QTest.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, below)
    assert shop.record_panel.selected_ids() == []
    assert "selected" not in said(shop)
    click_to_select_record_1(qtbot, shop)
    QTest.keySequence(shop, "PgDown")  # another page: none of its records is selected
    assert shop.page_name == "2"
    assert "selected" not in said(shop)


def test_a_message_that_says_no_selection_stays_and_one_still_true_stays(qtbot, shop):
    first = click_to_select_record_1(qtbot, shop)
    QTest.keySequence(shop, "V")  # not about the selection: the page's status
    assert said(shop) == "page 1 marked reviewed"
    esc_in_the_page(qtbot, shop)
    assert said(shop) == "page 1 marked reviewed"
    # A selection message whose selection holds stays: a judgement redraws the list but keeps the record selected.
    shop.select_records([])
    click_to_select_record_1(qtbot, shop)
    shop.reload_labels()  # the page read again (another window's change), the same record still selected
    assert shop.record_panel.selected_ids() == [first]
    assert said(shop).startswith("record 1 selected: a click now adds to it")
