"""The window's recent messages in full (Application → Recent messages): the status bar shows one line and cuts
what does not fit, so a long warning (a one-stage model, a failed job's reason) is read here, and can be copied.

`MessageLog` keeps what `MainWindow.message` said, newest last, with the time it was said; `MessagesDialog`
shows it newest first (the window's tool windows refresh it while it is open).
"""

from __future__ import annotations

from collections import deque
from datetime import datetime

from PySide6.QtWidgets import QDialog, QPlainTextEdit, QWidget

from ..qt.screen_fit import resize_to_fit
from ..qt.widgets import closable_window

KEPT = 200  # messages kept, the oldest dropped first


class MessageLog:
    def __init__(self, kept: int = KEPT) -> None:
        self.entries: deque[tuple[datetime, str]] = deque(maxlen=kept)

    def add(self, text: str) -> None:
        self.entries.append((datetime.now(), text))

    def text(self) -> str:
        return "\n".join(f"{when:%H:%M:%S}  {text}" for when, text in reversed(self.entries))


class MessagesDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("RecordLens — recent messages")
        resize_to_fit(self, 760, 420)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.view.setAccessibleName("recent messages, newest first")
        closable_window(self, self.view)

    def show_log(self, log: MessageLog) -> None:
        self.view.setPlainText(log.text() or "no message yet")
