"""Another annotator's labels of a page the project holds under another name (the same bytes: the file renamed in
their copy) go onto the project's page, said in one line, so that agreement compares them (a verifier's finding:
they went onto a second copy of the page, which agreement compared with nothing). Where the page cannot be told (its
bytes are several pages of the project, or the import brings that page's labels under its own name too) it is still
a page of its own, said with what that means for agreement."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project, open_project

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"


def theirs(root: Path, pages: dict[str, str], *, from_record: int = 1) -> Path:
    """A dataset of the demo's pages (value) under other names (key), their labels from record `from_record` on: a
    colleague's, leaving out each page's first record (1), or the demo's own whole (0)."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name, demo in pages.items():
        shutil.copy(DEMO / "html" / f"{demo}.html", root / "html" / f"{name}.html")
        records = json.loads((DEMO / "gt" / f"{demo}.json").read_text(encoding="utf-8"))
        (root / "gt" / f"{name}.json").write_text(json.dumps(records[from_record:]), encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])
    return tmp_path / "P"


def test_labels_of_a_renamed_page_go_onto_the_project_page_and_agreement_compares_them(
        project: Path, tmp_path: Path, capsys) -> None:
    colleague = theirs(tmp_path / "bea", {"1b": "1"})
    assert main(["import", str(colleague), "--project", str(project), "--annotator", "bea", "-q"]) == 0
    out = capsys.readouterr()
    assert "page 1b: the same bytes as page 1 of the project, so bea's labels of it went onto page 1" in out.err
    assert "imported bea's labels of 1 page of the project" in out.out
    with open_project(project) as opened:
        assert sorted(opened.page_names()) == ["1", "2", "3", "4"]
        stored = opened.annotators.records("bea", "1")
        assert stored and stored == opened.true_records("1")[1:]
    assert main(["agreement", "--project", str(project), "--between", "project", "bea"]) == 0
    said = capsys.readouterr().out
    assert "on 1 page(s) both labelled" in said and "nothing to compare" not in said


def test_a_page_of_several_pages_bytes_stays_a_page_of_its_own_said(project: Path, tmp_path: Path) -> None:
    twice = theirs(tmp_path / "twice", {"1c": "1"}, from_record=0)
    with open_project(project) as opened:
        import_paths(opened, [twice])  # 1c: the bytes of page 1, with labels of its own
        report = import_paths(opened, [theirs(tmp_path / "bea", {"1b": "1"})], annotator="bea")
        assert "1b" in opened.page_names() and opened.annotators.pages("bea") == ["1b"]
    said = "\n".join(report.warning_lines())
    assert "page 1b: the same bytes as 2 pages of the project (1, 1c)" in said
    assert "agreement compares with none of the project's" in said and "went onto" not in said


def test_a_page_whose_own_labels_the_import_brings_too_is_not_taken_for_the_renamed_one(
        project: Path, tmp_path: Path) -> None:
    with open_project(project) as opened:
        report = import_paths(opened, [theirs(tmp_path / "bea", {"1": "1", "1b": "1"})], annotator="bea")
        assert sorted(opened.annotators.pages("bea")) == ["1", "1b"]
    said = "\n".join(report.warning_lines())
    assert "page 1b: the same bytes as page 1 of the project, whose labels by bea this import brings too" in said


def test_the_projects_own_import_of_a_renamed_labelled_page_is_unchanged(project: Path, tmp_path: Path) -> None:
    ours = theirs(tmp_path / "ours", {"7": "1"}, from_record=0)
    with open_project(project) as opened:
        report = import_paths(opened, [ours])
        assert "7" in opened.page_names()
    assert any(w.startswith("page 7: the same bytes as page 1, already in the project; imported as a page of its "
                            "own") for w in report.warning_lines())
