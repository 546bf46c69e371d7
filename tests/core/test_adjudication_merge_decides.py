"""Shift+T's merge is a decision (`Adjudication.merge`, verifier's report): the project's record takes both versions'
XPaths and the disagreement the merged record still makes with the annotator's (theirs a small part of it: a
partial pair) is decided with it, so that the review lists it as decided and W passes it by; one step of work,
undone and redone as one, and counted once, as a merge, when their labels are imported again."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store import Kept, open_project
from recordlens.core.store.adjudication import Adjudication
from recordlens.core.store.project import Provenance
from tests.core.test_annotator_sets_agreement import two  # noqa: F401 - the fixture: ana's labels and bea's set

ANN = Provenance.person("ann")
EXTRA = "/body[1]/p[99]"  # an element only bea's record names (the merge adds it to the project's)


def merge_one(project):  # noqa: ANN001, ANN201 - a Project; the change, the project's record, theirs, the merge
    label = project.labels("1")[0]
    theirs = [*label.xpaths, EXTRA]
    records = project.annotators.records("bea", "1")
    project.annotators.set_page("bea", "1", [theirs, *records[1:]])
    change = project.adjudication.merge("1", label, "bea", theirs, ANN)
    return change, label, theirs, Adjudication.merged(label.xpaths, theirs)


def test_a_merge_edits_the_record_and_decides_the_pair_in_one_step(two: Path) -> None:  # noqa: F811
    with open_project(two) as project:
        before = project.last_change_id("1")
        change, label, theirs, merged = merge_one(project)
        assert list(project.labels("1")[0].xpaths) == merged
        assert project.adjudication.kept("1", "bea") == {Kept("bea", tuple(theirs), tuple(merged))}
        assert next(iter(project.adjudication.kept("1", "bea"))).merged  # told from a keep (O) by the review
        assert project.adjudication.kept_pages("bea") == {"1": {Kept("bea", tuple(theirs), tuple(merged))}}
        edit, decision = project.history("1")[-2:]
        assert (edit.action, edit.detail["adjudicated"], decision.action) == ("edit", "bea", "keep")
        assert edit.step is not None and edit.step == decision.step and change.id == decision.id
        assert project.adjudication.decided_since("1", "bea", "").words() == (
            "1 adjudication decision made on them: 1 merged (record 1)")  # one decision, not a keep beside it

        project.restore("1", before, ANN, why="undo: merge")
        assert list(project.labels("1")[0].xpaths) == list(label.xpaths)
        assert project.adjudication.kept("1", "bea") == frozenset()
        project.restore("1", change.id, ANN, why="redo: merge")
        assert project.adjudication.kept("1", "bea") == {Kept("bea", tuple(theirs), tuple(merged))}


def test_a_merge_that_changes_nothing_stores_nothing(two: Path) -> None:  # noqa: F811
    with open_project(two) as project:
        label = project.labels("1")[0]
        history = len(project.history("1"))
        assert project.adjudication.merge("1", label, "bea", list(label.xpaths), ANN).id is None
        assert len(project.history("1")) == history
