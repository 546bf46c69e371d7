"""The held page keys (test_held_page_keys.py) against two cases a review found: "/" pressed on the way to a page
is not held (it only moves the keys to the record finder: held, the letters typed after it reached the window as
J, R... and were carried out as commands on the page ahead), and a passed-over page's load is told once, not again
at a later page that cannot be shown."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.app.gui_waits import queued_work_done, until_it_holds
from tests.app.test_held_page_keys import LOADED_MS, folder, statuses, wait_until_on, window  # noqa: F401

pytestmark = pytest.mark.app


def pressed(shown, *keys) -> None:
    """Each key to the widget that has the keys, as a keyboard sends it, the event loop not turning between."""
    for key in keys:
        QTest.keyClick(QApplication.focusWidget() or shown, key)


def test_letters_typed_after_a_slash_on_the_way_to_a_page_go_to_the_finder_not_to_the_records(
        qtbot, window, folder):  # noqa: F811 - the fixtures
    window.activateWindow()
    window.record_panel.list.setFocus()
    queued_work_done()
    before = statuses(folder)
    pressed(window, Qt.Key.Key_PageDown, Qt.Key.Key_Slash, Qt.Key.Key_J, Qt.Key.Key_R)
    wait_until_on(qtbot, window, "2")
    queued_work_done()
    assert statuses(folder) == before  # no record rejected by the "r" typed
    assert window.record_panel.finder.text() == "jr"


def test_a_passed_over_pages_load_is_not_told_again_at_a_later_page_that_cannot_be_shown(
        qtbot, window, folder):  # noqa: F811 - the fixtures
    window.project.snapshot_file("3").unlink()  # page 3 cannot be shown
    QTest.keyClick(window, Qt.Key.Key_PageDown)  # page 2 opened at once
    QTest.keyClick(window, Qt.Key.Key_PageDown)  # page 3 ahead, opened on the next turn
    window._to_the_page_ahead.stop()  # page 2's load told before the turn that opens page 3
    until_it_holds(qtbot, lambda: window._passed_over_load is not None, LOADED_MS)
    window._to_the_page_ahead.start()
    until_it_holds(qtbot, lambda: window._ahead is None and window.page_loaded, LOADED_MS)
    wait_until_on(qtbot, window, "2")
    placed: list[str | None] = []
    real = window._place_the_page
    window._place_the_page = lambda: (placed.append(window.page_name), real())
    QTest.keyClick(window, Qt.Key.Key_PageDown)  # toward page 3 again: nothing passed over now
    queued_work_done()
    assert placed == []
