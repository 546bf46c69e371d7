"""The Review tab follows the runs as the command line changes them while the app is open (explorers' report): a
run deleted elsewhere leaves review and is said, a run scored elsewhere shows its figures, a run added elsewhere
is listed; and a run's stored mean scored before more pages were labelled does not read as current.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (new). The
window looks at its project on a timer (`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.review_panel import NO_RUN
from recordlens.core.cli.command import main as recordlens
from recordlens.core.store import open_project, score_stored_run
from tests.app.demo_project import ITEM
from tests.app.review_helpers import half_run
from tests.app.window_helpers import recent_messages

pytestmark = pytest.mark.app


def test_a_run_deleted_elsewhere_leaves_review_and_is_said(qtbot, window, project_dir):
    project = window.project
    kept, deleted = half_run(project), half_run(project)
    score_stored_run(project, deleted)
    window.start_review(deleted)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    assert "F1" in panel.run_figures.text() and panel.records.count()

    assert recordlens(["runs", "--project", str(project_dir), "--delete", str(deleted)]) == 0
    window.check_project()

    assert f"run {deleted} (handmade) was deleted elsewhere" in recent_messages(window), recent_messages(window)
    assert window.reviewing.run_id == NO_RUN
    assert panel.runs.findData(deleted) == -1 and panel.runs.findData(kept) != -1
    assert panel.runs.currentData() == NO_RUN
    assert panel.run_figures.text() == "—"
    assert panel.records.count() == 0 and window.review is None
    assert not panel.score_button.isVisible()


def test_a_run_scored_elsewhere_shows_its_figures_and_one_added_elsewhere_is_listed(qtbot, window, project_dir):
    project = window.project
    run = half_run(project)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    assert panel.run_figures.text().startswith("not scored")

    assert recordlens(["score", "--project", str(project_dir), "--run", str(run)]) == 0
    window.check_project()

    assert panel.run_figures.text().startswith("P 1.000   R 0.312   F1 0.476"), panel.run_figures.text()
    assert f"run {run} was scored elsewhere" in recent_messages(window), recent_messages(window)
    assert not panel.score_button.isVisible()

    with open_project(project_dir) as other:  # `runs --add` or `extract --project` in another process
        added = other.runs.add("elsewhere")
    window.check_project()
    assert panel.runs.findData(added) != -1
    assert window.reviewing.run_id == run and panel.run_id() == run  # the run under review stays so


def test_a_mean_scored_before_pages_were_labelled_says_so_and_not_that_they_were_scored(qtbot, window):
    project = window.project
    run = half_run(project)
    score_stored_run(project, run)  # page 1 only: page 2 is not labelled yet
    project.add_record("2", [ITEM.format(1)], window.person)
    project.set_status("2", "labelled", window.person)  # labelled since: the run holds nothing for it
    window.start_review(run)
    window.page_view.wait_until_drawn()
    figures = window.review_panel.run_figures.text()
    headline = figures.splitlines()[0]
    assert headline == "P 1.000   R 0.312   F1 0.476 (scored before 1 page was labelled: Score again)", figures
    assert "scored as empty predictions" not in figures
    assert "without them" not in figures  # the mean is without it already
    assert "holds nothing for 1 labelled page: not in the mean (labelled since it was scored)" in figures

    window.review_panel.score_button.click()  # scored again: page 2 is in the mean, as an empty prediction
    qtbot.waitUntil(lambda: window.job is None and window.project.runs.get(run).scored_pages == 2, timeout=20_000)
    figures = window.review_panel.run_figures.text()
    assert figures.splitlines()[0] == "P 0.500   R 0.156   F1 0.238", figures
    assert "holds nothing for 1 labelled page: scored as empty predictions" in figures
    assert "without them: F1 0.476 over 1 page it predicted" in figures


def test_this_windows_own_job_filling_the_run_under_review_is_not_called_a_change_elsewhere(qtbot, window,
                                                                                            project_dir):
    project = window.project
    run = half_run(project)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    window.message("")
    with open_project(project_dir) as job:  # the window's own Propose job writes through a connection of its own
        job.runs.add_predictions(run, {"2": project.true_records("1")[:1]})
    window.after_own_job(False, None)
    assert "elsewhere" not in recent_messages(window), recent_messages(window)
    assert window.reviewing.run_id == run
