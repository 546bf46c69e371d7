"""A page's ground truth that is a folder (gt/N.json made a directory) is said as such by every command that reads
ground truth, and the page is left out as a page whose labels file cannot be read is, never taken for a page with
no labels."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """The demo dataset with page 2's labels file replaced by a folder of that name."""
    shutil.copytree(DEMO, tmp_path / "data")
    (tmp_path / "data" / "gt" / "2.json").unlink()
    (tmp_path / "data" / "gt" / "2.json").mkdir()
    return tmp_path / "data"


def said_a_folder(err: str, dataset: Path) -> bool:
    return f"{dataset / 'gt' / '2.json'}: a folder, not a records file" in err


def test_import_leaves_the_page_out_saying_its_labels_are_a_folder(dataset: Path, tmp_path: Path, capsys) -> None:
    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    code, _, err = run(capsys, "import", str(dataset), "--project", str(tmp_path / "p"), "-q")
    assert code == 1 and said_a_folder(err, dataset) and "page 2 not imported" in err
    from recordlens.core.store.project import open_project

    with open_project(tmp_path / "p") as project:
        assert not project.has_page("2")  # not taken in as a page without labels


def test_score_says_the_labels_file_is_a_folder(dataset: Path, capsys) -> None:
    code, out, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(dataset / "gt"), "--pages",
                         str(dataset / "html"), "-q")
    assert code == 1 and said_a_folder(out, dataset)  # left out, named; the others scored
    assert "without ground truth" not in out + err


def test_labels_check_says_the_page_cannot_be_checked(dataset: Path, capsys) -> None:
    code, out, err = run(capsys, "labels", "check", "--gt", str(dataset / "gt"), "--pages", str(dataset / "html"))
    assert code == 1 and said_a_folder(out + err, dataset) and "page 2: cannot be checked" in out + err


def test_train_leaves_the_page_out_saying_its_labels_are_a_folder(dataset: Path, tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "train", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"), "--out",
                       str(tmp_path / "model.json.gz"), "-q")
    assert code == 0 and said_a_folder(err, dataset) and f"page 2 of {dataset / 'html'} is left out" in err
    assert "no labels" not in err
