"""Other writers of a candidates file, in real second processes, for the tests of its lock (core's
`writing_candidates`): one that holds the lock until told to let go (or is killed), and `agent tasks review` run
when a test says, as patient for the lock as the test is."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.child_lines import first_line

HOLD = """
import sys
from recordlens.core.agent.candidates import writing_candidates
with writing_candidates(sys.argv[1]):
    print("holding", flush=True)
    sys.stdin.readline()  # until the test lets go (or kills this process)
"""

REVIEW_WHEN_TOLD = """
import sys
from recordlens.core.agent import candidates
from recordlens.core.cli.command import main
candidates.LOCK_WAIT_S = 120.0  # waits for the lock as long as the test does: a patient shell user
print("ready", flush=True)
sys.stdin.readline()
sys.exit(main(sys.argv[1:]))
"""


def _child(script: str, *argv: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", script, *argv], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _ended(child: subprocess.Popen[str]) -> tuple[int, str]:
    """Its exit status and stderr, once it ends (killed after a generous minute)."""
    try:
        _, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        _, err = child.communicate(timeout=60)
    return child.returncode, err


@contextlib.contextmanager
def lock_held_elsewhere(path: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the lock of the candidates file `path` (its pid is the child's) until the block
    ends, unless the test kills it first."""
    child = _child(HOLD, str(path))
    try:
        assert first_line(child) == "holding\n", _ended(child)
        yield child
    finally:
        if child.poll() is None:
            child.communicate("\n", timeout=60)
        else:
            _ended(child)


class ReviewInBetween:
    """`recordlens agent tasks review ARGV` in a second process, started at once (its imports done before the test
    goes on) and run when `go` says: between a writer's read and its write, say."""

    def __init__(self, path: Path, ident: str, status: str, reason: str) -> None:
        self.child = _child(REVIEW_WHEN_TOLD, "agent", "tasks", "review", "--candidates", str(path), "--id", ident,
                            "--status", status, "--reason", reason)
        assert first_line(self.child) == "ready\n", _ended(self.child)

    def go(self, wait_s: float = 1.0) -> None:
        """Run it, and give it `wait_s` to end: done by then unless the file's lock keeps it waiting."""
        assert self.child.stdin is not None
        self.child.stdin.write("\n")
        self.child.stdin.flush()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.child.wait(timeout=wait_s)

    def ended(self) -> tuple[int, str]:
        """Its exit status and stderr, once it ends."""
        return _ended(self.child)

    def __enter__(self) -> ReviewInBetween:
        return self

    def __exit__(self, *_: object) -> None:
        if self.child.poll() is None:  # the test failed before it ended
            self.child.kill()
            _ended(self.child)
