"""A restore of a page's copy beside the page imported again, killed after its commit (the copy still in
removed/), run again: a copy holding none of the project's labels but an annotator's and a run's prediction is
found put back already, not refused as a clash with itself."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.store import StoreError, import_paths, init_project, remove_page, restore_page

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"


def _folder(root: Path, page: str) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    shutil.copy(DEMO / "html" / f"{page}.html", root / "html")
    shutil.copy(DEMO / "gt" / f"{page}.json", root / "gt")
    return root


def test_a_beside_restore_killed_after_its_commit_is_found_done_when_run_again(tmp_path: Path) -> None:
    with init_project(tmp_path / "P") as project:
        import_paths(project, [_folder(tmp_path / "alice", "2")], annotator="alice")
        assert project.labels("2") == []
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"2": [["/body[1]"]]})
        removed = remove_page(project, "2")
        import_paths(project, [_folder(tmp_path / "bob", "2")], annotator="bob")
        done = restore_page(project, removed.kept)
        assert done.beside
        shutil.copy2(done.moved_to, removed.kept)  # killed after the commit: the copy is still where it was
        again = restore_page(project, removed.kept)
        assert again.back_already
        assert not removed.kept.exists()


def test_a_copy_whose_prediction_differs_from_the_held_one_is_still_refused(tmp_path: Path) -> None:
    with init_project(tmp_path / "P") as project:
        import_paths(project, [_folder(tmp_path / "alice", "2")], annotator="alice")
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"2": [["/body[1]"]]})
        removed = remove_page(project, "2")
        import_paths(project, [_folder(tmp_path / "bob", "2")], annotator="bob")
        project.runs.add_predictions(run, {"2": [["/body[1]/div[1]"]]})
        with pytest.raises(StoreError, match="both hold predictions or scores of it by run"):
            restore_page(project, removed.kept)
