"""A window made by `closable_window` with an action button: Enter in it does the action (the named default one, else
the first), never Close; Tab goes from its parts to the actions, then to Close; Esc closes it. Checked on a small
window of its own and on History (Ctrl+H), the app's window with an action."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QListWidget, QPushButton

from recordlens.annotator.qt.widgets import button, closable_window
from tests.app.demo_project import ITEM
from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import key, window_on_page

pytestmark = pytest.mark.app


class Chooser(QDialog):
    """A list to choose from, and two actions that note their pressing."""

    def __init__(self, *, name_the_second: bool) -> None:
        super().__init__()
        self.pressed: list[str] = []
        self.rows = QListWidget()
        self.rows.addItems(["one", "two"])
        self.first = button("First", lambda: self.pressed.append("first"))
        self.second = button("Second", lambda: self.pressed.append("second"))
        actions = [self.first, self.second]
        self.buttons = (closable_window(self, self.rows, actions=actions, default=self.second) if name_the_second
                        else closable_window(self, self.rows, actions=actions))

    @property
    def close_button(self) -> QPushButton:
        return self.buttons.button(QDialogButtonBox.StandardButton.Close)


@contextmanager
def shown(qtbot, dialog: QDialog, focus) -> Iterator[QDialog]:
    """`dialog` shown and active, the keys on `focus`; closed after (not deleted: History is the window's)."""
    try:
        dialog.show()
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow)
        focus.setFocus()
        qtbot.waitUntil(focus.hasFocus)
        yield dialog
    finally:
        dialog.close()


@contextmanager
def chooser(*, name_the_second: bool = False) -> Iterator[Chooser]:
    dialog = Chooser(name_the_second=name_the_second)
    try:
        yield dialog
    finally:
        dialog.deleteLater()


@pytest.mark.parametrize(("name_the_second", "action"), [(False, "first"), (True, "second")])
def test_enter_in_the_list_does_the_default_action_and_esc_closes(qtbot, name_the_second: bool, action: str):
    with chooser(name_the_second=name_the_second) as dialog, shown(qtbot, dialog, dialog.rows):
        assert not dialog.close_button.isDefault()
        QTest.keyClick(dialog.rows, Qt.Key.Key_Down)
        QTest.keyClick(dialog.rows, Qt.Key.Key_Return)
        QTest.keyClick(dialog.rows, Qt.Key.Key_Enter)  # the keypad's Enter too
        assert dialog.pressed == [action, action] and dialog.isVisible()
        QTest.keyClick(dialog.rows, Qt.Key.Key_Escape)
        assert not dialog.isVisible() and dialog.pressed == [action, action]


def test_enter_does_nothing_while_the_default_action_is_disabled(qtbot):
    with chooser() as dialog:
        dialog.first.setEnabled(False)
        with shown(qtbot, dialog, dialog.rows):
            QTest.keyClick(dialog.rows, Qt.Key.Key_Return)
            assert dialog.pressed == [] and dialog.isVisible()  # not closed under the keys either


def test_tab_goes_from_the_parts_to_the_actions_then_to_close_and_enter_on_close_closes(qtbot):
    with chooser() as dialog, shown(qtbot, dialog, dialog.rows):
        for then in (dialog.first, dialog.second, dialog.close_button):
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is then
        QTest.keyClick(dialog.close_button, Qt.Key.Key_Return)  # with the keys on Close, Enter presses it
        assert not dialog.isVisible() and dialog.pressed == []


def test_history_takes_the_rule_enter_restores_and_esc_closes(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PLAIN_LIST, [[ITEM.format(k)] for k in range(1, 4)]) as window:
        label = window.project.labels(window.page_name)[2]
        window.edit("delete record", lambda: window.project.delete(label.id, window.person))
        key(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        with shown(qtbot, dialog, dialog.entries):
            close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
            assert dialog.restore_button.isDefault() and not close.isDefault()
            QTest.keyClick(dialog.entries, Qt.Key.Key_Down)  # before the delete
            QTest.keyClick(dialog.entries, Qt.Key.Key_Return)
            assert len(window.project.labels(window.page_name)) == 3 and dialog.isVisible()
            QTest.keyClick(dialog.entries, Qt.Key.Key_Escape)
            assert not dialog.isVisible()
