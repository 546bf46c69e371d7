"""Keeping the project's version of a disagreement with another annotator (O in the app's review): a decision in
the page's history that changes no label, remembered across a restart, undone and redone by a restore, and no
longer in force once either side's record changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import Kept, StoreError, disagreement, open_project, project_agreement
from tests.core.two_annotators import ANN, project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def missed_first(project) -> list[str]:  # noqa: ANN001 - a Project
    """Page 1's first record: the project has it, bea left it out."""
    return list(project.true_records("1")[0])


def test_a_kept_disagreement_is_in_the_history_survives_a_restart_and_changes_no_label(two: Path) -> None:
    with open_project(two) as project:
        labels, figures = project.labels("1"), project_agreement(project, "project", "bea")
        ours = missed_first(project)
        change = project.adjudication.keep("1", "bea", None, ours, ANN)
        assert change.id is not None and change.action == "keep" and change.actor == ANN
        assert change.detail["adjudicated"] == "bea"
        assert project.labels("1") == labels
        assert project_agreement(project, "project", "bea") == figures  # a decision, not a label
        assert project.adjudication.keep("1", "bea", None, ours, ANN).id is None  # kept already
    with open_project(two) as project:
        assert project.adjudication.kept("1", "bea") == {Kept("bea", None, tuple(ours))}
        assert project.adjudication.kept("1", "cyd") == frozenset()
        assert project.adjudication.kept_pages("bea") == {"1": {Kept("bea", None, tuple(ours))}}
        assert project.history("1")[-1].action == "keep"


def test_a_restore_undoes_and_redoes_a_decision_as_one_change(two: Path) -> None:
    with open_project(two) as project:
        before = project.last_change_id("1")
        kept = project.adjudication.keep("1", "bea", None, missed_first(project), ANN)
        undo = project.restore("1", before, ANN, why="undo: keep the project's version")
        assert undo.id is not None  # logged although no record came back: the decision went
        assert project.adjudication.kept("1", "bea") == frozenset()
        redo = project.restore("1", kept.id, ANN, why="redo: keep the project's version")
        assert redo.id is not None and len(project.adjudication.kept("1", "bea")) == 1
        assert project.restore("1", redo.id, ANN).id is None  # nothing to put back: nothing logged


def open_disagreements(project, page: str) -> list[Kept]:  # noqa: ANN001 - a Project
    """The disagreements of bea's labels of a page with the project's that no decision in force keeps, as the app's
    review shows them (bea's records predicted, the project's true)."""
    review = next(p.review for p in project_agreement(project, "bea", "project").pages if p.page == page)
    kept = project.adjudication.kept(page, "bea")
    return [d for r in review.records if (d := disagreement(r, "bea")) is not None and d not in kept]


def keep_all(project, page: str) -> None:  # noqa: ANN001 - a Project
    for decision in open_disagreements(project, page):
        project.adjudication.keep(page, "bea", decision.theirs, decision.ours, ANN)
    assert open_disagreements(project, page) == []


def test_a_decision_stops_applying_once_either_record_changed(two: Path) -> None:
    with open_project(two) as project:
        keep_all(project, "7")  # the record bea labelled a level down: hers spurious, the project's missed
        first = project.labels("7")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]"], ANN)
        assert [d.ours for d in open_disagreements(project, "7")] == [(*first.xpaths, "/body[1]")]

        project.restore("7", project.history("7")[-2].id, ANN)  # the edit undone: both decisions apply again
        assert open_disagreements(project, "7") == []
        theirs = project.annotators.records("bea", "7")
        changed = [next(d.theirs for d in project.adjudication.kept("7", "bea") if d.theirs)[0] + "/*[1]"]
        project.annotators.set_page("bea", "7", [changed if r == [changed[0][:-5]] else r for r in theirs])
        assert [d.theirs for d in open_disagreements(project, "7")] == [tuple(changed)]


def test_a_decision_names_records_as_the_project_holds_them_now(two: Path) -> None:
    with open_project(two) as project:
        with pytest.raises(StoreError, match="page 1 has no such record of the project's"):
            project.adjudication.keep("1", "bea", None, ["/body[1]/nothing[1]"], ANN)
        with pytest.raises(StoreError, match="bea's labels of page 1 hold no such record"):
            project.adjudication.keep("1", "bea", ["/body[1]/nothing[1]"], None, ANN)
        with pytest.raises(StoreError, match="no label set named 'cyd'"):
            project.adjudication.keep("1", "cyd", None, missed_first(project), ANN)
        assert project.history("1")[-1].action != "keep"


def test_the_decision_a_review_record_names() -> None:
    from recordlens.core.records import ReviewRecord

    assert disagreement(ReviewRecord("matched", ("a",), 0, 0, 1.0, ("a",)), "bea") is None
    assert disagreement(ReviewRecord("missed", ("a",), None, 0, 0.0, ("a",)), "bea") == Kept("bea", None, ("a",))
    assert disagreement(ReviewRecord("spurious", ("b",), 0, None, 0.0), "bea") == Kept("bea", ("b",), None)
    assert disagreement(ReviewRecord("partial", ("b",), 0, 0, 0.2, ("a", "b")), "bea") == Kept("bea", ("b",),
                                                                                                 ("a", "b"))
