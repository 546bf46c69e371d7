"""A blocking call run in a daemon thread of its own, and waited for until it ends, a deadline passes or a cancel
comes, whichever is first.

For a call that its own timeouts do not bound (an HTTP client's timeout bounds each read, not an answer trickled a
byte at a time; a Gemini call may wait minutes) and that a person's Cancel must not wait for: the Gemini caller
(`llm/gemini.py`), robots.txt fetches (`agent/robots.py`), the app's jobs (`annotator/qt/jobs.py`).

A call given up goes on in its thread: a thread cannot be stopped from outside, and what would end it (closing its
connection) is its caller's to do. What it ends with is dropped, or handed to `late` when given (a paid answer
kept); `late_outcomes_pending()` counts those still to come, for a quit that waits for them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

POLL_S = 0.05  # how often a wait looks at `cancelled`, a flag that cannot wake it


class GivenUp(Exception):
    """The wait for a call ended before the call did; the call goes on in its thread."""


class DeadlinePassed(GivenUp):
    """The call had not ended when its deadline passed."""


class WaitCancelled(GivenUp):
    """The call had not ended when it was cancelled."""


_pending: set[threading.Thread] = set()  # threads of calls given up whose outcome `late` is still to receive
_pending_lock = threading.Lock()


def late_outcomes_pending() -> int:
    """How many calls given up part way are still to end, their outcome to be handed to their `late`."""
    with _pending_lock:
        return sum(1 for thread in _pending if thread.is_alive())


def call_within(call: Callable[[], T], *, timeout_s: float | None = None,
                cancelled: Callable[[], bool] | None = None,
                late: Callable[[T | BaseException], object] | None = None,
                poll_s: float = POLL_S, name: str = "recordlens-call") -> T:
    """`call()`'s value (or its error, raised here) once it ends in a daemon thread named `name`. The wait ends
    with `DeadlinePassed` once `timeout_s` has passed, or `WaitCancelled` once `cancelled()` is true (asked every
    `poll_s`); `late`, when given, is then handed what the call ends with (its value or its error), in its thread.
    An interrupt (Ctrl+C, SIGTERM) met by the waiting thread ends the wait as it comes."""
    handover = _Handover(call, late)
    thread = threading.Thread(target=handover.run, name=name, daemon=True)
    thread.start()
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while not handover.done.is_set():
        reason = _reason_to_give_up(deadline, cancelled)
        if reason is not None and handover.give_up(thread):
            raise reason
        handover.done.wait(_next_look(deadline, poll_s if cancelled is not None else None))
    return handover.outcome()


def _reason_to_give_up(deadline: float | None, cancelled: Callable[[], bool] | None) -> GivenUp | None:
    if cancelled is not None and cancelled():
        return WaitCancelled()
    if deadline is not None and time.monotonic() >= deadline:
        return DeadlinePassed()
    return None


def _next_look(deadline: float | None, poll_s: float | None) -> float | None:
    """How long to wait before looking again: until the deadline, or a poll's time when sooner (None: for ever)."""
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    if poll_s is None:
        return left
    return poll_s if left is None else min(poll_s, left)


class _Handover(Generic[T]):
    """A call's outcome, handed to the waiting thread or, once that gave up, to `late`: never to both or neither
    (the lock decides which, when the outcome and the giving up come at once)."""

    def __init__(self, call: Callable[[], T], late: Callable[[T | BaseException], object] | None) -> None:
        self._call, self._late = call, late
        self.done = threading.Event()  # set once the waiting thread may take the outcome
        self._lock = threading.Lock()
        self._given_up = False
        self._outcome: tuple[bool, T | BaseException] | None = None

    def run(self) -> None:  # the call's thread
        try:
            outcome: tuple[bool, T | BaseException] = (True, self._call())
        except BaseException as error:  # noqa: BLE001 - handed over whole: raised where the call was waited for
            outcome = (False, error)
        with self._lock:
            if not self._given_up:
                self._outcome = outcome
                self.done.set()
                return
        if self._late is None:
            return
        try:
            self._late(outcome[1])
        finally:
            with _pending_lock:
                _pending.discard(threading.current_thread())

    def give_up(self, thread: threading.Thread) -> bool:
        """Leave the call to its thread (its outcome to `late`); False when the outcome came first."""
        with self._lock:
            if self.done.is_set():
                return False
            self._given_up = True
            if self._late is not None:  # counted before the thread can hand `late` anything
                with _pending_lock:
                    _pending.add(thread)
            return True

    def outcome(self) -> T:
        assert self._outcome is not None
        returned, value = self._outcome
        if not returned:
            raise value  # type: ignore[misc] - a BaseException, as caught
        return value  # type: ignore[return-value]
