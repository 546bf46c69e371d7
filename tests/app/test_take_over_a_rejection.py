"""T on another annotator's record that the project has rejected: the rejected record is accepted, where it is
and with its number, as one change that one undo takes back ("accept the project's rejected record as bea's"), and
the status bar says it overrode the rejection; never the same record a second time, nor left rejected in a second
copy. The take-all button leaves such records to T."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Label, Provenance
from tests.app.demo_project import HEADER
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def reject_the_first(window: MainWindow) -> int:
    """Record 1 of page 1 rejected in the project (as R in the Records panel does); its id."""
    first = window.project.labels("1")[0]
    window.project.reject(first.id, window.person)
    window.reload_labels()
    return first.id


def test_t_on_a_record_the_project_rejected_accepts_it_in_place(qtbot, window: MainWindow) -> None:
    project = window.project
    every = [list(label.xpaths) for label in project.labels("1")]
    rejected = reject_the_first(window)
    project.annotators.set_page("bea", "1", every)  # bea has record 1 too
    review_bea(qtbot, window)
    assert kinds(window).count("spurious") == 1
    choose(window, "spurious")
    history, count = len(project.history("1")), len(project.labels("1"))

    QTest.keySequence(window, "T")
    labels = project.labels("1")
    assert len(labels) == count  # no second record 1
    assert (labels[0].id, labels[0].status) == (rejected, "accepted")  # record 1 still, now accepted
    assert len(project.history("1")) == history + 1  # one change
    newest = project.history("1")[-1]  # the adjudication is in the history, as T's take is
    assert (newest.action, newest.detail.get("adjudicated")) == ("accept", "bea")
    assert "page 1: accept the project's rejected record as bea's: record 1, now accepted (overrides the " \
           "project's rejection)" in said(window)
    assert window.undo_group.undoText() == "accept the project's rejected record as bea's"
    assert "spurious" not in kinds(window)

    QTest.keySequence(window, "Ctrl+Z")  # one undo step puts the rejection back
    labels = project.labels("1")
    assert len(labels) == count and (labels[0].id, labels[0].status) == (rejected, "rejected")


def test_take_all_leaves_a_record_the_project_rejected_to_t(qtbot, window: MainWindow) -> None:
    project = window.project
    every = [list(label.xpaths) for label in project.labels("1")]
    rejected = reject_the_first(window)
    project.annotators.set_page("bea", "1", [*every, [HEADER]])  # record 1 and a record the project lacks
    review_bea(qtbot, window)
    assert window.review_panel.take_all_words.text() == (
        "bea's record the project lacks on this page (left out: 1 rejected in the project; T accepts it)")
    count = len(project.labels("1"))

    QTest.keySequence(window, "Ctrl+T")
    labels = project.labels("1")
    assert len(labels) == count + 1 and list(labels[-1].xpaths) == [HEADER]
    assert (labels[0].id, labels[0].status) == (rejected, "rejected")
    assert "left out 1 rejected in the project; T accepts it" in said(window)


def test_t_on_several_rows_says_which_rejections_it_overrode(qtbot, window: MainWindow) -> None:
    project = window.project
    every = [list(label.xpaths) for label in project.labels("1")]
    rejected = reject_the_first(window)
    project.annotators.set_page("bea", "1", [*every, [HEADER]])
    review_bea(qtbot, window)
    panel = window.review_panel
    for i, kind in enumerate(kinds(window)):
        if kind == "spurious":
            panel.records.item(i).setSelected(True)
    count = len(project.labels("1"))

    QTest.keySequence(window, "T")
    labels = project.labels("1")
    assert len(labels) == count + 1 and (labels[0].id, labels[0].status) == (rejected, "accepted")
    assert ("took bea's version of 2 records (1 added, 1 accepted) as one step; record 1 had been rejected in the "
            "project: now accepted (overrides the rejection)") in said(window)
    QTest.keySequence(window, "Ctrl+Z")
    assert len(project.labels("1")) == count and project.labels("1")[0].status == "rejected"


def test_t_accepts_the_first_rejected_copy_and_deletes_the_others_in_one_step(qtbot, window: MainWindow) -> None:
    """The project rejected the same record twice (proposed twice): T accepts the first and deletes the other, so
    the page never holds the record both accepted and rejected; one undo puts both rejections back."""
    project = window.project
    every = [list(label.xpaths) for label in project.labels("1")]
    rejected = reject_the_first(window)
    copy = project.add_record("1", every[0], Provenance.person("cyd"), status="rejected").after[0].id
    window.reload_labels()
    project.annotators.set_page("bea", "1", every)
    review_bea(qtbot, window)
    choose(window, "spurious")
    count, history = len(project.labels("1")), len(project.history("1"))

    QTest.keySequence(window, "T")
    labels = project.labels("1")
    assert len(labels) == count - 1 and copy not in {label.id for label in labels}
    assert (labels[0].id, labels[0].status) == (rejected, "accepted")
    assert not [label for label in labels if label.status == "rejected" and list(label.xpaths) == every[0]]
    newest = project.history("1")[history:]
    assert [change.action for change in newest] == ["accept", "delete"]
    steps = {change.step for change in newest}
    assert len(steps) == 1 and None not in steps  # one step in History too
    assert "record 1, now accepted (overrides the project's rejection); 1 other rejected copy of it deleted" \
        in said(window)

    QTest.keySequence(window, "Ctrl+Z")
    labels = project.labels("1")
    assert len(labels) == count and {label.id: label.status for label in labels}[copy] == "rejected"
    assert (labels[0].id, labels[0].status) == (rejected, "rejected")


def test_a_redraw_of_the_review_reads_no_rejected_records_from_the_database(qtbot, window: MainWindow,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The take-all button's count of rejected records comes from the labels the window read, not a query more on
    every redraw (a toggle, a hover, a zoom)."""
    project = window.project
    every = [list(label.xpaths) for label in project.labels("1")]
    reject_the_first(window)
    project.annotators.set_page("bea", "1", [*every, [HEADER]])
    review_bea(qtbot, window)
    asked: list[tuple[str, ...] | None] = []
    labels = project.labels

    def counted_labels(page: str, statuses: tuple[str, ...] | None = None) -> list[Label]:
        asked.append(statuses)
        return labels(page, statuses)
    monkeypatch.setattr(project, "labels", counted_labels)
    window.reviewing.draw()
    assert ("rejected",) not in asked
    assert window.review_panel.take_all_words.text().endswith("(left out: 1 rejected in the project; T accepts it)")
