"""An entry of a folder of pages named like a page that is no regular file (`2.html` a FIFO, `3.html` a folder) has
one home, `odd_page_entries`, and one wording: every command that meets it (extract, score, import, labels
check) says the entry's path, what it is, and that it is not read as the page; `labels check` no longer says
"no page 2" of a folder that holds a 2.html."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.page.dataset import odd_page_entries, page_files, pages_not_read, why_no_page_file
from tests.core.cli_runs import dataset_of_odd_pages, run

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX"),
              pytest.mark.timeout(180)]  # a blocking read of the FIFO would wait for ever


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """Page 1 a file; page 2 a FIFO, page 3 a folder; labels for the three."""
    return dataset_of_odd_pages(tmp_path / "data")


def said(data: Path) -> dict[str, str]:
    """The one wording of each odd entry, by page."""
    html = data / "html"
    return {"2": f"{html / '2.html'}: a FIFO (named pipe), not a regular file; not read as the page",
            "3": f"{html / '3.html'}: a folder, not a page file; not read as the page"}


def test_the_entries_are_found_in_one_place_and_said_in_one_way(dataset: Path) -> None:
    html = dataset / "html"
    entries = odd_page_entries(html)
    assert [(entry.page, str(entry)) for entry in entries] == list(said(dataset).items())
    warnings: list[str] = []
    assert list(page_files(html, warnings)) == ["1"]
    assert warnings == list(said(dataset).values())
    assert pages_not_read(html) == ["2", "3"]
    assert why_no_page_file(html)("2") == said(dataset)["2"]
    assert odd_page_entries(dataset / "nothing here") == []


def test_labels_check_says_what_the_entry_is_once(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "labels", "check", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"))
    assert code == 1
    for name, line in said(dataset).items():
        assert f"page {name}: cannot be checked: {line}" in out
        assert (out + err).count(line) == 1  # the page's line, not a warning too
    assert "has no page" not in out + err
    assert "2 page(s) could not be checked" in out  # the summary, with the findings


def test_import_says_it_in_the_same_words(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    code, out, err = run(capsys, "import", str(dataset), "--project", str(tmp_path / "p"), "-q")
    assert code == 1
    for line in said(dataset).values():
        assert f"not imported: {line}" in err
    assert "imported 1 page(s)" in out and "; 2 not imported" in out


def test_extract_and_score_say_it_in_the_same_words(dataset: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(dataset / "html"),
                       "--out", str(tmp_path / "run"), "-q")
    assert code == 1
    for line in said(dataset).values():
        assert f"warning: {line}" in err
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(dataset / "gt"),
                         "--pages", str(dataset / "html"), "-q")
    assert code == 1  # scored without them, each named (README: score leaves out what it cannot read)
    for name, line in said(dataset).items():
        assert f"\n  {name}: {line}\n" in out
