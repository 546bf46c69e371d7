"""Waiting without freezing: local Qt event loops that pages, scripts and overlays answer into."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEventLoop, QTimer


def spin(ms: int) -> None:
    """Run the event loop for `ms` milliseconds (pages load and answer meanwhile)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def run_until_quit(timeout_ms: int, hold: Callable[[QEventLoop | None], None]) -> None:
    """Spin a local event loop until a callback quits it or `timeout_ms` passes.

    `hold` is given the loop before it runs (so the callback can find and quit it) and None afterwards: the
    callback quits whatever loop is held instead of being connected and disconnected, since PySide 6.12's
    disconnect() corrupts a reference count (see signals.py) and a stale connection would quit later loops."""
    loop = QEventLoop()
    hold(loop)
    timer = QTimer(singleShot=True)
    timer.timeout.connect(loop.quit)
    timer.start(timeout_ms)
    try:
        loop.exec()
    finally:
        timer.stop()
        hold(None)
