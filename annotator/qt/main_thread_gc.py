"""Python's cycle collector, run in the GUI thread only.

The collector runs in whichever thread happens to allocate past its threshold. When that is a background job's
thread (a Propose worker encoding a page for Gemini, say), the garbage it frees can hold the wrapper of a Qt
object made in the GUI thread (a page, a view, a window closed earlier), and freeing that outside the GUI thread
crashes the process: a test run ended in a segmentation fault that way, "Garbage-collecting" in a Propose worker.
So while the app runs, automatic collection is off and a timer in the GUI thread collects as the collector itself
would have, by its own thresholds (calibre's way of living with the same hazard).

    collector = collect_in_the_gui_thread(app)   # once, after the QApplication is made
    collector.stop()                             # automatic collection again (tests that leave the app behind)
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

__all__ = ["CHECK_MS", "MainThreadCollector", "collect_in_the_gui_thread", "installed"]

# How often the GUI thread looks at the collector's counts: often enough that garbage never piles up for long,
# rarely enough to cost nothing (a look is three integer comparisons).
CHECK_MS = 1000


class MainThreadCollector(QObject):
    """Collects in the thread it lives in (the GUI thread), by the collector's own thresholds; automatic
    collection is off while it runs."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self.thresholds = gc.get_threshold()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.check)
        self.active = False
        self.start()

    def start(self) -> None:
        gc.disable()
        self.timer.start(CHECK_MS)
        self.active = True

    def stop(self) -> None:
        """Automatic collection again, after collecting here what is garbage now (Qt objects among it)."""
        self.timer.stop()
        self.active = False
        gc.collect()
        gc.enable()

    def check(self) -> int:
        """Collect the oldest generation whose count is over its threshold, and the younger ones (what the
        collector would have done on its own); how many objects were unreachable (0 when nothing was due)."""
        counts = gc.get_count()
        due = -1
        for generation in range(3):
            if counts[generation] <= self.thresholds[generation]:
                break
            due = generation
        return gc.collect(due) if due >= 0 else 0


_installed: list[MainThreadCollector] = []


def collect_in_the_gui_thread(app: QObject) -> MainThreadCollector:
    """The application's collector, made (and started) the first time; call it from the GUI thread."""
    if not _installed:
        _installed.append(MainThreadCollector(app))
    collector = _installed[0]
    if not collector.active:
        collector.start()
    return collector


def installed() -> MainThreadCollector | None:
    """The collector made for this process, if any (whether it runs or not: `active`)."""
    return _installed[0] if _installed else None
