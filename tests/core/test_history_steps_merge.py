"""A merge (Shift+T, `Adjudication.merge`) is stored as two changes, its edit and the keep of the pair it leaves, that
a history shows as one action: `history_steps` keeps them in one step, alone or inside a step of several, and the
keep tells itself apart (`Change.ends_a_merge`) from a keep made on its own (O), which ends nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import history_steps, open_project
from tests.core.two_annotators import ANN, merge_one, project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def test_a_merges_keep_ends_it_and_is_in_its_step_alone_or_inside_another(two: Path) -> None:
    with open_project(two) as project:
        merge_one(project)
        edit, keep = project.history("1")[-2:]
        assert keep.ends_a_merge and not edit.ends_a_merge
        assert history_steps(project.history("1"))[-1] == [edit, keep]  # one step of its own

        with project.one_step("merge bea's versions into the project's"):  # Shift+T on several rows
            label = project.labels("1")[1]
            theirs = [*label.xpaths, "/body[1]/p[98]"]
            records = project.annotators.records("bea", "1")
            project.annotators.set_page("bea", "1", [records[0], theirs, *records[2:]])
            project.adjudication.merge("1", label, "bea", theirs, ANN)
            first = project.labels("1")[0]
            kept = project.adjudication.keep("1", "bea", None, list(first.xpaths), ANN)  # O, in the same step
        step = history_steps(project.history("1"))[-1]
        assert [(c.action, c.ends_a_merge) for c in step] == [("edit", False), ("keep", True), ("keep", False)]
        assert kept.id == step[-1].id and not kept.ends_a_merge
