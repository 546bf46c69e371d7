"""An export run in a child process that stops at its project's last page and waits there to be killed: for the
tests of what a kill -9 part way through an export leaves (the earlier file, a hidden file beside it)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.child_lines import first_line

# The export in a child process, which says when it reaches the last page and then waits to be killed
STALLING_EXPORT = """
import sys, time
from recordlens.core.store import open_project
from recordlens.core.store.exporter import export_project

def stalling(pages):
    for number, info in enumerate(pages, 1):
        if number == len(pages):
            print("at the last page", flush=True)
            time.sleep(600)
        yield info

with open_project(sys.argv[1]) as project:
    export_project(project, sys.argv[2], sys.argv[3], stalling)
"""


@contextmanager
def export_stalled_at_its_last_page(project: Path, fmt: str, out: Path) -> Iterator[None]:
    """An export of `project` as `fmt` into `out`, at its last page (the earlier pages' lines written) for the
    block, killed (kill -9) when the block ends."""
    child = subprocess.Popen([sys.executable, "-c", STALLING_EXPORT, str(project), fmt, str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first_line(child) == "at the last page\n"
        yield
    finally:
        child.kill()
        child.wait(timeout=60)
        child.stdout.close()  # type: ignore[union-attr]
        child.stderr.close()  # type: ignore[union-attr]
