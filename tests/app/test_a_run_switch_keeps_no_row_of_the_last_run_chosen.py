"""Another run chosen in the Review tab opens that run's review at its first mistake, as a page opens in Review:
the row chosen in the last run's review stayed chosen, drawn selected (the other boxes dimmed), while the page
scrolled to the new run's first mistake, far from it: the row highlighted was not what the view showed. A run
switch now chooses no row; choosing one again scrolls the page to it, as before."""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Project

pytestmark = pytest.mark.app


def run_of_first(project: Project, count: int) -> int:
    """A finished run that found the demo page 1's first `count` records."""
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": project.true_records("1")[:count]})
    project.runs.finish(run)
    return run


def selected_drawn(window: MainWindow) -> list[object]:
    """The review records drawn selected on the page (their badges)."""
    return [drawn["label"] for drawn in window.page_view._records if drawn.get("selected")]


def test_another_run_chosen_leaves_no_row_of_the_last_one_highlighted(qtbot, window: MainWindow) -> None:
    five, twelve = run_of_first(window.project, 5), run_of_first(window.project, 12)
    window.start_review(five)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    panel.records.setCurrentRow(0)  # record 1, matched in both runs
    qtbot.waitUntil(lambda: selected_drawn(window) == ["T1"], timeout=5_000)
    assert panel.chosen_indices() == [0]

    panel.runs.setCurrentIndex(panel.runs.findData(twelve))  # as a choice in the run list
    window.page_view.wait_until_drawn()
    assert [r.kind for r in window.review.records] == ["matched"] * 12 + ["missed"] * 4
    assert panel.chosen_indices() == []  # the page is scrolled to record 13, the first the run missed
    assert selected_drawn(window) == []

    panel.records.setCurrentRow(0)  # chosen again: drawn selected, as any row chosen
    qtbot.waitUntil(lambda: selected_drawn(window) == ["T1"], timeout=5_000)


def test_the_same_run_chosen_again_keeps_the_row(qtbot, window: MainWindow) -> None:
    five = run_of_first(window.project, 5)
    window.start_review(five)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    panel.records.setCurrentRow(2)
    qtbot.waitUntil(lambda: selected_drawn(window) == ["T3"], timeout=5_000)
    window.reviewing.draw()  # the review drawn again (a change elsewhere, a scoring): no switch of run
    assert panel.chosen_indices() == [2] and selected_drawn(window) == ["T3"]
