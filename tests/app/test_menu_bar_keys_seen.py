"""Alt and a menu's letter, then Esc: Qt leaves the keys on the menu bar (the arrows then go to the menus) until a
second Esc gives them back where they were. While the menu bar has them its title is drawn highlighted, as that
menu's title is while the menu is open, and the status bar says how to give them back: the keys no longer go to
the menu bar unseen."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Plain</title></head><body>
<p>One paragraph.</p><div>One block.</div>
</body></html>"""


@pytest.fixture
def window(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": PAGE})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def title_image(window, title: str) -> QImage:
    bar = window.menuBar()
    action = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    return bar.grab(bar.actionGeometry(action)).toImage()


def test_esc_after_alt_and_a_menu_letter_leaves_its_title_highlighted_and_a_second_esc_gives_the_keys_back(
        qtbot, window):
    pages = window.page_list.list
    qtbot.waitUntil(pages.hasFocus, timeout=5_000)
    at_rest = title_image(window, "Records")
    QTest.keySequence(window, "Alt+R")
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=5_000)
    menu = QApplication.activePopupWidget()
    # The menu's window takes the keys as a person sees it open (an Esc before then, on the offscreen platform,
    # took the activation from the main window once the menu's came)
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is menu.windowHandle(), timeout=5_000)
    open_look = title_image(window, "Records")
    QTest.keyClick(menu, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is None, timeout=5_000)
    bar = window.menuBar()
    assert bar.hasFocus()  # Qt's way: the keys stay on the menu bar, on the menu's title
    held = title_image(window, "Records")
    assert held != at_rest, "the menu bar holds the keys, and nothing shows it"
    assert held == open_look  # drawn as the title of an open menu is
    qtbot.waitUntil(lambda: said(window).startswith("the menu bar has the keys"), timeout=5_000)
    QTest.keyClick(bar, Qt.Key.Key_Escape)  # the second Esc: the keys back where they were
    qtbot.waitUntil(pages.hasFocus, timeout=5_000)
    assert title_image(window, "Records") == at_rest


def test_alt_pressed_alone_highlights_the_title_the_keys_went_to(qtbot, window):
    pages = window.page_list.list
    qtbot.waitUntil(pages.hasFocus, timeout=5_000)
    at_rest = title_image(window, "Records")
    QTest.keyPress(pages, Qt.Key.Key_Alt, Qt.KeyboardModifier.AltModifier)
    QTest.keyRelease(pages, Qt.Key.Key_Alt)
    bar = window.menuBar()
    qtbot.waitUntil(bar.hasFocus, timeout=5_000)
    assert title_image(window, "Records") != at_rest, "the menu bar took the keys, and nothing shows it"
    QTest.keyClick(bar, Qt.Key.Key_Escape)
    qtbot.waitUntil(pages.hasFocus, timeout=5_000)


def test_the_agent_windows_menu_bar_shows_and_says_that_it_holds_the_keys(qtbot, qapp, tmp_path):
    from recordlens.annotator.agent.window import AgentWindow
    from tests.app.agent_helpers import DEMO_SITE, DEMO_TASKS

    window = AgentWindow(site=DEMO_SITE, tasks=DEMO_TASKS)
    try:
        window.show()
        qtbot.waitExposed(window)
        assert window.browser.wait_until_loaded()  # its own note on the page, said once loaded, said first
        window.activateWindow()
        bar = window.menuBar()
        action = next(a for a in bar.actions() if a.text().replace("&", "") == "Agent")
        at_rest = bar.grab(bar.actionGeometry(action)).toImage()
        QTest.keyPress(window, Qt.Key.Key_Alt, Qt.KeyboardModifier.AltModifier)
        QTest.keyRelease(window, Qt.Key.Key_Alt)
        qtbot.waitUntil(bar.hasFocus, timeout=5_000)
        assert bar.grab(bar.actionGeometry(action)).toImage() != at_rest, "the keys went to the menu bar unseen"
        qtbot.waitUntil(lambda: window.statusBar().currentMessage().startswith("the menu bar has the keys"),
                        timeout=5_000)
        QTest.keyClick(bar, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: not bar.hasFocus(), timeout=5_000)
    finally:
        window.close()
