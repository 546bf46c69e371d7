"""Ctrl+C in the tests' child processes. A suite started in the background (`make test &`, some CI runners) runs with
SIGINT ignored; its children inherit that, and Python then installs no KeyboardInterrupt handler in them, so a test
that sends a child SIGINT must first give it the handler a terminal's Ctrl+C would meet."""

from __future__ import annotations

import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

AS_FROM_A_TERMINAL = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"


def with_ctrl_c(argv: Sequence[str]) -> list[str]:
    """`argv` (`python -c PROGRAM ...` or `python -m MODULE ...`) run with Python's own Ctrl+C handler."""
    python, flag, target, *rest = argv
    if flag == "-c":
        return [python, "-c", AS_FROM_A_TERMINAL + target, *rest]
    assert flag == "-m", f"not a python -c/-m command: {argv}"
    program = f"import runpy; runpy.run_module({target!r}, run_name='__main__', alter_sys=True)"
    return [python, "-c", AS_FROM_A_TERMINAL + program, *rest]


@contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """In this process: Python's own Ctrl+C handler for the block, whatever the suite was started with."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


