"""An adjudication undone and redone (both restores of the page's history), or put back by undoing a "Restore to
here", is still an adjudication: `agreement` never counts the adjudicator as a labeller for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recordlens.core.store.agreement import person_pages, project_agreement
from recordlens.core.store.project import Provenance, StoreError, open_project
from tests.core.two_annotators import ANN, project_of_ana_and_bea

ONLY_ADJUDICATED = "'ann' adjudicated (took other annotators' records into the project's labels) but labelled no page"


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    return project_of_ana_and_bea(dev_dir, tmp_path)


def take_beas_last(project) -> int | None:  # noqa: ANN001 - a Project
    """T on a record only bea made (page 1), as the app takes it; the history entry just before it."""
    before = project.last_change_id("1")
    theirs = project.annotators.records("bea", "1")[-1]
    project.add_record("1", [*theirs, "/body[1]"], Provenance.person("bea"), status="accepted", by=ANN,
                       adjudicated="bea")
    return before


def test_an_adjudication_undone_then_redone_is_no_labelling(two: Path) -> None:
    with open_project(two) as project:
        before = take_beas_last(project)
        taken = project.last_change_id("1")
        project.restore("1", before, ANN, why="undo: take bea's record")
        project.restore("1", taken, ANN, why="redo: take bea's record")
        assert person_pages(project, "ann") == {}
        with pytest.raises(StoreError, match=re.escape(ONLY_ADJUDICATED)):
            project_agreement(project, "ann", "bea")


def test_an_undone_restore_to_before_an_adjudication_is_no_labelling(two: Path) -> None:
    with open_project(two) as project:
        before = take_beas_last(project)
        taken = project.last_change_id("1")
        project.restore("1", before, ANN)  # "Restore to here", on the entry before the take
        project.restore("1", taken, ANN, why="undo: restore")
        assert person_pages(project, "ann") == {}


def test_a_record_labelled_after_an_undone_adjudication_is_the_persons(two: Path) -> None:
    with open_project(two) as project:
        before = take_beas_last(project)
        project.restore("1", before, ANN, why="undo: take bea's record")
        project.add_record("1", ["/body[1]"], ANN, status="accepted", by=ANN)  # her own, perhaps the id again
        assert list(person_pages(project, "ann")) == ["1"]
