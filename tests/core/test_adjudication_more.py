"""Adjudication never lists a record twice (the project's record that is theirs already is found with the
scorer's normalisation), and importing an annotator's labels again names the decisions taken on those it
replaces, which stay as they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, open_project
from tests.core.two_annotators import ANN, dataset, project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def spelt_otherwise(xpath: str) -> str:
    """The same XPath as the scorer reads it: `/html[1]` in front, `[1]` left out of the steps."""
    return "/html[1]" + xpath.replace("[1]", "")


def test_the_projects_record_that_is_theirs_already_is_found_as_the_scorer_normalises(two: Path) -> None:
    with open_project(two) as project:
        labels = project.labels("1")
        eighth = labels[7]
        theirs = [spelt_otherwise(x) for x in reversed(eighth.xpaths)]
        assert project.adjudication.held_as("1", theirs) == eighth
        assert project.adjudication.held_as("1", theirs, besides=eighth.id) is None  # the record a decision changes
        assert project.adjudication.held_as("1", ["/body[1]/nothing[9]"]) is None
        project.reject(eighth.id, ANN)
        assert project.adjudication.held_as("1", theirs) is None  # a rejected record is not the project's


def test_a_re_import_names_the_decisions_taken_on_the_labels_it_replaces_and_leaves_them(
        two: Path, dev_dir: Path, tmp_path: Path) -> None:
    with open_project(two) as project:
        first = project.true_records("1")[0]  # bea left it out: kept
        project.adjudication.keep("1", "bea", None, first, ANN)
        added = project.add_record("1", ["/body[1]"], Provenance.person("bea"), status="accepted", by=ANN,
                                   adjudicated="bea")  # taken
        undone = project.add_record("1", ["/body[1]/div[1]"], Provenance.person("bea"), status="accepted", by=ANN,
                                    adjudicated="bea")
        project.restore("1", added.id, ANN, why="undo")  # taken, then undone: no decision any more
        assert undone.record is not None and undone.record.id not in {label.id for label in project.labels("1")}
        seventh = project.labels("7")[0]
        project.edit(seventh.id, [*seventh.xpaths, "/body[1]"], ANN, adjudicated="bea")  # merged
        labels_1, labels_7 = project.labels("1"), project.labels("7")
        taken_number = next(k + 1 for k, label in enumerate(labels_1) if label.id == added.record.id)

        again = dataset(dev_dir, tmp_path / "bea2")  # her labels as the project's: pages 1 and 7 change
        report = import_paths(project, [again], annotator="bea")
        said = report.summary("bea")
        assert (f"1 ({len(labels_1) - 2} → {len(labels_1) - 1} records; 2 adjudication decisions made on them: "
                f"1 kept, 1 taken (record {taken_number}))") in said
        assert "7 (" in said and "; 1 adjudication decision made on them: 1 merged (record 1))" in said
        assert "the decisions stay as they are: look at pages 1, 7 again in the app's review" in said
        assert "11 (" not in said  # the same labels: nothing replaced
        # never undone silently
        assert project.labels("1") == labels_1 and project.labels("7") == labels_7
        assert len(project.adjudication.kept("1", "bea")) == 1


def test_a_rejection_taken_over_from_an_annotator_is_named_as_taken_on_a_re_import(
        two: Path, dev_dir: Path, tmp_path: Path) -> None:
    with open_project(two) as project:
        second = project.labels("1")[1]
        project.reject(second.id, ANN)
        project.accept(second.id, ANN, adjudicated="bea")  # T on bea's record the project had rejected
        assert project.history("1")[-1].detail.get("adjudicated") == "bea"
        again = dataset(dev_dir, tmp_path / "bea2")
        said = import_paths(project, [again], annotator="bea").summary("bea")
        assert "1 adjudication decision made on them: 1 taken (record 2))" in said
        project.reject(second.id, ANN)  # rejected again since: no decision in force any more
        assert project.adjudication.decided_since("1", "bea", "0").count == 0
