"""A child process stopped at an exact point of its model calls, to be killed there (the SIGKILL tests of `agent
run`, `extract` and Propose): the code that wraps `GeminiCaller.METHOD` so that its Nth call (once returned, with
`after`) says STOPPED on stdout and waits for good. The child's own code follows it."""

from __future__ import annotations

STOPPED = "stopped here"

_STOPPING_AT = """
import sys
import threading
from recordlens.core.llm.gemini import GeminiCaller

wrapped, calls = GeminiCaller.{method}, []

def stopping(self, *args, **kwargs):
    result = wrapped(self, *args, **kwargs) if {after} else None
    calls.append(None)
    if len(calls) == {nth}:
        print({stopped!r}, flush=True)
        threading.Event().wait()
    return result if {after} else wrapped(self, *args, **kwargs)

GeminiCaller.{method} = stopping
"""


def caller_stopping_at(method: str, nth: int, *, after: bool) -> str:
    """The code that stops the child where its caller's `method` is called the `nth` time (never for 0)."""
    return _STOPPING_AT.format(method=method, nth=nth, after=after, stopped=STOPPED)
