"""Waiting without freezing: local Qt event loops that pages, scripts and overlays answer into."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget


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


def settled_grab(view: QWidget, frame_arrived: Callable[[], bool], timeout_ms: int, interval_ms: int) -> QImage:
    """The view's picture once the page has produced its frame and three grabs `interval_ms` apart agree.

    A page reports a frame as produced before the widget has it (on the offscreen platform no signal says when
    it arrives), so after the page's frame the picture is taken when it has stopped changing."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not frame_arrived() and time.monotonic() < deadline:
        spin(10)
    image = view.grab().toImage()
    unchanged = 0
    while unchanged < 2 and time.monotonic() < deadline:
        spin(interval_ms)
        latest = view.grab().toImage()
        unchanged = unchanged + 1 if latest == image else 0
        image = latest
    return image
