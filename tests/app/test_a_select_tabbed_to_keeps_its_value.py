"""A saved page is a record of a page, not a form to fill: a <select> or a slider the keys reach (Tab) keeps the
value it was saved with. The arrows changed it (and a letter chose the option it starts), so that arrows pressed to
scroll changed what the page showed, and its screenshot with it; they scroll the page instead, as elsewhere on it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.app.page_helpers import js
from tests.app.test_a_pages_own_focus_never_takes_the_labelling_keys import keys_in_the_page, press, window_on
from tests.app.window_helpers import open_page_loaded

pytestmark = pytest.mark.app

SELECT = "/body[1]/p[1]/select[1]"
SLIDER = "/body[1]/p[1]/input[1]"
CONTROLS = ("<p><select name='size'><option>small</option><option selected>medium</option><option>xl</option></select> "
            "<input type='range' name='zoom' value='50'></p>")  # after the records: the page scrolls up from them
VALUES = "[document.querySelector('select').value, document.querySelector('input').value]"
SAVED = ["medium", "50"]


def test_arrows_and_letters_on_a_select_or_slider_tabbed_to_change_nothing_and_scroll_the_page(qtbot, tmp_path):
    with window_on(qtbot, tmp_path, "", CONTROLS) as window:
        open_page_loaded(window, "2")
        window.wait_until_drawn()
        keys_in_the_page(qtbot, window)
        for control in (SELECT, SLIDER):
            press(window, Qt.Key.Key_Tab)
            qtbot.waitUntil(lambda c=control: js(window.page_view, "__recordlens.overlay.focusedPath()") == c,
                            timeout=5_000)
            at = js(window.page_view, "scrollY")
            for key in (Qt.Key.Key_Down, Qt.Key.Key_Right, Qt.Key.Key_X):  # X: no command's key, xl's letter
                press(window, key)
            for _ in range(3):
                press(window, Qt.Key.Key_Up)
            # The keys reach the page in order: once the Ups have done what they do, so have the keys before them
            qtbot.waitUntil(lambda a=at: js(window.page_view, "scrollY") < a or js(window.page_view, VALUES) != SAVED,
                            timeout=5_000)
            assert js(window.page_view, VALUES) == SAVED, control
            assert js(window.page_view, "scrollY") < at, control
