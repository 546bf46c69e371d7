"""What the Review tab says of runs changed elsewhere (reviewer's probes): a run whose predictions were replaced
(their scores deleted with them) is said as given other predictions, never as scored; a change of the run under
review made while the run list's popup is open is followed and said once it closes (showing the run's figures
meanwhile noted it as seen, and its change was lost: its old predictions stayed cached); and the run under
review's message and the other runs' news are said in one message, not the one over the other at once.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (new). The
window looks at its project on a timer (`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import pytest

from recordlens.core.store import open_project, score_stored_run
from tests.app.demo_project import ITEM
from tests.app.review_helpers import half_run
from tests.app.window_helpers import said_last

pytestmark = pytest.mark.app


def scored_run(project_dir, truth, person) -> int:  # noqa: ANN001 - a Path, page 1's true records, who
    """A run of two pages, finished and scored by another process (page 2 labelled there first)."""
    with open_project(project_dir) as other:
        other.add_record("2", [ITEM.format(1)], person)
        other.set_status("2", "labelled", person)
        added = other.runs.add("mdr")
        other.runs.add_predictions(added, {"1": truth, "2": [[ITEM.format(1)]]})
        other.runs.finish(added)
        score_stored_run(other, added)
    return added


def test_predictions_replaced_elsewhere_are_not_said_as_scored(qtbot, window, project_dir):
    project = window.project
    under = half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    added = scored_run(project_dir, project.true_records("1"), window.person)
    window.check_project()
    assert f"run {added} (mdr) added elsewhere" in said_last(window), said_last(window)

    with open_project(project_dir) as other:  # page 1's predictions replaced: its score goes, nothing is scored
        other.runs.add_predictions(added, {"1": project.true_records("1")[:3]})
    window.check_project()
    assert said_last(window).endswith(f"  run {added} (mdr) given other predictions elsewhere: in the run list"), \
        said_last(window)

    with open_project(project_dir) as other:  # scored again: as many pages as before it lost one
        score_stored_run(other, added)
    window.check_project()
    assert f"run {added} (mdr) scored (F1 " in said_last(window), said_last(window)


@pytest.mark.parametrize("scored", [True, False], ids=["scored", "never-scored"])
def test_the_run_under_review_with_its_predictions_replaced_is_said_so_and_read_again(qtbot, window, project_dir,
                                                                                     scored):
    """Scored or not (a run never scored has no score whose loss would tell it: the predictions' own stamp does)."""
    project = window.project
    under = half_run(project)
    if scored:
        score_stored_run(project, under)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    with open_project(project_dir) as other:  # as many pages, but page 1's records others: its score deleted
        other.runs.add_predictions(under, {"1": project.true_records("1")[:2]})
    window.check_project()
    assert f"run {under}'s predictions changed elsewhere" in said_last(window), said_last(window)
    assert "scored" not in said_last(window), said_last(window)
    held = window.reviewing._predictions.get(under)
    assert held is None or len(held.predictions["1"]) == 2


def test_a_change_made_while_the_run_list_is_open_is_followed_once_it_closes(qtbot, window, project_dir):
    project = window.project
    under = half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    reviewing, runs = window.reviewing, window.review_panel.runs
    runs.showPopup()
    qtbot.waitUntil(lambda: runs.view().isVisible(), timeout=10_000)
    with open_project(project_dir) as other:
        other.runs.add_predictions(under, {"1": project.true_records("1")[:2]}, errors={"2": "boom"})
    window.check_project()  # the list is open: nothing is listed again under the pointer
    runs.hidePopup()
    qtbot.waitUntil(lambda: not runs.view().isVisible(), timeout=10_000)
    window.message("")
    with open_project(project_dir) as other:
        other.add_record("2", [ITEM.format(1)], window.person)  # any change: the window looks again
    window.check_project()
    assert f"run {under}'s predictions changed elsewhere" in said_last(window), said_last(window)
    held = reviewing._predictions.get(under)
    assert held is None or len(held.predictions["1"]) == 2, "the old predictions stayed"


def test_the_run_under_review_and_the_other_runs_are_said_in_one_message(qtbot, window, project_dir):
    project = window.project
    under = half_run(project)
    window.start_review(under)
    window.page_view.wait_until_drawn()
    with open_project(project_dir) as other:
        other.runs.add_predictions(under, {"1": project.true_records("1")[:2]}, errors={"2": "boom"})
        added = other.runs.add("mdr")
    window.check_project()
    assert f"run {under}'s predictions changed elsewhere" in said_last(window), said_last(window)
    assert f"run {added} (mdr) added elsewhere: in the run list" in said_last(window), said_last(window)
