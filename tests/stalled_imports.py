"""A `recordlens import` in a child process that stops once it has brought some pages into its project and waits
there to be killed: for the tests of what a kill -9 part way through an import leaves, and of what the next
command, or the app's next start, says of it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.child_lines import first_line

PAGE = "<!doctype html><html><head><title>Page {n}</title></head><body><ul><li>item {n}</li></ul></body></html>"

# The command in a child process, which says when it has brought in its STOP_AFTER-th page (pages already in the
# project are not counted) and then waits to be killed
STALLING_IMPORT = """
import sys, time
from recordlens.core.cli.command import main
from recordlens.core.store import importer

project, folder, stop_after = sys.argv[1], sys.argv[2], int(sys.argv[3])
imported = importer.import_page

def stalling(project, source, report):
    if len(report.imported) == stop_after:
        print("waiting", flush=True)
        time.sleep(600)
    imported(project, source, report)

importer.import_page = stalling
sys.exit(main(["import", folder, "--project", project, "-q"]))
"""


def a_folder_of_pages(folder: Path, count: int) -> Path:
    """`folder` holding pages 1.html to COUNT.html, each of its own bytes."""
    folder.mkdir(parents=True)
    for n in range(1, count + 1):
        (folder / f"{n}.html").write_text(PAGE.format(n=n), encoding="utf-8")
    return folder


@contextmanager
def child_stalled(script: str, *args: str) -> Iterator[int]:
    """`script` run in another process with `args`, under way once it says "waiting" (its first line), for the block
    (its process id); killed (kill -9) when the block ends."""
    child = subprocess.Popen([sys.executable, "-c", script, *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first_line(child) == "waiting\n"
        yield child.pid
    finally:
        child.kill()
        child.wait(timeout=60)
        child.stdout.close()  # type: ignore[union-attr]
        child.stderr.close()  # type: ignore[union-attr]


@contextmanager
def import_stalled(project: Path, folder: Path, stop_after: int) -> Iterator[int]:
    """`recordlens import FOLDER --project PROJECT` under way in another process, `stop_after` pages in, for the
    block (its process id); killed (kill -9) when the block ends."""
    with child_stalled(STALLING_IMPORT, str(project), str(folder), str(stop_after)) as pid:
        yield pid


def import_killed_part_way(project: Path, folder: Path, stop_after: int) -> int:
    """An import of `folder` into `project` killed (kill -9) once `stop_after` pages are in: its process id."""
    with import_stalled(project, folder, stop_after) as pid:
        return pid
