"""A blocking call waited for in a thread of its own (core/deadline_calls.py): its value or error comes back as it
ended; a deadline or a cancel ends the wait at once, and what the call then ends with goes to `late` (never both
to the waiting thread and to `late`), counted as pending until it has."""

from __future__ import annotations

import threading
import time

import pytest

from recordlens.core.deadline_calls import DeadlinePassed, WaitCancelled, call_within, late_outcomes_pending


def test_a_call_that_ends_in_time_gives_its_value_or_its_error() -> None:
    assert call_within(lambda: 42, timeout_s=5.0) == 42

    def fails() -> int:
        raise KeyError("nope")

    with pytest.raises(KeyError, match="nope"):
        call_within(fails, timeout_s=5.0, cancelled=lambda: False)


def test_a_deadline_ends_the_wait_and_the_call_goes_on_in_its_thread() -> None:
    release = threading.Event()
    started = time.monotonic()
    with pytest.raises(DeadlinePassed):
        call_within(lambda: release.wait(30), timeout_s=0.3, name="test-deadline-call")
    assert time.monotonic() - started < 5.0
    assert any(thread.name == "test-deadline-call" for thread in threading.enumerate())
    release.set()


def test_a_cancel_ends_the_wait_and_late_gets_what_the_call_ends_with() -> None:
    cancel, release, kept = threading.Event(), threading.Event(), threading.Event()
    outcomes: list[object] = []

    def keep(outcome: object) -> None:
        outcomes.append(outcome)
        kept.set()

    pending = late_outcomes_pending()  # another test's calls, if any
    threading.Timer(0.2, cancel.set).start()
    started = time.monotonic()
    with pytest.raises(WaitCancelled):
        call_within(lambda: release.wait(30) and "paid answer", cancelled=cancel.is_set, late=keep)
    assert time.monotonic() - started < 5.0
    assert late_outcomes_pending() == pending + 1  # counted from the moment the wait gave up, before the answer came
    release.set()
    assert kept.wait(10) and outcomes == ["paid answer"]
    deadline = time.monotonic() + 10
    while late_outcomes_pending() > pending and time.monotonic() < deadline:
        time.sleep(0.01)
    assert late_outcomes_pending() == pending


def test_an_outcome_that_came_first_is_returned_not_handed_to_late() -> None:
    handed: list[object] = []
    cancelled_once_done = threading.Event()

    def answers() -> str:
        cancelled_once_done.set()  # the cancel is true from now on: the outcome and the cancel meet
        return "answer"

    for _ in range(50):
        cancelled_once_done.clear()
        try:
            outcome: object = call_within(answers, cancelled=cancelled_once_done.is_set, late=handed.append,
                                          poll_s=0.001)
        except WaitCancelled:
            outcome = None
            deadline = time.monotonic() + 10
            while not handed and time.monotonic() < deadline:
                time.sleep(0.001)
        time.sleep(0.005)  # a `late` that wrongly got the outcome too would have had it by now
        # one of the two got it, never both, never neither
        assert (outcome == "answer") != bool(handed), (outcome, handed)
        handed.clear()
