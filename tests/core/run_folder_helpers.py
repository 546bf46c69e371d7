"""Run folders added to projects of the demo's pages, for the tests of `runs --add` and of what a stored run
keeps: the demo dataset's pages in a dataset folder, a project of some of them, and a run of all four added while
the project lacked page 4."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
EXTRACT = ("extract", "--method", "mdr", "--pages", str(DEMO / "html"), "-q", "--out")


def dataset(tmp_path: Path, names: tuple[str, ...], folder: str) -> Path:
    """A dataset of some of the demo's pages, with their labels."""
    for kind, suffix in (("html", ".html"), ("gt", ".json")):
        (tmp_path / folder / kind).mkdir(parents=True)
        for name in names:
            shutil.copy(DEMO / kind / f"{name}{suffix}", tmp_path / folder / kind)
    return tmp_path / folder


def project_of(tmp_path: Path, pages: Path) -> Path:
    """A project (tmp_path/p) of the pages of a dataset folder, imported with their labels."""
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(pages), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


def added_while_page_4_was_lacking(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """(project, run folder): a run of the demo's four pages added as run 1 to a project of pages 1 to 3 (page 4
    left out of it, said), then page 4 imported into the project."""
    project = project_of(tmp_path, dataset(tmp_path, ("1", "2", "3"), "ds3"))
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 1
    assert main(["import", str(dataset(tmp_path, ("4",), "ds4")), "--project", str(project), "-q"]) == 0
    return project, out
