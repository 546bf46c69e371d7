"""The Review tab as the app tests drive it: bea's labels reviewed against the project's, its rows by class, a row
chosen by its class; and a run of the demo project (tests/app/demo_project.py) to review."""

from __future__ import annotations

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Project


def review_bea(qtbot, window: MainWindow) -> None:
    """Review bea against the project's labels, once every page both labelled is compared."""
    window.start_review("annotator:bea")
    qtbot.waitUntil(lambda: "bea" in window.reviewing.agreements and window.job is None, timeout=20_000)
    window.page_view.wait_until_drawn()


def kinds(window: MainWindow) -> list[str]:
    """The class of each review row (matched, partial, missed or spurious), in the rows' order."""
    return [r.kind for r in window.review.records]


def choose(window: MainWindow, kind: str, nth: int = 0) -> None:
    """Choose the review row of the nth record of a class (every class is shown: rows are the review's order)."""
    window.review_panel.records.setCurrentRow([i for i, k in enumerate(kinds(window)) if k == kind][nth])


def half_run(project: Project) -> int:
    """A finished run that found the first 5 of the demo page 1's 16 records."""
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": project.true_records("1")[:5]})
    project.runs.finish(run)
    return run
