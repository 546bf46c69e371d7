"""A Propose over the new pages (Shift+P) that the app's end stopped part way (killed, kill -9) is said when the app
next opens the project, as an import stopped part way is: over how many pages it ran, how many got proposals, and
that Shift+P goes on with the rest. A Shift+P that goes through its pages takes it over, and leaves no mark."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator import app
from recordlens.annotator.program import PROG
from recordlens.core.store.runs import RUNNING_MARKS
from tests.app.window_helpers import imported_project, keep_app_state_private, key, said
from tests.stalled_imports import PAGE, child_stalled

pytestmark = pytest.mark.app

# The app's Shift+P in a child process, as the window runs it: its mark taken over its pages, then proposals stored
# page by page; it waits to be killed once PROPOSED pages have theirs.
STALLING_PROPOSE = """
import sys, time
from recordlens.core.store import Provenance, mark_propose, open_project

root, proposed = sys.argv[1], int(sys.argv[2])
with open_project(root) as project:
    pages = [info.name for info in project.pages() if info.status == "new"]
    mark_propose(project.root, pages)
    for name in pages[:proposed]:
        project.add_records(name, [["/body[1]/ul[1]/li[1]"]], Provenance.extractor("mdr", "0.3", "html"))
    print("waiting", flush=True)
    time.sleep(600)
"""


def propose_killed_part_way(project: Path, proposed: int) -> int:
    """A Propose over the project's new pages killed (kill -9) once `proposed` pages have proposals: its pid."""
    with child_stalled(STALLING_PROPOSE, str(project), str(proposed)) as pid:
        return pid


def test_a_propose_killed_part_way_is_said_at_the_next_opening_and_shift_p_finishes_it(
        qapp, qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    keep_app_state_private(monkeypatch, tmp_path)
    project = imported_project(tmp_path, {f"html/{n}.html": PAGE.format(n=n) for n in range(1, 6)})
    pid = propose_killed_part_way(project, 2)
    capsys.readouterr()
    window = app.open_window(app.parse_args([str(project)]))
    try:
        stopped = "a Propose over 5 new pages was stopped part way, the app closed or killed (begun "
        shown = said(window)
        assert shown.startswith(stopped), shown
        assert shown.endswith(f" by process {pid}): 2 of them have proposals; Shift+P goes on with the 3 pages "
                              "left new"), shown
        assert stopped in window.messages.text()
        assert f"{PROG}: {stopped}" in capsys.readouterr().err

        # Shift+P goes on with the rest: through its pages, it leaves no mark, and nothing is said any more
        window.show()
        window.activateWindow()
        qtbot.waitExposed(window)
        assert window.page_view.wait_until_loaded(30_000)
        key(window, "Shift+P")
        assert window.jobs.job is not None, said(window)
        assert [p.name for p in (project / RUNNING_MARKS).glob("propose-*.json")] != []  # its own, while it runs
        qtbot.waitUntil(lambda: window.jobs.job is None, timeout=120_000)
        assert not list((project / RUNNING_MARKS).glob("propose-*"))
    finally:
        window.close()
    capsys.readouterr()
    again = app.open_window(app.parse_args([str(project)]))
    try:
        assert "a Propose over" not in again.messages.text()
        assert "a Propose over" not in capsys.readouterr().err
    finally:
        again.close()
