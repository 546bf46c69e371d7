"""A merge (Shift+T) that leaves out the project's own XPaths lying inside another of its XPaths (`merged` keeps no
nested XPath) still holds every element of the project's record: `decided_since` counts it as merged, not as a take
(it compared the XPaths as written, so the left-out nested one made the merge read as a take)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store import open_project
from recordlens.core.store.adjudication import Adjudication
from recordlens.core.store.project import Provenance
from tests.core.test_annotator_sets_agreement import two  # noqa: F401 - the fixture: ana's labels and bea's set

ANN = Provenance.person("ann")
EXTRA = "/body[1]/p[99]"


def test_a_merge_that_drops_a_nested_xpath_of_the_projects_record_counts_as_merged(two: Path) -> None:  # noqa: F811
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


def test_an_edit_that_loses_an_element_of_the_projects_record_is_still_a_take(two: Path) -> None:  # noqa: F811
    with open_project(two) as project:
        label = project.labels("1")[0]
        since = project.history("1")[-1].at if project.history("1") else ""
        project.edit(label.id, [EXTRA], ANN, adjudicated="bea")
        assert project.adjudication.decided_since("1", "bea", since).words() == (
            "1 adjudication decision made on them: 1 taken (record 1)")
