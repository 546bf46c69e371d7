"""What a day of real labelling showed (issue 12): each bug has its test here, on the main window with a real
project, real keys and real pointer events."""

from __future__ import annotations

import pytest

from tests.app.demo_project import PRICE_1
from tests.app.window_helpers import key

# `window` (tests/app/conftest.py): a project of the demo product grid (page 1, labelled) and a plain list (page 2).
pytestmark = pytest.mark.app


def test_rejecting_a_rejected_record_is_no_edit_and_takes_no_undo(qtbot, window):
    first = window.project.labels("1")[0]
    window.select_records([first.id])
    key(window, "R")
    assert window.project.labels("1")[0].status == "rejected"
    entries = len(window.project.history("1"))
    stack = window.undo_group.activeStack()
    steps = stack.count()
    window.select_records([first.id])
    key(window, "R")
    assert len(window.project.history("1")) == entries
    assert stack.count() == steps
    key(window, "Ctrl+Z")  # one undo takes the one real reject back
    assert window.project.labels("1")[0].status == "accepted"


def test_review_calls_a_low_overlap_pair_partial_in_its_own_colour_and_the_summary_agrees(qtbot, window):
    from recordlens.annotator.labelling.page_view import STATE_COLOURS

    truth = window.project.true_records("1")
    run = window.project.runs.add("handmade")
    window.project.runs.add_predictions(run, {"1": [[PRICE_1], *truth[1:10]]})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    review = window.review
    kinds = [r.kind for r in review.records]
    assert kinds == ["partial"] + ["matched"] * 9 + ["missed"] * (len(truth) - 10)
    assert 0 < review.records[0].overlap < 0.5
    # The partial pair is drawn twice in its colour: its true record (outlined apart) and the predicted one
    assert [r["colour"] for r in window.page_view._records] == [STATE_COLOURS[k] for k in ["partial", *kinds]]
    assert len(set(STATE_COLOURS.values())) == 4
    figures = window.review_panel.page_figures.text()
    assert f"9 matched · 1 partial · {len(truth) - 10} missed · 0 spurious" in figures
    assert f"overlap {review.score.total_overlap:.2f} of 10 predicted (P) and {len(truth)} true (R)" in figures
    assert window.review_panel.kind_toggles["partial"].text() == "partial (1)"
    # Each row says what the record is, not only its class.
    rows = [window.review_panel.records.item(i).text() for i in range(window.review_panel.records.count())]
    assert all("\n" in row and "(no text)" not in row for row in rows)
    assert window.page_view.core_page.resolve(PRICE_1).text().strip()[:10] in rows[0]
    # A paired row's tip shows the predicted record's text beside the true one's.
    tip = window.review_panel.records.item(0).toolTip()
    predicted, true = tip.split("\n")
    assert predicted.startswith("predicted: ") and true.startswith("true: ") and predicted[11:] != true[6:]
    assert predicted[11:21] in rows[0]
    assert rows[0].startswith("■   T1 ↔ P1  partial") and "\n        predicted: " in rows[0]
    # True records are named by their numbers in the Records tab, where rejected records keep theirs.
    labels = window.project.labels("1")
    window.project.reject(labels[0].id, window.person)
    window.reload_labels()
    window.start_review(run)
    window.page_view.wait_until_drawn()
    rows = [window.review_panel.records.item(i).text() for i in range(window.review_panel.records.count())]
    assert all(" T1 " not in row for row in rows) and any(row.startswith("■   T2 ") for row in rows), rows
    assert {r["label"] for r in window.page_view._records} >= {"T2", "T3"}


def test_a_second_annotator_is_reviewed_against_the_project_and_adjudicated_with_undo(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    labels = project.labels("1")
    # Bea labelled page 1 too: she left out record 1, made record 2 smaller, and added one of her own.
    bea = [truth[1][:1] if len(truth[1]) > 1 else [f"{truth[1][0]}/div[1]"], *truth[2:], ["/body[1]/div[1]/header[1]"]]
    project.annotators.set_page("bea", "1", bea)
    window.start_review("annotator:bea")
    window.page_view.wait_until_drawn()
    review = window.review
    kinds = [r.kind for r in review.records]
    assert kinds.count("missed") == 1 and kinds.count("spurious") == 1
    assert "annotator bea against the project's labels" in window.review_panel.runs.currentText()
    history = len(project.history("1"))

    # T on her extra record takes it into the project's labels: hers by origin, adjudicated by the tester.
    spurious = kinds.index("spurious")
    window.review_panel.records.setCurrentRow(spurious)
    key(window, "T")
    added = project.labels("1")[-1]
    assert added.xpaths == ("/body[1]/div[1]/header[1]",) and added.status == "accepted"
    assert added.origin.name == "bea" and added.changed_by.name == "tester"
    assert len(project.history("1")) == history + 1
    assert [r.kind for r in window.review.records].count("spurious") == 0

    # T on the record only the project has deletes it; Ctrl+Z brings it back.
    missed = [r.kind for r in window.review.records].index("missed")
    window.review_panel.records.setCurrentRow(missed)
    key(window, "T")
    assert labels[0].id not in [label.id for label in project.labels("1")]
    # The history says whose records decided both: the tester made the changes, on bea's records
    from recordlens.annotator.labelling.history_dialog import what
    assert [what(c) for c in project.history("1")[-2:]] == ["take bea's record (added)",
                                                           "delete the record bea did not make"]
    key(window, "Ctrl+Z")
    assert labels[0].id in [label.id for label in project.labels("1")]
    key(window, "Ctrl+Z")
    assert [label.xpaths for label in project.labels("1")] == [label.xpaths for label in labels]
    # Her labels stay apart throughout.
    assert project.annotators.records("bea", "1") == bea


def test_long_review_figures_wrap_in_the_panel_and_change_no_width(qtbot, window):
    splitter = window.centralWidget()
    window.review_panel.show()
    key(window, "F6")  # no run yet: the Review tab
    sizes, width = splitter.sizes(), window.width()
    window.project.annotators.set_page("a-second-annotator-with-a-long-name", "1", window.project.true_records("1"))
    window.start_review("annotator:a-second-annotator-with-a-long-name")
    window.page_view.wait_until_drawn()
    assert window.width() == width and splitter.sizes() == sizes


def test_review_of_an_annotator_shows_the_mean_agreement_over_the_pages_both_labelled(qtbot, window):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", truth[1:])
    window.start_review("annotator:bea")
    qtbot.waitUntil(lambda: "bea" in window.reviewing.agreements and window.job is None, timeout=20_000)
    result = window.reviewing.agreements["bea"]
    assert [p.page for p in result.pages] == ["1"]
    assert f"mean of 1 page(s) both labelled: P 1.000   R {result.recall:.3f}" in window.review_panel.run_figures.text()
    assert window.review_panel.worst.item(0).text().startswith("page 1")
    # Adjudicated to agree (T takes her version of the record only the project has: it goes): the mean follows.
    window.page_view.wait_until_drawn()
    missed = [r.kind for r in window.review.records].index("missed")
    window.review_panel.records.setCurrentRow(missed)
    key(window, "T")
    assert "mean of 1 page(s) both labelled: P 1.000   R 1.000   F1 1.000" in window.review_panel.run_figures.text()
    assert window.reviewing.agreements["bea"].f1 == 1.0


def test_a_pair_that_overlaps_a_little_is_not_shown_as_overlapping_none():
    from recordlens.annotator.labelling.review_panel import overlap_text

    assert (overlap_text(0.5), overlap_text(0.006), overlap_text(0.004)) == ("0.50", "0.01", "< 0.01")
