"""Messages about many pages a folder lacks are built from one listing of it: `score` with the labels of thousands
of pages that another folder does not hold, and `import` or `labels check` of label files without their pages,
look each name up rather than scan the folder (or its names' Unicode forms) once per page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import recordlens.core.records.hygiene as hygiene
from recordlens.core.page.dataset import why_no_page_file
from recordlens.core.records.hygiene import dataset_labels
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

PAGE = "<html><body><ul><li>Alpha</li><li>Beta</li></ul></body></html>"
MANY = 300


def folder_of_pages(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.html").write_text(PAGE.replace("Alpha", f"Alpha {name}"), encoding="utf-8")
    return folder


def test_why_a_page_has_no_file_lists_the_folder_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = folder_of_pages(tmp_path / "html", [f"p{i}" for i in range(MANY)])
    (pages / "odd.html").mkdir()  # named like a page, and no file
    listings = []
    iterdir = Path.iterdir
    monkeypatch.setattr(Path, "iterdir", lambda self: (listings.append(self), iterdir(self))[1])
    why = why_no_page_file(pages)
    said = [why(f"q{i}") for i in range(MANY)]
    assert listings == [pages]
    assert said[0] == f"no page q0.html or q0.mhtml in {pages}"
    assert why("odd") == f"{pages / 'odd.html'}: a folder, not a page file; not read as the page"


def label_files(gt: Path, names: list[str]) -> Path:
    gt.mkdir(parents=True, exist_ok=True)
    for name in names:
        (gt / f"{name}.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    return gt


def counting_forms(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    form = hygiene.unicode_form
    monkeypatch.setattr(hygiene, "unicode_form", lambda name: (calls.append(name), form(name))[1])
    return calls


def test_labels_check_weighs_each_name_s_form_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = folder_of_pages(tmp_path / "html", [f"p{i}" for i in range(MANY)])
    gt = label_files(tmp_path / "gt", [f"q{i}" for i in range(MANY)])
    calls = counting_forms(monkeypatch)
    unreadable: list[str] = []
    assert list(dataset_labels(pages, gt, unreadable)) == []
    assert len(unreadable) == MANY
    assert len(calls) <= 2 * MANY  # each page's name and each label file's once (a scan per file: MANY² calls)


def test_an_import_weighs_each_name_s_form_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "dataset"
    folder_of_pages(root / "html", [f"p{i}" for i in range(MANY)])
    label_files(root / "gt", [f"q{i}" for i in range(MANY)])
    calls = counting_forms(monkeypatch)
    with init_project(tmp_path / "p") as project:
        report = import_paths(project, [root])
    assert sum("ground truth for page q" in str(problem) for problem in report.problems) == MANY
    assert len(calls) <= 2 * MANY
