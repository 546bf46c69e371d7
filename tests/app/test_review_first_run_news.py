"""The first run added elsewhere while the app is open is said, as every later one is (verifier's report v34,
finding 1): the runs the window listed as the project opened are what the news is told against, so the first
change a session sees is not swallowed as the review's first look at the runs.

On the main window's project (the demo: page 1 labelled, page 2 new); the window looks at its project on a timer
(`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import open_project
from tests.app.review_helpers import half_run
from tests.app.window_helpers import open_window, recent_messages

pytestmark = pytest.mark.app


def test_the_first_run_added_elsewhere_in_a_session_is_said(window, project_dir):
    with open_project(project_dir) as other:  # `runs --add` in another process, Review never opened
        added = other.runs.add("repeats")
    window.check_project()
    said = recent_messages(window)
    assert f"run {added} (repeats) added elsewhere: in the run list" in said, said
    assert window.review_panel.runs.findData(added) >= 0  # and listed


def test_the_first_run_added_to_a_project_with_runs_is_said_and_the_runs_there_before_are_not(qtbot, tmp_path,
                                                                                               project_dir):
    with open_project(project_dir) as project:
        before = half_run(project)  # there before the app started
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        with open_project(project_dir) as other:
            added = other.runs.add("repeats")
        window.check_project()
        said = recent_messages(window)
        assert f"run {added} (repeats) added elsewhere" in said, said
        assert f"run {before} (handmade)" not in said, said
    finally:
        window.close()
