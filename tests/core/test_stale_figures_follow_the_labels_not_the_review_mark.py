"""A run's stored figures are stale when the labels they were scored against changed, not when a page's review mark
moved between the two marks a run is scored on: marking a labelled page reviewed (the app's V) changes no label,
and every run read "out of date" after it, though scoring again gave the very same figures."""

from __future__ import annotations

import time
from pathlib import Path

from recordlens.core.store import open_project, score_stored_run
from recordlens.core.store.project import Provenance
from tests.core.shop_runs import scored_project

ME = Provenance("person", "me")


def test_a_page_marked_reviewed_leaves_every_run_current(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        before = project.runs.scores(1)
        time.sleep(0.01)  # times are kept to the millisecond: the mark comes after the score
        project.set_status("1", "reviewed", ME)  # the app's V: labelled -> reviewed, no label changed
        assert project.runs.stale_pages(1) == []
        assert project.runs.why_stale(1) == ""
        project.set_status("1", "labelled", ME)  # and back: still the labels scored
        assert project.runs.stale_pages(1) == []
        _, warnings, _ = score_stored_run(project, 1)
        assert [(s.page, s.f1) for s in project.runs.scores(1)] == [(s.page, s.f1) for s in before]


def test_a_label_changed_still_leaves_its_page_stale_whatever_its_mark(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        time.sleep(0.01)
        project.set_status("1", "reviewed", ME)
        first = next(label for label in project.labels("2") if label.is_true)
        project.reject(first.id, ME)  # page 2's truth changed
        assert project.runs.stale_pages(1) == ["2"]
        assert project.runs.why_stale(1) == "1 page labelled, changed or unmarked since it was scored (2)"


def test_a_page_unmarked_or_marked_since_its_score_is_stale_still(tmp_path: Path) -> None:
    """Whether a page counts at all follows its mark (a run is scored on the pages marked labelled or reviewed):
    one unmarked since its score, or marked since without one, is stale, as before."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        time.sleep(0.01)
        project.set_status("0", "new", ME)
        assert project.runs.stale_pages(1) == ["0"]
        score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == []
        project.set_status("0", "reviewed", ME)
        assert project.runs.stale_pages(1) == ["0"]


def test_a_page_marked_reviewed_after_its_prediction_changed_is_said_as_the_runs_doing(tmp_path: Path) -> None:
    """The run's prediction of a page changed (its folder added again, gone on): that is why its score went, and a
    mark moved afterwards (V) does not make it read as labelled since."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.runs.add_predictions(1, {"1": [["/body[1]/h1[1]"]]})
        time.sleep(0.01)
        project.set_status("1", "reviewed", ME)
        assert project.runs.stale_pages(1) == ["1"]
        assert project.runs.why_stale(1) == "the run's predictions of 1 page changed since it was scored (1)"
