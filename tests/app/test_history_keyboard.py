"""History (Ctrl+H) from the keyboard: Enter on a chosen row restores to it, Tab goes from the list to "Restore to
here" before Close; and a step of several records names each by the number the person saw it under."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from recordlens.annotator.labelling.history_dialog import HistoryDialog
from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.demo_project import ITEM
from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import key, said, window_on_page

pytestmark = pytest.mark.app

FOUR_ITEMS = [[ITEM.format(k)] for k in range(1, 5)]


def history_of(qtbot, window: MainWindow) -> HistoryDialog:
    """The history dialog opened with Ctrl+H, active, the keys in its list."""
    key(window, "Ctrl+H")
    dialog = window.tools.history_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    dialog.entries.setFocus()
    qtbot.waitUntil(dialog.entries.hasFocus)
    return dialog


def items(window: MainWindow) -> list[tuple[str, ...]]:
    return [label.xpaths for label in window.project.labels(window.page_name)]


def delete_one(window: MainWindow, number: int) -> None:
    label = window.project.labels(window.page_name)[number - 1]
    window.edit("delete record", lambda: window.project.delete(label.id, window.person))


def test_enter_on_a_chosen_row_restores_to_it_and_leaves_the_history_open(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PLAIN_LIST, FOUR_ITEMS) as window:
        delete_one(window, 4)
        delete_one(window, 3)
        dialog = history_of(qtbot, window)
        QTest.keyClick(dialog.entries, Qt.Key.Key_Return)  # nothing chosen yet: nothing to restore
        assert dialog.isVisible() and len(items(window)) == 2  # and the history not closed under the keys

        QTest.keyClick(dialog.entries, Qt.Key.Key_Down)  # the row below the newest: after the first delete
        assert dialog.restore_button.isEnabled()
        QTest.keyClick(dialog.entries, Qt.Key.Key_Return)
        assert items(window) == [(ITEM.format(k),) for k in (1, 2, 3)]
        assert dialog.isVisible() and "restore to change 2" in said(window)
        QTest.keyClick(dialog.entries, Qt.Key.Key_Enter)  # the keypad's Enter too: again to the same state
        assert items(window) == [(ITEM.format(k),) for k in (1, 2, 3)]
        dialog.close()


def test_tab_goes_from_the_list_to_restore_and_then_to_close(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PLAIN_LIST, FOUR_ITEMS) as window:
        delete_one(window, 4)
        delete_one(window, 3)
        dialog = history_of(qtbot, window)
        close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
        QTest.keyClick(dialog.entries, Qt.Key.Key_Down)
        QTest.keyClick(dialog.entries, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is dialog.restore_button
        QTest.keyClick(dialog.restore_button, Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is close
        QTest.keyClick(close, Qt.Key.Key_Backtab)
        QTest.keyClick(dialog.restore_button, Qt.Key.Key_Backtab)
        assert QApplication.focusWidget() is dialog.entries
        QTest.keyClick(dialog.entries, Qt.Key.Key_Return)  # back in the list, Enter restores again, not Close
        assert dialog.isVisible() and len(items(window)) == 3
        QTest.keyClick(dialog.entries, Qt.Key.Key_Tab)
        QTest.keyClick(dialog.restore_button, Qt.Key.Key_Tab)
        QTest.keyClick(close, Qt.Key.Key_Return)  # Enter on Close closes, restoring nothing
        assert not dialog.isVisible() and len(items(window)) == 3


def test_a_step_that_deleted_two_records_names_both_by_their_numbers_before_it(qtbot, tmp_path: Path):
    """Records 2 and 3 deleted together: the second was number 2 once the first had gone, and the step read
    "record 2"."""
    with window_on_page(qtbot, tmp_path, PLAIN_LIST, FOUR_ITEMS) as window:
        chosen = [label.id for label in window.project.labels(window.page_name)[1:3]]
        window.record_panel.select_ids(chosen)
        window.record_panel.list.setFocus()
        QTest.keyClick(window.record_panel.list, Qt.Key.Key_Delete)
        assert items(window) == [(ITEM.format(1),), (ITEM.format(4),)]
        dialog = history_of(qtbot, window)
        step = dialog.entries.topLevelItem(0)
        assert step.childCount() == 2
        assert step.text(4) == "records 2, 3"
        assert [step.child(k).text(4) for k in range(2)] == ["record 3", "record 2"]  # newest first
        assert [line.split(":")[0] for line in step.toolTip(4).splitlines()] == ["record 2 accepted",
                                                                                "record 3 accepted"]
        dialog.close()
