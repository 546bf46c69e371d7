"""Ctrl+C and SIGTERM while Qt runs Python code of ours, handed to their handlers where the work can stop.

Python runs a signal's handler at the next line of Python it runs. While Qt's event loop turns, that may be a Qt
slot's (a DevTools message's, a page's signal): what the handler raises there (Ctrl+C's KeyboardInterrupt, the
command line's SIGTERM interruption) is printed by PySide as a traceback and dropped, and the work goes on as if
nothing had been asked; raised while PySide imports its modules, it aborts the process. So while such work
runs, `DeferredInterruption` only notes the signal, and `check`, called where the work can stop (every wait's
turn of the loop, in plain Python), hands it to the handler it would have reached: the command's, which raises
its interruption (exit 130; SIGTERM: `recordlens: interrupted (SIGTERM)`, exit 143) as anywhere else.

No Qt here: the module can be imported before Qt is.
"""

from __future__ import annotations

import signal
from typing import Any


class DeferredInterruption:
    """`with DeferredInterruption() as interruption:` notes SIGINT and SIGTERM (the first one) instead of
    handling them; `interruption.check()` hands a noted one to its own handler. A signal ignored stays ignored,
    and a signal whose handler returns lets the work go on. On leaving, the handlers are as before and a signal
    noted but not checked is dropped (the work stopped already, raising, or `check` was called last)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self.noted: int | None = None  # the signal noted and not yet handed on
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> DeferredInterruption:
        self._install()
        return self

    def __exit__(self, *_: object) -> None:
        self._restore()

    def check(self) -> bool:
        """False, once a signal noted was handed on to its handler (which raises the interruption): usable as a
        `cancelled` that never says True, for work that is to stop as interrupted rather than as cancelled."""
        signum, self.noted = self.noted, None
        if signum is None:
            return False
        handler = self._previous.get(signum, signal.SIG_DFL)
        self._restore()  # from here on, a signal reaches its handler at once, as in the rest of the command
        if callable(handler):
            handler(signum, None)
        else:
            signal.raise_signal(signum)  # its default: the process ends as the signal would have ended it
        self._install()  # its handler let the work go on
        return False

    def _install(self) -> None:
        for signum in self.SIGNALS:
            if signal.getsignal(signum) in (signal.SIG_IGN, None):  # ignored (a job in the background), or not
                continue                                           # Python's to take
            try:
                self._previous[signum] = signal.signal(signum, self._note)
            except ValueError:  # not the main thread (an embedding program's): its signals are left as they are
                return

    def _restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous = {}

    def _note(self, signum: int, _frame: object) -> None:
        if self.noted is None:
            self.noted = signum
