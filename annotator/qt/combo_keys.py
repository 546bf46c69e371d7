"""A combo box's own keys before a window's shortcuts: Alt+Down and Alt+Up open a focused combo box's list (the
standard keys for it), where the labelling window binds them to climbing the page's elements (Shift+U, U). Qt asks
the focused widget first (a ShortcutOverride event): accepted, the key goes to the combo box, not the shortcut."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox

# The keys a combo box opens its list with (F4 too, which no window binds)
_OPENING_KEYS = frozenset({Qt.Key.Key_Down, Qt.Key.Key_Up})


def opens_its_list(event: QEvent) -> bool:
    """Whether a key event is one a combo box opens its list with: Alt+Down or Alt+Up, no other modifier."""
    return (isinstance(event, QKeyEvent) and event.modifiers() == Qt.KeyboardModifier.AltModifier
            and Qt.Key(event.key()) in _OPENING_KEYS)


class _OwnKeysFirst(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.ShortcutOverride and opens_its_list(event):
            event.accept()  # the key press then reaches the combo box, which opens its list
            return True
        return super().eventFilter(watched, event)


def keeps_its_own_keys(combo: QComboBox) -> None:
    """`combo` opens its list on Alt+Down and Alt+Up while it has the keys, whatever shortcut a window binds them
    to (the shortcut still works everywhere else)."""
    combo.installEventFilter(_OwnKeysFirst(combo))
