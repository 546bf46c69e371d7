"""`emit()`: emit a Qt signal from Python without corrupting the interpreter (PySide6 6.12 on Python 3.11).

PySide6 6.12.0's `SignalInstance.emit()` (and `disconnect()`) return Python's `True`/`False` without taking a
reference. Before Python 3.12 those bools are reference-counted, so every emit steals one reference to `True`;
after a few thousand emits `True` is freed and the process aborts ("Fatal Python error: bool_dealloc"),
typically at exit, possibly mid-session. Emit through this function: it gives the stolen reference back, and
only where a probe at import shows the bug, so a fixed PySide or Python 3.12+ needs no change here.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any

from PySide6.QtCore import QObject, Signal


class _Probe(QObject):
    fired = Signal()


def _emit_steals_a_reference() -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    for _ in range(16):
        probe.fired.emit()
    # Other threads may touch True meanwhile, so look for the trend, not an exact count.
    return before - sys.getrefcount(True) >= 8


EMIT_STEALS_REFERENCE = _emit_steals_a_reference()


def _give_back(result: Any) -> None:
    if isinstance(result, bool):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(result))


def emit(signal: Any, *args: Any) -> None:
    """`signal.emit(*args)`, minus PySide 6.12's stolen reference to the returned bool."""
    result = signal.emit(*args)
    if EMIT_STEALS_REFERENCE:
        _give_back(result)
