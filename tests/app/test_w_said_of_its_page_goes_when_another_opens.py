"""What W says of the page it opened ("W: page 4, …: 3 missed here; the first is in view") stayed in the status bar
for its 15 seconds after the arrow keys in the page list had opened another page, where it reads as said of that
one. It goes as soon as another page opens; a message said after it is no longer W's, and stays."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.app import test_worst_walk_goes_on as walk
from tests.app.window_helpers import said

pytestmark = pytest.mark.app

run_window = walk.run_window  # four pages and a scored run, W walking them from the worst (page 4)
w_to = walk.w_to


def arrow_in_the_page_list(qtbot, window, arrow: Qt.Key) -> None:
    pages = window.page_list.list
    pages.setFocus(Qt.FocusReason.ShortcutFocusReason)
    qtbot.waitUntil(pages.hasFocus, timeout=5_000)
    QTest.keyClick(pages, arrow)


def test_ws_words_go_when_the_arrow_keys_open_another_page(qtbot, run_window) -> None:
    window = run_window
    assert w_to(qtbot, window, "4").startswith("W: page 4, the run's worst")
    arrow_in_the_page_list(qtbot, window, Qt.Key.Key_Up)
    assert window.page_name == "3"
    assert not said(window).startswith("W: page 4"), said(window)


def test_ws_words_stay_while_its_page_is_on_show_and_another_message_stays_after(qtbot, run_window) -> None:
    window = run_window
    w_to(qtbot, window, "4")
    window.open_page("4")  # the same page again
    assert said(window).startswith("W: page 4")
    window.message("something else")
    arrow_in_the_page_list(qtbot, window, Qt.Key.Key_Up)
    assert window.page_name == "3" and said(window) == "something else"
