"""The Review tab while the project changes: the rows an adjudicator chose stay chosen when nothing they show
changed, and showing a page of an annotator's review or listing the runs reads only what it shows (not the
annotator's whole label set, nor every prediction of every run)."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from recordlens.core.store import Annotators, Project, Provenance, labelled_page_names
from recordlens.core.store.project import open_project
from recordlens.core.store.runs import Runs
from tests.app.demo_project import HEADER, ITEM
from tests.app.review_helpers import kinds, review_bea
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

FOOTER = "/body[1]/div[1]/footer[1]"


def spurious_rows(window) -> list[int]:
    return [i for i, kind in enumerate(kinds(window)) if kind == "spurious"]


def choose_both(window) -> list[int]:
    """Two rows chosen at once (a click, then a Ctrl+click): T decides them together."""
    rows, (first, second) = window.review_panel.records, spurious_rows(window)
    rows.setCurrentRow(first)
    rows.item(second).setSelected(True)
    chosen = window.review_panel.chosen_indices()
    assert chosen == [first, second]
    return chosen


def test_the_rows_chosen_stay_chosen_through_a_change_elsewhere_that_leaves_the_page_as_it_was(qtbot, window,
                                                                                            project_dir):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth[:-1], [HEADER], [FOOTER]])
    review_bea(qtbot, window)
    chosen = choose_both(window)

    # A class hidden and shown again refills the list: the rows chosen are still the ones chosen.
    window.review_panel.kind_toggles["matched"].setChecked(False)
    window.review_panel.kind_toggles["matched"].setChecked(True)
    assert window.review_panel.chosen_indices() == chosen

    # Another window marks page 2 labelled and the command line imports bea's labels of page 2: nothing the
    # review of page 1 shows changed, so the list is not rebuilt under the adjudicator.
    with open_project(project_dir) as other:
        other.set_status("2", "labelled", Provenance.person("cli"))
        other.annotators.set_page("bea", "2", [[ITEM.format(1)]])
    window.check_project()
    assert window.review_panel.chosen_indices() == chosen
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)  # the means made again, in the background
    assert window.review_panel.chosen_indices() == chosen

    key(window, "T")
    assert "took bea's version of 2 records (2 added) as one step" in said(window)
    assert [HEADER] in project.true_records("1") and [FOOTER] in project.true_records("1")


def test_bea_imported_again_elsewhere_redraws_the_page_on_show(qtbot, window, project_dir):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", [*truth, [HEADER]])
    review_bea(qtbot, window)
    assert kinds(window).count("spurious") == 1
    with open_project(project_dir) as other:
        other.annotators.set_page("bea", "1", [*truth, [HEADER], [FOOTER]])
    window.check_project()
    assert kinds(window).count("spurious") == 2
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)  # the means made again, before the window closes


@pytest.fixture
def calls(monkeypatch) -> Counter:
    """How often the window makes the whole-project reads: every page of the project, an annotator's whole label set,
    every prediction of a run."""
    counter: Counter = Counter()
    for owner, name in ((Project, "pages"), (Annotators, "all_records"), (Runs, "predictions")):
        real = getattr(owner, name)

        def counted(*args, _real=real, _name=name, **kwargs):
            if threading.current_thread() is threading.main_thread():  # the window's, not a background job's
                counter[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)
    return counter


def show(window, page: str) -> None:
    window.open_page(page)
    assert window.page_view.wait_until_loaded()


def test_a_page_of_an_annotators_review_reads_that_page_of_their_set_not_all_of_it(qtbot, window, project_dir,
                                                                                   calls):
    project = window.project
    project.annotators.set_page("bea", "1", project.true_records("1")[1:])
    project.annotators.set_page("bea", "2", [[ITEM.format(1)]])
    review_bea(qtbot, window)
    calls.clear()
    show(window, "2")
    show(window, "1")
    assert calls["all_records"] == 0
    assert calls["pages"] <= 2  # the labelled pages once per page shown
    with open_project(project_dir) as other:
        other.set_status("2", "reviewed", Provenance.person("cli"))
    calls.clear()
    window.check_project()
    assert calls["all_records"] == 0
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)


def test_listing_the_runs_reads_their_page_names_not_their_predictions(qtbot, window, calls):
    project = window.project

    def run(method: str) -> int:
        run_id = project.runs.add(method)
        project.runs.add_predictions(run_id, {"1": project.true_records("1")[:3]})
        project.runs.finish(run_id)
        return run_id

    runs = [run("repeats")]
    window.start_review(runs[0])
    runs.append(run("mdr"))  # added from the command line while the app is open
    calls.clear()
    window.reviewing.list_runs_again()  # the runs' list opening
    assert calls["predictions"] == 0
    assert "1 page" in window.review_panel.runs.itemText(window.review_panel.runs.findData(runs[1]))
    assert labelled_page_names(project) == ["1"]  # what the review counts as labelled: core's one answer


def test_several_records_change_in_one_step_through_the_window(window):
    ids = [label.id for label in window.labels[:2]]
    assert window.edit_each("delete record", ids, lambda i: window.project.delete(i, window.person)) == 2
    assert window.undo_group.undoText() == "delete record ×2"
    window.undo_group.undo()
    assert [label.id for label in window.project.labels("1")][:2] == ids
