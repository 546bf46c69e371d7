"""What `synth` writes imports as a dataset with its labels, whatever its formats: `mhtml/` beside `gt/` is a
dataset's folder of pages as `html/` is; with both, the import says which it read and that the other holds the same
pages. A dataset's folders that an import does not read (inside html/ or gt/) are said, never skipped silently."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.page.dataset import dataset_pages
from recordlens.core.records.model import load_records
from recordlens.core.store.project import init_project, open_project

PAGE = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><ul><li><b>a</b></li>'
        '<li><b>b</b></li></ul></body></html>')


@pytest.fixture
def labelled(tmp_path: Path) -> Path:
    (tmp_path / "in" / "html").mkdir(parents=True)
    (tmp_path / "in" / "gt").mkdir()
    (tmp_path / "in" / "html" / "p.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "in" / "gt" / "p.json").write_text('[["/body[1]/ul[1]/li[1]"],["/body[1]/ul[1]/li[2]"]]',
                                                   encoding="utf-8")
    return tmp_path / "in"


def synth(labelled: Path, out: Path, *formats: str) -> Path:
    extra = ["--formats", ",".join(formats)] if formats else []
    assert main(["synth", "--pages", str(labelled / "html"), "--gt", str(labelled / "gt"), "--out", str(out),
                 "--variants", "2", *extra, "-q"]) == 0
    return out


def imported(out: Path, project: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    init_project(project).close()
    capsys.readouterr()
    code = main(["import", str(out), "--project", str(project), "-q"])
    return code, capsys.readouterr().err


def test_an_mhtml_only_output_imports_with_its_labels(labelled: Path, tmp_path: Path, capsys) -> None:
    out = synth(labelled, tmp_path / "m", "mhtml")
    assert not (out / "html").exists()
    assert dataset_pages(out) == out / "mhtml"
    code, err = imported(out, tmp_path / "P", capsys)
    assert code == 0, err
    with open_project(tmp_path / "P") as project:
        assert sorted(p.name for p in project.pages()) == ["p_v1", "p_v2"]
        for name in ("p_v1", "p_v2"):
            assert project.true_records(name) == [list(r) for r in load_records(out / "gt" / f"{name}.json").records]
            assert project.snapshot_file(name).suffix == ".mhtml"


def test_with_both_formats_the_import_says_it_read_html_and_that_mhtml_holds_the_same_pages(
        labelled: Path, tmp_path: Path, capsys) -> None:
    out = synth(labelled, tmp_path / "b")
    code, err = imported(out, tmp_path / "P", capsys)
    assert code == 0
    assert "pages were read from html/; mhtml/ holds the same pages (synth writes each page to both)" in err
    with open_project(tmp_path / "P") as project:
        assert sorted(p.name for p in project.pages()) == ["p_v1", "p_v2"]


def test_an_mhtml_folder_of_other_pages_beside_html_is_said_with_how_to_import_it(
        labelled: Path, tmp_path: Path, capsys) -> None:
    out = synth(labelled, tmp_path / "b")
    (out / "mhtml" / "p_v2.mhtml").rename(out / "mhtml" / "q.mhtml")
    (out / "synth.json").unlink()
    code, err = imported(out, tmp_path / "P", capsys)
    assert code == 0
    assert "mhtml/ beside it (2 pages, 1 page not in html/: q) is not looked into" in err
    assert f"`recordlens import {out / 'mhtml'}`" in err


def test_folders_inside_a_datasets_html_and_gt_are_said(labelled: Path, tmp_path: Path, capsys) -> None:
    out = synth(labelled, tmp_path / "b", "html")
    (out / "html" / "more").mkdir()
    shutil.copy(out / "html" / "p_v1.html", out / "html" / "more" / "x.html")
    (out / "gt" / "old").mkdir()
    (out / "gt" / "old" / "p_v1.json").write_text("[]", encoding="utf-8")
    code, err = imported(out, tmp_path / "P", capsys)
    assert code == 0
    assert f"{out / 'html'}: 1 subfolder not looked into (more)" in err
    assert f"`recordlens import {out / 'html' / 'more'}`" in err
    assert f"{out / 'gt'}: 1 subfolder not looked into (old)" in err


def test_an_mhtml_folder_without_labels_beside_it_is_no_dataset(labelled: Path, tmp_path: Path, capsys) -> None:
    out = synth(labelled, tmp_path / "m", "mhtml")
    shutil.rmtree(out / "gt")
    assert dataset_pages(out) is None
    code, err = imported(out, tmp_path / "P", capsys)
    assert code == 1
    assert "1 subfolder not looked into (mhtml)" in err and f"`recordlens import {out / 'mhtml'}`" in err
