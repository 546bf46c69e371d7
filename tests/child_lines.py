"""A line a test's child process prints, read with a deadline: a child stuck before it prints fails the test (and
is killed) instead of hanging the suite."""

from __future__ import annotations

import subprocess
import threading

# Generous: a child that imports the package and opens a project on a busy 2-core machine
LINE_TIMEOUT_S = 60.0


def first_line(child: subprocess.Popen[str], timeout_s: float = LINE_TIMEOUT_S) -> str:
    """The next line `child` writes to its stdout (a text pipe); "" when it ended without one. No line within
    `timeout_s`: the child is killed and the test fails, with what it wrote to stderr."""
    assert child.stdout is not None
    stdout = child.stdout
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout_s)
    if got:
        return got[0]
    child.kill()
    child.wait(timeout=60)
    reader.join(5)  # its pipe closed with the child: the read ends
    said = child.stderr.read() if child.stderr else ""
    raise AssertionError(f"the child process printed no line within {timeout_s:g} s (killed); its stderr: "
                         f"{said[-3000:]!r}")
