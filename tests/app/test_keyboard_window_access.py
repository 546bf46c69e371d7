"""The main window for a keyboard, a screen reader and a 200 % screen (the keyboard verification): at
QT_SCALE_FACTOR=2 a maximised window was wider than a 1600-px screen (its least width 862 logical px, the screen
800), its right panel and saved mark off it; Shift+Tab out of the page put the keys on the Propose button with no
focus ring (Space then proposed); Tab went page list, right panel, page, filter; the page filter read as its value
to a screen reader, and a page row gave its status only as a glyph, its title cut at 40 characters; the Agent
menu's item had no underlined letter; menus and tooltips showed only the first of a shortcut's keys; the ? sheet
named no keyboard way to select several records."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

from recordlens.annotator.labelling import main_window
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.shortcuts import help_html
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.screen_fit import holds
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import open_project
from tests.app.window_helpers import FakeKeyStore, imported_project, open_window

pytestmark = pytest.mark.app

# A 1600x1000 screen at QT_SCALE_FACTOR=2, in logical px: what the window's least size must fit.
AT_200_PERCENT = QRect(0, 0, 800, 500)
LONG_TITLE = "Asia 2024 Travel Guide | Destination Statistics and Rankings"
PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><title>{LONG_TITLE}</title></head><body>
<h1>Guide</h1><a href="https://guide.example.com/a">Alpha</a> <a href="https://guide.example.com/b">Beta</a>
</body></html>"""


@pytest.fixture
def guide(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": PAGE, "html/2.html": PAGE.replace("Guide", "Guide two")})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def widget_rect(widget: QWidget, window: QWidget) -> QRect:
    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


# -- finding 1: 200 % ------------------------------------------------------------------------------------------------

def test_the_window_fits_a_1600_px_screen_at_200_percent_its_buttons_and_saved_mark_on_it(qtbot, tmp_path,
                                                                                          monkeypatch, guide):
    least = guide.minimumSizeHint().expandedTo(guide.minimumSize())
    assert holds(AT_200_PERCENT, least), least
    guide.resize(AT_200_PERCENT.size())
    qtbot.waitUntil(lambda: guide.size() == AT_200_PERCENT.size(), timeout=5_000)
    spin(100)
    whole = guide.rect()
    buttons = guide.record_panel.findChildren(QPushButton)
    assert len(buttons) >= 8
    for part in (*buttons, guide.saved_label, guide.counts_label, guide.page_list.list, guide.page_view):
        assert whole.contains(widget_rect(part, guide)), part
    for button in buttons:  # whole, not squeezed below what its text needs
        assert button.width() >= button.minimumSizeHint().width(), button.text()
    # A first start there opens maximised, and the window's least size no longer spills past the screen
    monkeypatch.setattr(main_window, "available_area", lambda _widget: AT_200_PERCENT)
    fresh = MainWindow(open_project(guide.project.root), settings=Settings(annotator="tester"),
                       settings_file=tmp_path / "fresh.json", key_store=FakeKeyStore())
    try:
        assert not fresh.restore_geometry() and fresh.isMaximized()
        assert holds(AT_200_PERCENT, fresh.minimumSizeHint())
    finally:
        fresh.close()


# -- findings 2 and 8: where Tab goes, and that it shows -----------------------------------------------------------

def tab_chain(window: MainWindow, length: int) -> list[QWidget]:
    """The first `length` widgets Tab reaches from the page filter (those it can reach now)."""
    found = [window.page_list.status_filter]
    widget = found[0]
    while len(found) < length:
        widget = widget.nextInFocusChain()
        if widget.isVisible() and widget.isEnabled() and widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            found.append(widget)
    return found


def page_proxy(window: MainWindow) -> QWidget:
    proxy = window.page_view.view.focusProxy()
    assert proxy is not None
    return proxy


def test_tab_follows_the_layout_after_a_page_is_opened_too(qtbot, guide):
    # Chromium makes the widget that takes the page's keys anew as a page loads: it joined the chain at its end.
    guide.open_page("2")
    assert guide.page_view.wait_until_loaded(30_000)
    pages = guide.page_list
    QTest.keyClick(pages.list, Qt.Key.Key_Tab)  # page list -> the page (it went to the right panel)
    qtbot.waitUntil(lambda: guide.page_view.holds_focus(), timeout=5_000)
    chain = tab_chain(guide, 5)
    assert chain[:4] == [pages.status_filter, pages.search, pages.list, page_proxy(guide)], chain
    assert guide.tabs.isAncestorOf(chain[4]) or chain[4] is guide.tabs, chain  # then the right panel


def test_shift_tab_out_of_the_page_goes_to_the_page_list_with_the_keys_shown(qtbot, guide):
    guide.do_go_to_page()
    proxy = page_proxy(guide)
    qtbot.waitUntil(proxy.hasFocus, timeout=5_000)
    QTest.keyClick(proxy, Qt.Key.Key_Tab)  # the first link
    spin(300)
    QTest.keyClick(proxy, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)  # out of the page, backwards
    qtbot.waitUntil(lambda: QApplication.focusWidget() is guide.page_list.list, timeout=5_000)
    assert guide.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)  # focus drawn as a keyboard's


