"""A status bar whose message ends in "…" where it would run under the permanent widgets (zoom, counts), rather
than being cut mid-word, with a gap before the first of them, so that the two never read as one; fitted
again at once when they move or change. `currentMessage()` is still the whole text, and the windows keep it in
their message log."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAccessible, QAccessibleEvent, QResizeEvent
from PySide6.QtWidgets import QSizeGrip, QStatusBar, QWidget

LEFT = 6  # where Qt starts drawing the message
GAP = "  "  # what the message leaves free before the first permanent widget (as wide as two spaces)
_MOVES = (QEvent.Type.Move, QEvent.Type.Resize, QEvent.Type.Show, QEvent.Type.Hide)


class MessageBar(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._permanent: list[QWidget] = []
        self._text = self._shown = ""
        self._until: float | None = None  # when the message goes (monotonic seconds); None: when replaced
        self.messageChanged.connect(self._announce)
        self._refitting = QTimer(self)  # once the permanent widgets have moved
        self._refitting.setSingleShot(True)
        self._refitting.setInterval(0)
        self._refitting.timeout.connect(self._refit)

    def addPermanentWidget(self, widget: QWidget, stretch: int = 0) -> None:  # noqa: N802 - Qt's name
        super().addPermanentWidget(widget, stretch)
        self._permanent.append(widget)
        # A label beside the message that grows (longer counts), shows or hides moves the message's end without
        # the bar being resized: the message is fitted again then too.
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in _MOVES and watched in self._permanent:
            # At once, in the layout pass that moved it: a refit left for later let a paint in between draw the
            # message over the widget that had grown under it (a blocked count going up)
            self._refit()
            if not self._refitting.isActive():
                self._refitting.start()  # and once the pass is over, for the widgets still to move
        return super().eventFilter(watched, event)

    def showMessage(self, text: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        self._text = text
        self._until = time.monotonic() + timeout / 1000 if timeout > 0 else None
        self._show(timeout)

    def currentMessage(self) -> str:  # noqa: N802 - Qt's name
        shown = super().currentMessage()
        return self._text if shown and shown == self._shown else shown

    def shown_text(self) -> str:
        """The message as drawn: the whole of it, or its start and "…"."""
        return super().currentMessage()

    def message_width(self) -> int:
        """The room the message is given: from 6 px in to 12 px before the end, the size grip or the first
        permanent widget on show, whichever comes first (each less 2 px), as Qt draws it; before a permanent
        widget, less a gap (`GAP`): "…" right against "0 requests blocked" read as one text."""
        right = self.width() - 12
        grip = self.findChild(QSizeGrip)
        if grip is not None and grip.isVisible():
            right = min(right, grip.x() - 2)
        first = next((w for w in self._permanent if w.isVisible() and w.x() > 0), None)  # x 0: not laid out
        if first is not None:
            right = min(right, first.x() - 2 - self.fontMetrics().horizontalAdvance(GAP))
        return max(0, right - LEFT)

    def _show(self, timeout: int) -> None:
        # Never empty for a message (too narrow a bar): an empty one would read as none, here and to the caller.
        self._shown = self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight,
                                                    self.message_width()) or ("…" if self._text else "")
        super().showMessage(self._shown, timeout)

    def _announce(self, shown: str) -> None:
        """A screen reader reads the status bar by its name: the whole message (not its elided start), said anew
        each time it changes."""
        text = self._text if shown and shown == self._shown else shown
        if text == self.accessibleName():
            return
        self.setAccessibleName(text)
        if QAccessible.isActive():
            QAccessible.updateAccessibility(QAccessibleEvent(self, QAccessible.Event.NameChanged))

    def _refit(self) -> None:
        """The message fitted again to the room it has now, for the time it had left."""
        if super().currentMessage() and super().currentMessage() == self._shown:
            self._show(0 if self._until is None else max(1, round((self._until - time.monotonic()) * 1000)))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._refitting.start()
