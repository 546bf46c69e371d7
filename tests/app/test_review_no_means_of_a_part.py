"""The Review tab gives no means for a run whose predictions changed since it was scored (a stopped run's folder
added again once its extract went on): a mean of the scores left would be a figure the run never had, as `runs`
says too.

On the main window's project: page 1 the demo product grid (labelled, 16 records), page 2 a plain list (labelled
here, one record)."""

from __future__ import annotations

import pytest

from recordlens.core.store import score_stored_run
from tests.app.demo_project import ITEM
from tests.app.review_helpers import half_run

pytestmark = pytest.mark.app


def test_a_run_whose_prediction_of_a_page_changed_since_it_was_scored_shows_no_means(qtbot, window):
    project = window.project
    project.add_record("2", [ITEM.format(1)], window.person)
    project.set_status("2", "labelled", window.person)
    run = half_run(project)  # page 1's first 5 records; nothing for page 2 (scored as empty)
    score_stored_run(project, run)
    project.runs.add_predictions(run, {"2": project.true_records("2")})  # page 2 predicted since: its score goes
    window.start_review(run)
    window.page_view.wait_until_drawn()
    lines = window.review_panel.run_figures.text().splitlines()
    assert lines[0] == "— (no figures: its predictions changed since it was scored: Score again)", lines
    assert lines[1:] == ["⚠ the run's predictions of 1 page changed since it was scored"], lines  # no hallucinations
    assert window.review_panel.score_button.isVisible()
