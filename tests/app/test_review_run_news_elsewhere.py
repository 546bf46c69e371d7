"""The Review tab's run under review and run list follow what changes elsewhere (verifier's report): pages labelled
elsewhere (the command line, another window) make the run's stored mean read as out of date at the next look, not
at the next page opened; and a run added or scored elsewhere that is not the one under review is said in one short
message, but not when it is this window's own job's.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (new). The
window looks at its project on a timer (`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import open_project, score_stored_run
from tests.app.demo_project import ITEM
from tests.app.review_helpers import half_run
from tests.app.window_helpers import recent_messages

pytestmark = pytest.mark.app


def test_a_page_labelled_elsewhere_makes_the_run_under_review_say_its_mean_is_out_of_date(qtbot, window,
                                                                                          project_dir):
    project = window.project
    run = half_run(project)
    score_stored_run(project, run)  # page 1 only: page 2 is not labelled
    window.start_review(run)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    assert panel.run_figures.text().splitlines()[0] == "P 1.000   R 0.312   F1 0.476"
    assert not panel.score_button.isVisible()

    with open_project(project_dir) as other:  # `recordlens import` of a labelled page, or another window
        other.add_record("2", [ITEM.format(1)], window.person)
        other.set_status("2", "labelled", window.person)
    window.check_project()

    headline = panel.run_figures.text().splitlines()[0]
    assert headline == "P 1.000   R 0.312   F1 0.476 (scored before 1 page was labelled: Score again)", headline
    assert panel.score_button.isVisible()
    assert window.page_name == "1"  # no other page had to be opened for it


def test_a_run_added_or_scored_elsewhere_is_said_in_one_short_message(qtbot, window, project_dir):
    project = window.project
    under = half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()

    with open_project(project_dir) as other:  # `runs --add` in another process
        added = other.runs.add("mdr")
    window.check_project()
    assert f"run {added} (mdr) added elsewhere: in the run list" in recent_messages(window), recent_messages(window)
    assert window.reviewing.run_id == under

    with open_project(project_dir) as other:
        other.runs.add_predictions(added, {"1": project.true_records("1")})
        other.runs.finish(added)
        score_stored_run(other, added)
    window.check_project()
    said = recent_messages(window)
    assert f"run {added} (mdr) scored (F1 1.000) elsewhere: in the run list" in said, said
    assert window.reviewing.run_id == under


def test_a_run_added_by_this_windows_own_job_is_not_said_as_elsewhere(qtbot, window, project_dir):
    project = window.project
    under = half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    window.message("")
    with open_project(project_dir) as job:  # the window's own Propose job writes through a connection of its own
        job.runs.add("gemini")
    window.after_own_job(False, None)
    assert "elsewhere" not in recent_messages(window), recent_messages(window)
