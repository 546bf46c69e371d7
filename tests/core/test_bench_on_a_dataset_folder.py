"""`bench --pages DATASET` (the dataset's folder, its pages in DATASET/html) measures nothing: refused in one line
that names the folder of pages (exit 2), rather than tables of 0 pages and exit 0; as extract and score refuse it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.llm import gemini
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")  # pages in html/, labels in gt/


def test_bench_given_a_dataset_folder_for_its_pages_is_refused_naming_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "bench", "--pages", str(DEMO), "--gt", str(DEMO / "gt"), "--methods", "mdr",
                         "--no-chart", "-q")
    assert code == 2 and out == "" and "Traceback" not in err, (out, err)
    assert f"no page (N.html or N.mhtml) to measure in {DEMO} (a dataset? its pages are in {DEMO / 'html'})" in err
    assert "none of the 4 pages with ground truth" in err and err.count("\n") == 1, err


def test_bench_on_the_dataset_pages_still_measures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "mdr",
                       "--no-chart", "-q")
    assert code == 0 and "Table 1: input formats (4 pages)" in out, out


def a_dataset_without_pages(folder: Path, *, html: bool) -> Path:
    """A dataset folder holding the demo's labels in gt/ and, with `html`, an empty html/."""
    shutil.copytree(DEMO / "gt", folder / "gt")
    if html:
        (folder / "html").mkdir()
    return folder


@pytest.mark.parametrize("html", [True, False], ids=["html-empty", "html-missing"])
def test_a_dataset_whose_html_holds_no_page_is_not_pointed_at(tmp_path: Path, html: bool,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A verifier's finding: with DS/html empty the refusal still said "its pages are in DS/html", a folder that
    would measure 0 pages too."""
    dataset = a_dataset_without_pages(tmp_path / "dsx", html=html)
    code, out, err = run(capsys, "bench", "--pages", str(dataset), "--gt", str(dataset / "gt"), "--methods", "mdr",
                         "--no-chart", "-q")
    assert code == 2 and out == "", (out, err)
    assert f"no page (N.html or N.mhtml) to measure in {dataset}: none of the 4 pages with ground truth" in err
    assert "its pages are in" not in err and err.count("\n") == 1, err


def test_the_refusal_comes_before_the_placeholder_key_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """With no key and --base-url, the Gemini caller said it would send a placeholder key, then the bench was
    refused: the refusal alone is said (no caller is made for a bench that measures nothing)."""
    for name in gemini.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(gemini, "_said_no_key", [], raising=False)  # said once a process
    dataset = a_dataset_without_pages(tmp_path / "dsx", html=True)
    code, out, err = run(capsys, "bench", "--pages", str(dataset), "--gt", str(dataset / "gt"), "--methods",
                         "gemini", "--base-url", "http://127.0.0.1:9", "--no-chart", "-q")
    assert code == 2 and out == "", (out, err)
    assert "no page (N.html or N.mhtml) to measure" in err and "placeholder" not in err, err
    assert err.count("\n") == 1, err
