"""Ctrl+C and SIGTERM held while a short piece of work that must not be cut in two runs, then met as usual.

A stop met part way through some work leaves it half done where half is worse than none or than all: Ray half
started (`runs/ray_engine.py`), a file of answers already paid for half written and rolled back (`agent tasks
generate`'s partial file, `agent/task_generation.py`). While `signals_held()` runs, the first SIGINT or SIGTERM is
only noted; at its end the handlers are as before and the signal noted is raised again, so that it reaches the
command's handler as anywhere else (Ctrl+C: KeyboardInterrupt; SIGTERM: `interruption.Terminated`), just after
the work. Only for work that ends soon by itself: the person's Ctrl+C waits for it.

(The app's `annotator/qt/interruption.py` notes signals for as long as Qt runs, to hand on where its work can
stop; this is the plain-Python hold that core uses.)
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

HELD = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl+C and SIGTERM until the block ends, then raise the first one met (the command handles it)."""
    held: list[int] = []
    try:
        before = {number: signal.signal(number, lambda number, frame: held.append(number)) for number in HELD}
    except ValueError:  # not the main thread: no Python handler runs here, nothing to hold
        yield
        return
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
        if held:  # the first one met, now the command's (Ctrl+C: KeyboardInterrupt; SIGTERM: Terminated)
            signal.raise_signal(held[0])
