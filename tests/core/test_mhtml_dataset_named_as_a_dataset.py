"""A dataset whose pages are in `DIR/mhtml/` beside `DIR/gt/` (as the importer takes one: `page.dataset.dataset_pages`)
is named as a dataset when it is given where a project, or a folder of pages, is asked for, as one with `DIR/html/`
is; a folder named mhtml with no labels beside it is no dataset."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store.db import StoreError
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run


def _mhtml_dataset(tmp_path: Path) -> Path:
    root = tmp_path / "shops"
    (root / "mhtml").mkdir(parents=True)
    (root / "gt").mkdir()
    return root


def test_opening_an_mhtml_dataset_as_a_project_names_its_pages(tmp_path: Path) -> None:
    root = _mhtml_dataset(tmp_path)
    with pytest.raises(StoreError) as refused:
        open_project(root)
    assert f"(a dataset: commands take it as --pages {root / 'mhtml'} --gt {root / 'gt'}" in str(refused.value)
    (root / "gt").rmdir()  # pages, no labels: not a dataset
    with pytest.raises(StoreError) as refused:
        open_project(root)
    assert "a dataset" not in str(refused.value)


def test_extract_on_an_mhtml_dataset_folder_points_to_its_pages(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    root = _mhtml_dataset(tmp_path)
    code, _, err = run(capsys, "extract", "--method", "mdr", "--pages", str(root), "--out", str(tmp_path / "run"),
                       "-q")
    assert code == 2 and "Traceback" not in err
    assert f"(a dataset? its pages are in {root / 'mhtml'})" in err, err
