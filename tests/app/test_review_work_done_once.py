"""The Review tab on a large project: F6 classes the page on show once (it was classed twice, most of a second
each on a page of 700 records), a run chosen again on the same page is not classed again, the project's pages are
read once per action, and the end of an annotator's comparison says what it found, not a bare "done"."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling import review_controller
from recordlens.core.store import Annotators, Project
from recordlens.core.store.project import open_project
from recordlens.core.store.runs import Runs
from tests.app.demo_project import HEADER
from tests.app.review_helpers import review_bea
from tests.app.window_helpers import open_window, said

pytestmark = pytest.mark.app


@pytest.fixture
def counted(monkeypatch) -> Counter:
    """How often the window classes a page against a run (core's `review_page`) and reads every page of the
    project, on the window's own thread."""
    counter: Counter = Counter()

    def counting(name, real):
        def call(*args, **kwargs):
            if threading.current_thread() is threading.main_thread():
                counter[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(review_controller, "review_page", counting("review_page", review_controller.review_page))
    monkeypatch.setattr(Project, "pages", counting("pages", Project.pages))
    return counter


def two_runs(window) -> list[int]:
    project, truth = window.project, window.project.true_records("1")
    runs = []
    for method, records in (("repeats", truth[:10]), ("mdr", [*truth, [HEADER]])):
        run = project.runs.add(method)
        project.runs.add_predictions(run, {"1": records})
        project.runs.finish(run)
        runs.append(run)
    return runs


def test_f6_classes_the_page_once_and_reads_the_pages_once(qtbot, window, counted):
    first, latest = two_runs(window)
    counted.clear()
    QTest.keySequence(window, "F6")  # review opens on the latest run
    assert window.reviewing.run_id == latest and window.review is not None
    assert counted["review_page"] == 1
    assert counted["pages"] <= 1
    assert [r.kind for r in window.review.records].count("spurious") == 1


def test_a_run_chosen_again_on_the_same_page_is_not_classed_again(qtbot, window, counted):
    first, latest = two_runs(window)
    window.start_review(latest)
    runs = window.review_panel.runs
    counted.clear()
    runs.setCurrentIndex(runs.findData(first))
    assert counted["review_page"] == 1 and [r.kind for r in window.review.records].count("spurious") == 0
    runs.setCurrentIndex(runs.findData(latest))
    runs.setCurrentIndex(runs.findData(first))
    assert counted["review_page"] == 1  # both runs' reviews of page 1 were kept
    assert counted["pages"] <= 3  # once per choice
    # Its labels changed: the page is classed again.
    window.project.delete(window.labels[0].id, window.person)
    window.reload_labels([])
    assert counted["review_page"] == 2
    assert [r.kind for r in window.review.records].count("spurious") == 1  # the record no longer true


def test_the_end_of_a_comparison_says_what_it_found(qtbot, window):
    truth = window.project.true_records("1")
    window.project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])
    review_bea(qtbot, window)
    qtbot.waitUntil(lambda: said(window).startswith("compared bea's labels with the project's"), timeout=10_000)
    agreement = window.reviewing.agreements["bea"]
    assert said(window) == (f"compared bea's labels with the project's on 1 page both labelled: P "
                            f"{agreement.precision:.3f}, R {agreement.recall:.3f}, F1 {agreement.f1:.3f}; they "
                            "disagree on 1 of them (W opens the worst)")


def test_only_the_runs_reviewed_last_stay_read(qtbot, window, monkeypatch):
    """A run's predictions are some 20 MB on a project of 1000 pages: those of every run ever chosen were kept."""
    reads: list[int] = []
    real = Runs.predictions
    monkeypatch.setattr(Runs, "predictions", lambda runs, run_id: reads.append(run_id) or real(runs, run_id))
    first, second = two_runs(window)
    third = window.project.runs.add("selector")
    window.project.runs.add_predictions(third, {"1": window.project.true_records("1")})
    window.project.runs.finish(third)
    window.start_review(first)
    runs = window.review_panel.runs
    for run in (second, first, third, first, second):
        runs.setCurrentIndex(runs.findData(run))
        assert window.review is not None and window.review.score.page == "1"
    assert reads == [first, second, third, second]  # the first, reviewed again, was one of the last two
    assert len(window.reviewing._predictions) == review_controller.RUNS_READ
    assert list(window.reviewing._classed) == [first, second]  # the page's reviews too, of the runs chosen last


def test_an_annotators_comparison_keeps_the_disagreements_of_each_page_not_every_record(qtbot, window):
    truth = window.project.true_records("1")
    window.project.annotators.set_page("bea", "1", [*truth[1:], [HEADER]])
    review_bea(qtbot, window)
    (page,) = window.reviewing.agreements["bea"].pages
    assert sorted(r.kind for r in page.review.records) == ["missed", "spurious"]
    assert page.review.score.f1 == window.review.score.f1 < 1  # its figures, as the page on show's
    assert sorted(r.kind for r in window.review.records).count("matched") == len(truth) - 1


def test_the_matcher_is_imported_in_the_background_as_a_project_with_runs_opens(qtbot, tmp_path, project_dir,
                                                                                 monkeypatch):
    """scipy's matcher, which core's score imports as it first classes a page, took most of a second of the
    first F6."""
    imported: list[threading.Thread] = []
    monkeypatch.setattr(review_controller, "_matcher_imported", lambda: False)
    monkeypatch.setattr(review_controller, "_import_the_matcher", lambda: imported.append(threading.current_thread()))
    nothing_to_review = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    nothing_to_review.close()
    assert not imported  # a project without a run nor an annotator: the app starts without it
    with open_project(project_dir) as project:
        project.runs.finish(project.runs.add("handmade"))
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        qtbot.waitUntil(lambda: bool(imported), timeout=10_000)
        assert imported[0] is not threading.main_thread()
    finally:
        window.close()


def test_a_project_opening_reads_its_runs_and_annotators_once(qtbot, tmp_path, project_dir, monkeypatch):
    """The window lists the runs and annotators as a project opens; whether to import the matcher meanwhile is
    told by that list, not by reading them again."""
    with open_project(project_dir) as project:
        project.runs.finish(project.runs.add("handmade"))
    reads: Counter = Counter()
    for owner, name in ((Runs, "all"), (Annotators, "names")):
        real = getattr(owner, name)
        monkeypatch.setattr(owner, name, lambda self, real=real, name=name: reads.update([name]) or real(self))
    monkeypatch.setattr(review_controller, "_matcher_imported", lambda: False)
    imported: list[threading.Thread] = []
    monkeypatch.setattr(review_controller, "_import_the_matcher", lambda: imported.append(threading.current_thread()))
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert reads == Counter({"all": 1, "names": 1})
        qtbot.waitUntil(lambda: bool(imported), timeout=10_000)
    finally:
        window.close()
