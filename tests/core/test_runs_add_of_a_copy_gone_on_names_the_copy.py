"""`runs --add` of a copy of a run's folder whose extract went on (more pages) brings the stored run up to date; the
run then names the copy, which holds what it holds now, where it named the first folder still: `runs` and a
deletion said "from A" of a run whose only whole folder was B."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def _pages(folder: Path, names: tuple[str, ...]) -> Path:
    folder.mkdir()
    for name in names:
        shutil.copy(DEMO / "html" / f"{name}.html", folder)
    return folder


def test_a_run_brought_up_to_date_from_a_copy_of_its_folder_names_the_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(DEMO), "--project", str(project), "-q"]) == 0
    first, copy = tmp_path / "A", tmp_path / "B"
    extract = ("extract", "--method", "repeats", "-q", "--out")
    assert run(capsys, *extract, str(first), "--pages", str(_pages(tmp_path / "two", ("1", "2"))))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(first))[0] == 0
    shutil.copytree(first, copy)
    assert run(capsys, *extract, str(copy), "--pages", str(_pages(tmp_path / "three", ("1", "2", "3"))))[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(copy))
    assert code == 0 and f"{copy} holds run 1, stored from {first} when it held 2 pages" in err, err
    with open_project(project) as opened:
        (held,) = opened.runs.all()
        assert held.predicted_pages == 3 and held.parameters["source"] == str(copy.resolve())
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0 and "from B" in listing and "from A" not in listing, listing
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0 and "deleted run 1 (repeats, from B)" in err, err
