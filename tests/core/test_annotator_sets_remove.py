"""`recordlens annotators`: the label sets a project holds, and a set (or a page of one) imported by mistake taken
out, what went set aside in the project folder and put back by the import the message names."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import open_project
from tests.core.two_annotators import dataset, project_of_ana_and_bea


@pytest.fixture
def two_sets(dev_dir: Path, tmp_path: Path) -> Path:
    folder = project_of_ana_and_bea(dev_dir, tmp_path)
    with open_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "Bea")], annotator="Bea")  # the mistake
    return folder


def test_the_sets_are_listed_with_their_pages(two_sets: Path, capsys) -> None:
    with open_project(two_sets) as project:
        counts = {page: len(project.annotators.records("bea", page)) for page in ("1", "7", "11")}
    assert main(["annotators", "--project", str(two_sets)]) == 0
    out = capsys.readouterr().out
    assert "Bea: 3 pages, " in out and "bea: 3 pages, " in out
    assert f"  pages (records): 1 ({counts['1']}), 7 ({counts['7']}), 11 ({counts['11']})" in out
    assert main(["annotators", "--project", str(two_sets), "--json"]) == 0
    assert {row["annotator"] for row in json.loads(capsys.readouterr().out)} == {"Bea", "bea"}


def test_a_set_imported_by_mistake_is_removed_and_comes_back(two_sets: Path, capsys) -> None:
    with open_project(two_sets) as project:
        before = project.annotators.all_records("Bea")
        truth = {page: project.true_records(page) for page in before}
    assert main(["annotators", "--project", str(two_sets), "--remove", "Bea"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("removed Bea's label set (3 pages: 1 (")
    with open_project(two_sets) as project:
        assert project.annotators.names() == ["bea"]
        assert {page: project.true_records(page) for page in before} == truth  # the project's own untouched
    command = out.split("(`recordlens ")[1].split("` puts them back")[0]
    assert main([*shlex.split(command), "-q"]) == 0  # as a shell reads it: the paths are quoted
    with open_project(two_sets) as project:
        assert project.annotators.all_records("Bea") == before


def test_one_page_of_a_set_is_removed_and_the_rest_stays(two_sets: Path, capsys) -> None:
    with open_project(two_sets) as project:
        kept_7 = project.annotators.records("bea", "7")
        gone = project.annotators.records("bea", "11")
    assert main(["annotators", "--project", str(two_sets), "--remove", "bea", "--page", "11"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"removed 1 page of bea's label set (11 ({len(gone)} records)); kept in ")
    folder = Path(out.split("; kept in ")[1].split(" (")[0])
    assert json.loads((folder / "gt" / "11.json").read_text(encoding="utf-8")) == gone
    with open_project(two_sets) as project:
        assert project.annotators.pages("bea") == ["1", "7"] and project.annotators.records("bea", "7") == kept_7


def test_what_cannot_be_removed_is_said(two_sets: Path, capsys) -> None:
    assert main(["annotators", "--project", str(two_sets), "--remove", "nobody"]) == 2
    assert "no label set named 'nobody' in the project (annotators: Bea, bea)" in capsys.readouterr().err
    assert main(["annotators", "--project", str(two_sets), "--remove", "bea", "--page", "5"]) == 2
    assert "bea's label set holds no page 5 (its pages: 1, 7, 11)" in capsys.readouterr().err
    assert main(["annotators", "--project", str(two_sets), "--page", "5"]) == 2
    assert "it goes with --remove NAME" in capsys.readouterr().err
    assert not (two_sets / "removed").exists()