def test_a_button_the_keys_are_passed_to_without_a_tab_key_shows_its_focus_ring(qtbot, guide):
    """As the page passes the keys on (Chromium's own Tab calls focusNextPrevChild, no Tab key event of Qt's):
    the Propose button took them undrawn."""
    buttons = {button.text(): button for button in guide.record_panel.findChildren(QPushButton)}
    delete, propose = buttons["Delete"], buttons["Propose"]
    keyboard = Qt.WidgetAttribute.WA_KeyboardFocusChange

    def focused_without_a_ring(button: QPushButton) -> None:
        button.setFocus(Qt.FocusReason.OtherFocusReason)
        guide.setAttribute(keyboard, False)
        qtbot.waitUntil(button.hasFocus, timeout=5_000)

    focused_without_a_ring(propose)
    unringed = propose.grab().toImage()
    focused_without_a_ring(delete)
    guide.focusNextPrevChild(True)  # what the page calls
    assert propose.hasFocus() and guide.testAttribute(keyboard)
    assert propose.grab().toImage() != unringed  # its focus ring is drawn


# -- finding 6: what a screen reader is told -----------------------------------------------------------------------

def test_the_page_filter_is_named_by_its_label_and_a_page_row_says_its_status_and_whole_title(guide):
    combo = guide.page_list.status_filter
    relations = QAccessible.queryAccessibleInterface(combo).relations(QAccessible.RelationFlag.Label)
    assert [label.text(QAccessible.Text.Name) for label, _flag in relations] == ["show pages"]
    rows = QAccessible.queryAccessibleInterface(guide.page_list.list)
    spoken = rows.child(0).text(QAccessible.Text.Name)
    assert spoken == f"page 1, new, {LONG_TITLE}; no records"
    assert guide.page_list.list.item(0).text().startswith("○ ")  # the row itself as it was
    guide.project.set_status("1", "labelled", guide.person)
    guide.refresh_pages()
    row = guide.page_list.list.item(0)
    assert row.text().startswith("✓ ") and row.data(Qt.ItemDataRole.AccessibleTextRole).startswith("page 1, labelled, ")


# -- findings 7 and 9: menus and tooltips ---------------------------------------------------------------------------

def test_every_menu_item_has_an_underlined_letter_the_agent_one_too(guide):
    for menu_action in guide.menuBar().actions():
        for action in menu_action.menu().actions():
            assert action.isSeparator() or "&" in action.text(), (menu_action.text(), action.text())


def test_tooltips_name_every_key_of_a_shortcut_and_menus_show_the_one_the_readme_names_first(guide):
    actions = guide.actions_by_name
    assert actions["delete"].toolTip() == "Delete the selected records (Del or Backspace)"
    assert "Ctrl+Shift+Z or Ctrl+Y" in actions["redo"].toolTip()
    assert actions["parent_element"].shortcut().toString() == "U"  # the menu's key: the README's "U (Alt+Up)"
    assert "U or Alt+Up" in actions["parent_element"].toolTip()
    assert actions["child_element"].shortcut().toString() == "Shift+U"
    assert all(menu_action.menu().toolTipsVisible() for menu_action in guide.menuBar().actions()
               if len(menu_action.menu().actions()) > 1)
    buttons = {button.text(): button for button in guide.record_panel.findChildren(QPushButton)}
    assert buttons["Delete"].toolTip() == actions["delete"].toolTip()


# -- finding 10: the ? sheet ------------------------------------------------------------------------------------------

def test_the_sheet_says_how_to_select_several_records_from_the_keyboard():
    sheet = help_html()
    for keys in ("Shift+Down", "Ctrl+Down", "Ctrl+Space"):
        assert keys in sheet
    assert "<b>U</b> or <b>Alt+Up</b>" in sheet
