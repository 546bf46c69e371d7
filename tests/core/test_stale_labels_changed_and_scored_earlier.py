"""A page whose labels changed since its score was made by an earlier RecordLens is said changed: a person can act
on that (the labels scored are not the ones there now), which "scored by an earlier RecordLens" alone hides. The
other pages of that earlier RecordLens are said as such, each page once."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import Provenance, open_project
from tests.core.old_projects import as_earlier_schema
from tests.core.shop_runs import scored_project

SAID = "1 page labelled, changed or unmarked since it was scored (2); 2 pages scored by an earlier RecordLens (0, 1)"


def relabelled_under_an_earlier_recordlens(tmp_path: Path, version: int) -> Path:
    """The project scored, then page 2's labels changed, by a RecordLens of schema `version`."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.delete(project.labels("2")[0].id, Provenance.person("ana"))
    as_earlier_schema(folder, version)
    return folder


@pytest.mark.parametrize("version", [6, 10])
def test_a_page_changed_since_an_earlier_recordlens_scored_it_is_said_changed(tmp_path: Path, version: int) -> None:
    folder = relabelled_under_an_earlier_recordlens(tmp_path, version)
    with open_project(folder) as project:
        if version == 10:  # schema 10 said its reader: one earlier than this RecordLens's
            project.db.execute("UPDATE scores SET page_reader = page_reader - 1")
            project.db.conn.commit()
        assert project.runs.stale_pages(1) == ["0", "1", "2"]
        assert project.runs.why_stale(1) == SAID


def test_runs_says_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = relabelled_under_an_earlier_recordlens(tmp_path, 6)
    assert main(["runs", "--project", str(folder)]) == 0
    assert f"(* run 1's figures are out of date: {SAID}; `recordlens score" in capsys.readouterr().out
