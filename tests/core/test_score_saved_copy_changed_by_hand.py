"""A page whose saved copy in `snapshots/` was changed by hand since it was stored (its bytes no longer those its
name hashes) is scored again as it is now, and said, as `labels check` and `export` say it: `score --project`
kept the score stored before, its figures of the copy as it was, without a word."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.score import score_page
from recordlens.core.store.project import open_project
from recordlens.core.store.scoring import score_stored_run
from tests.core.cli_runs import run
from tests.core.shop_runs import scored_project

EMPTIED = "<html><head><title>Shop 1</title></head><body><p>sold out</p></body></html>"  # no list any more


def change_by_hand(snapshot: Path, text: str) -> None:
    """As a person would: the stored copy is read-only, so it is made writable, then written over."""
    os.chmod(snapshot, 0o644)
    snapshot.write_text(text, encoding="utf-8")


def test_a_page_whose_saved_copy_changed_is_scored_again_as_it_is_and_said(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        before = next(s for s in project.runs.scores(1) if s.page == "1")
        assert before.hallucinated_records == 0
        change_by_hand(project.snapshot_file("1"), EMPTIED)
        result, warnings, _ = score_stored_run(project, 1)
        page = next(s for s in result.pages if s.page == "1")
        keys = TextKeyIndex(project.load("1").page.text_map)
        afresh = score_page(project.runs.predictions(1)["1"], project.true_records("1"), keys, "1")
        assert (page.f1, page.hallucinated_records) == (afresh.f1, afresh.hallucinated_records)
        assert page.hallucinated_records == 2 and page.f1 != before.f1  # its records name nothing now
        said = [w for w in warnings if "saved copy" in w]
        assert said == ["page 1: its saved copy in the project was changed since it was imported (it no longer "
                        "matches its name, a hash of its bytes): scored as it is now"], warnings
        stored = next(s for s in project.runs.scores(1) if s.page == "1")
        assert (stored.f1, stored.hallucinated_records) == (afresh.f1, 2)  # what is stored is of the copy as it is
        again, warnings, _ = score_stored_run(project, 1)  # still changed: said again, the other pages kept
        assert [w for w in warnings if "saved copy" in w] == said
        assert [s.f1 for s in again.pages] == [s.f1 for s in result.pages]


def test_score_of_the_command_says_the_changed_copy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        change_by_hand(project.snapshot_file("1"), EMPTIED)
    code, out, err = run(capsys, "score", "--project", str(folder), "--run", "1")
    assert code == 0, err
    assert "page 1: its saved copy in the project was changed since it was imported" in err, err
    assert "scored as it is now" in err
