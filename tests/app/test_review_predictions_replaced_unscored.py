"""The Review tab tells a run's predictions replaced elsewhere when nothing else about the run moved (a run never
scored, as many pages held: `runs --add` bringing a resumed folder up to date replaces records page for page), by
the run's predictions stamp (`RunInfo.predictions_stamp`), not by its counts alone.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (new). The
window looks at its project on a timer (`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import open_project
from tests.app.review_helpers import half_run
from tests.app.window_helpers import said_last

pytestmark = pytest.mark.app


def test_another_never_scored_run_with_its_records_replaced_elsewhere_is_said_so(qtbot, window, project_dir):
    project = window.project
    under, other_run = half_run(project), half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    window.message("")
    with open_project(project_dir) as other:
        other.runs.add_predictions(other_run, {"1": project.true_records("1")[:2]})
    window.check_project()
    assert f"run {other_run} (handmade) given other predictions elsewhere" in said_last(window), said_last(window)
    assert window.reviewing.run_id == under
