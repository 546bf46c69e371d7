"""A training of a project's own model under way in another process, as `train --project` or another window's
Learn holds it: a real second process that takes the project's training lock (`training_the_project`) and keeps
it until told to let go."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.child_lines import first_line

# Takes the lock, says so on stdout, and holds it until its stdin closes
HOLDER = """
import sys
from recordlens.core.store.learnt_model import training_the_project

with training_the_project(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


@contextmanager
def training_held_elsewhere(project_dir: Path) -> Iterator[int]:
    """The project's training lock held by another process for the block: its process id. Released (the process
    ends) when the block ends."""
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(project_dir)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = first_line(child)  # a child that never takes the lock fails the test, not hangs it
        if line.strip() != "held":
            child.kill()
            raise AssertionError(f"the training lock was not taken: {line!r} {child.communicate(timeout=60)}")
        yield child.pid
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait(timeout=60)
        if child.stdout is not None:
            child.stdout.close()
        if child.stderr is not None:
            child.stderr.close()
