"""Waiting on the GUI without a clock. A fixed `qtbot.wait(ms)` before an assertion holds only on a machine quick
enough: on a busy one the pause can end before the event loop had its turn. What a test waits for is either a
state that comes (wait until it holds, then assert it) or the GUI's queued work done, so that a check that
something did NOT happen (a window grew, a row was chosen) sees that work's outcome."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress

from PySide6.QtWidgets import QApplication

STATE_TIMEOUT_MS = 10_000  # generous: a layout round or a load's handlers on a busy 2-core machine
# Qt delivers an event posted during a delivery at the next turn (its guard against live-lock), and a layout
# tells its parent's one turn later: enough turns for the deepest nesting of the app's windows.
TURNS = 50


def until_it_holds(qtbot, state: Callable[[], bool | None], timeout_ms: int = STATE_TIMEOUT_MS) -> None:  # noqa: ANN001
    """The event loop run until `state()` holds (is true; or, a function of assertions, returns without an
    AssertionError), or `timeout_ms` passed: then it returns all the same, so that the assertion the test makes
    next says what is wrong (a timed-out waitUntil says only that it timed out)."""
    with suppress(qtbot.TimeoutError):
        qtbot.waitUntil(state, timeout=timeout_ms)


def queued_work_done() -> None:
    """What the GUI has queued delivered: posted events (layout requests, zero timers, queued signals), the window
    geometry changes the platform reports, and what these queue in turn, for TURNS turns of the loop. A timer set
    for later is not waited for: a check on what it does waits until that holds."""
    for _ in range(TURNS):
        QApplication.processEvents()
