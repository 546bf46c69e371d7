"""Shift+T's merge is a decision (`Adjudication.merge`, verifier's report): the project's record takes both versions'
XPaths and the disagreement the merged record still makes with the annotator's (theirs a small part of it: a
partial pair) is decided with it, so that the review lists it as decided and W passes it by; one step of work,
undone and redone as one, and counted once, as a merge, when their labels are imported again."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import Kept, open_project
from tests.core.two_annotators import ANN, merge_one, project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def test_a_merge_edits_the_record_and_decides_the_pair_in_one_step(two: Path) -> None:
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


def test_a_merge_that_changes_nothing_stores_nothing(two: Path) -> None:
    with open_project(two) as project:
        label = project.labels("1")[0]
        history = len(project.history("1"))
        assert project.adjudication.merge("1", label, "bea", list(label.xpaths), ANN).id is None
        assert len(project.history("1")) == history
