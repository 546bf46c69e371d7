"""A merge (Shift+T) that leaves out the project's own XPaths lying inside another of its XPaths (`merged` keeps no
nested XPath) still holds every element of the project's record: `decided_since` counts it as merged, not as a take
(it compared the XPaths as written, so the left-out nested one made the merge read as a take)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import open_project
from recordlens.core.store.adjudication import Adjudication
from tests.core.two_annotators import ANN, EXTRA, project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def test_a_merge_that_drops_a_nested_xpath_of_the_projects_record_counts_as_merged(two: Path) -> None:
    with open_project(two) as project:
        label = project.labels("1")[0]
        outer = label.xpaths[0]
        ours = [outer, f"{outer}/span[1]"]  # the project's record names an element inside another of its own
        project.edit(label.id, ours, ANN)
        label = project.labels("1")[0]
        theirs = [outer, EXTRA]
        records = project.annotators.records("bea", "1")
        project.annotators.set_page("bea", "1", [theirs, *records[1:]])
        since = project.history("1")[-1].at
        project.adjudication.merge("1", label, "bea", theirs, ANN)
        assert list(project.labels("1")[0].xpaths) == Adjudication.merged(ours, theirs) == [outer, EXTRA]
        assert project.adjudication.decided_since("1", "bea", since).words() == (
            "1 adjudication decision made on them: 1 merged (record 1)")


def test_an_edit_that_loses_an_element_of_the_projects_record_is_still_a_take(two: Path) -> None:
    with open_project(two) as project:
        label = project.labels("1")[0]
        since = project.history("1")[-1].at if project.history("1") else ""
        project.edit(label.id, [EXTRA], ANN, adjudicated="bea")
        assert project.adjudication.decided_since("1", "bea", since).words() == (
            "1 adjudication decision made on them: 1 taken (record 1)")
