"""DeferredInterruption: Ctrl+C and SIGTERM met while a Qt slot runs are not raised (and dropped) there, but handed to
their own handler where the work can stop; an ignored signal stays ignored, a handler that returns lets the work
go on, and the handlers are as before once it ends."""

from __future__ import annotations

import signal

import pytest
from PySide6.QtCore import QTimer

from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.interruption import DeferredInterruption
from tests.ctrl_c import ctrl_c_raises

pytestmark = pytest.mark.app


def test_ctrl_c_in_a_qt_slot_is_raised_at_the_next_check(qapp) -> None:
    with ctrl_c_raises():
        ctrl_c_in_a_qt_slot_is_raised_at_the_next_check()


def ctrl_c_in_a_qt_slot_is_raised_at_the_next_check() -> None:
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    slot_ended: list[bool] = []

    def slot() -> None:  # as a DevTools message's: Python code run by Qt's event loop
        signal.raise_signal(signal.SIGINT)
        slot_ended.append(True)

    with DeferredInterruption() as interruption:
        QTimer.singleShot(0, slot)
        spin(50)
        assert slot_ended == [True]  # nothing was raised inside the slot, where PySide would drop it
        assert interruption.noted == signal.SIGINT
        with pytest.raises(KeyboardInterrupt):
            interruption.check()  # Python's own handler raised it, here
        assert interruption.check() is False  # handed on once
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_reaches_the_commands_handler_and_an_ignored_signal_stays_ignored() -> None:
    met: list[int] = []

    class Stop(KeyboardInterrupt):
        pass

    def command_handler(signum: int, _frame: object) -> None:  # as the command line's: note, then raise
        met.append(signum)
        raise Stop

    before_term = signal.signal(signal.SIGTERM, command_handler)
    before_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with DeferredInterruption() as interruption:
            signal.raise_signal(signal.SIGINT)  # ignored, as before
            assert interruption.check() is False
            signal.raise_signal(signal.SIGTERM)
            assert met == []  # only noted
            with pytest.raises(Stop):
                interruption.check()
        assert met == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGTERM) is command_handler
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before_term)
        signal.signal(signal.SIGINT, before_int)


def test_a_handler_that_returns_lets_the_work_go_on() -> None:
    met: list[int] = []
    before = signal.signal(signal.SIGTERM, lambda signum, _frame: met.append(signum))
    try:
        with DeferredInterruption() as interruption:
            signal.raise_signal(signal.SIGTERM)
            assert interruption.check() is False and met == [signal.SIGTERM]
            signal.raise_signal(signal.SIGTERM)  # noted again: its own handler is deferred still
            assert met == [signal.SIGTERM] and interruption.noted == signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, before)
