"""The menu bar of the app's windows: the title it holds the keys on stays seen (`KeysMenuBar`)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QAction, QActionEvent, QFocusEvent
from PySide6.QtWidgets import QApplication, QMenuBar, QStyle, QStyleOptionMenuItem

from .signals import emit

__all__ = ["HOLDS_THE_KEYS", "KeysMenuBar"]

HOLDS_THE_KEYS = ("the menu bar has the keys (its highlighted title): Left and Right choose a menu, Enter or Down "
                  "opens it, Esc gives the keys back")


class KeysMenuBar(QMenuBar):
    """The window's menu bar, whose title the keys are on is drawn highlighted while it holds them with no menu
    open: after Esc closed a menu opened with Alt and its letter, or after Alt pressed alone. Qt keeps the keys
    there until a second Esc (which gives them back where they were), and Fusion draws a title highlighted only
    while its menu is open: the arrows, Enter and Space then went to the menu bar unseen, and seemed lost.
    `holds_the_keys` tells the window when the menu bar has them so, to say how to give them back (`HOLDS_THE_KEYS`)."""

    holds_the_keys = Signal()

    def initStyleOption(self, option: QStyleOptionMenuItem, action: QAction) -> None:  # noqa: N802 (Qt override)
        super().initStyleOption(option, action)
        # Drawn as the title of an open menu is (Fusion highlights a title only when it is "sunken" too).
        if self.hasFocus() and option.state & QStyle.StateFlag.State_Selected:
            option.state |= QStyle.StateFlag.State_Sunken

    def actionEvent(self, event: QActionEvent) -> None:  # noqa: N802 (Qt override)
        super().actionEvent(event)
        menu = event.action().menu() if event.type() == QEvent.Type.ActionAdded else None
        if menu is not None:
            # Once a menu closes, the keys are still here when Esc closed it (not when an item was chosen)
            menu.aboutToHide.connect(lambda: QTimer.singleShot(0, self, self._say_if_holding_the_keys))

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        super().focusInEvent(event)
        QTimer.singleShot(0, self, self._say_if_holding_the_keys)  # Alt alone (Alt+letter opens its menu at once)

    def _say_if_holding_the_keys(self) -> None:
        if self.hasFocus() and QApplication.activePopupWidget() is None:
            emit(self.holds_the_keys)
