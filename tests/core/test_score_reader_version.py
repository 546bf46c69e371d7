"""Each stored score says which page reader made it; one made by another (or by an earlier RecordLens, which did
not say) is stale whenever it was made, and is made again. Scores kept in a removed page's copy written under
schema 6 come back with the page, as made by an earlier RecordLens."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import (
    Provenance,
    StoreError,
    open_project,
    remove_page,
    restore_page,
    score_stored_run,
)
from recordlens.core.store.db import connect
from recordlens.core.store.project import Project
from recordlens.core.store.runs import PAGE_READER_VERSION
from tests.core.old_projects import as_earlier_schema
from tests.core.shop_runs import scored_project


def as_schema_6(folder: Path) -> None:
    """The project as RecordLens of schema 6 (which stored no page reader) leaves it; its scores made just now."""
    as_earlier_schema(folder, 6)


def test_scores_made_by_an_earlier_recordlens_are_stale_however_recent(tmp_path: Path) -> None:
    """An earlier RecordLens of schema 6 may read pages as before whenever it runs (a colleague's install): its
    scores, made after the reader changed, are no proof of the reader that made them."""
    folder = scored_project(tmp_path)
    as_schema_6(folder)
    with open_project(folder) as project:
        assert project.runs.stale_pages(1) == ["0", "1", "2"]
        assert project.runs.scored_by_an_earlier_reader(1) == ["0", "1", "2"]
        assert {s.page_reader for s in project.runs.scores(1)} == {None}
        score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == [] and project.runs.scored_by_an_earlier_reader(1) == []
        assert {s.page_reader for s in project.runs.scores(1)} == {PAGE_READER_VERSION}


def test_a_score_of_another_reader_is_stale(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.db.execute("UPDATE scores SET page_reader = ? WHERE page_id = (SELECT id FROM pages WHERE name = '1')",
                           (PAGE_READER_VERSION - 1,))
        project.db.conn.commit()
        assert project.runs.stale_pages(1) == ["1"] == project.runs.scored_by_an_earlier_reader(1)
        assert project.runs.scored_by_a_later_reader(1) == []
        project.delete(project.labels("2")[0].id, Provenance.person("ana"))  # and page 2's labels changed
        assert project.runs.why_stale(1) == ("1 page labelled, changed or unmarked since it was scored (2); "
                                             "1 page scored by an earlier RecordLens (1)")


def test_a_score_of_a_later_reader_is_stale_and_said_as_later(tmp_path: Path) -> None:
    """Two installs share the project: the newer one's scores are no earlier RecordLens's to the older one, which
    scores them again for figures that agree with its own reading of the pages, and says so."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.db.execute("UPDATE scores SET page_reader = ? WHERE page_id = (SELECT id FROM pages WHERE name = '1')",
                           (PAGE_READER_VERSION + 1,))
        project.db.execute("UPDATE scores SET page_reader = NULL WHERE page_id = (SELECT id FROM pages "
                           "WHERE name = '2')")
        project.db.conn.commit()
        assert project.runs.stale_pages(1) == ["1", "2"]
        assert project.runs.scored_by_a_later_reader(1) == ["1"]
        assert project.runs.scored_by_an_earlier_reader(1) == ["2"]
        assert project.runs.why_stale(1) == ("1 page scored by an earlier RecordLens (2); "
                                             "1 page scored by a later RecordLens (1)")
        score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == [] and project.runs.scored_by_a_later_reader(1) == []


def test_runs_says_pages_scored_by_an_earlier_recordlens_as_such(tmp_path: Path, capsys) -> None:
    folder = scored_project(tmp_path)
    as_schema_6(folder)
    capsys.readouterr()
    assert main(["runs", "--project", str(folder)]) == 0
    assert (f"(* run 1's figures are out of date: 3 pages scored by an earlier RecordLens (0, 1, 2); `recordlens "
            f"score --project {folder} --run 1` scores it again)") in capsys.readouterr().out


def removed_under_schema_6(tmp_path: Path) -> tuple[Path, Path]:
    """The project, and the copy of its page 1 removed by a RecordLens of schema 6."""
    folder = scored_project(tmp_path)
    as_schema_6(folder)
    with Project(folder, connect(folder / "project.db")) as project:  # as schema 6 code has it: not migrated
        assert project.schema_version() == 6
        removed = remove_page(project, "1")
    return folder, removed.kept


def test_a_page_removed_under_schema_6_is_put_back_with_its_scores_made_again(tmp_path: Path) -> None:
    folder, copy = removed_under_schema_6(tmp_path)
    with open_project(folder) as project:  # brought up to this schema
        score_stored_run(project, 1)  # the pages left, scored by this reader
        assert project.runs.stale_pages(1) == []
        restored = restore_page(project, copy)
        assert restored.rows["scores"] == 1 and restored.rows["predictions"] == 1 and restored.rows["records"]
        assert project.runs.stale_pages(1) == ["1"] == project.runs.scored_by_an_earlier_reader(1)
        assert len(project.true_records("1")) == 2
        score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == []


def test_a_copy_of_a_schema_before_page_copies_is_refused(tmp_path: Path) -> None:
    folder, copy = removed_under_schema_6(tmp_path)
    copy.write_text(copy.read_text(encoding="utf-8").replace('"schema_version": 6', '"schema_version": 5'),
                    encoding="utf-8")
    with open_project(folder) as project, pytest.raises(StoreError, match="schema version 5"):
        restore_page(project, copy)
