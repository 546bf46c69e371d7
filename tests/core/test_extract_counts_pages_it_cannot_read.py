"""Entries of a folder of pages named like pages that are no regular file (a FIFO, a folder, a symbolic link loop):
`extract` says each skipped, counts them in its closing line ("3 not extracted"), and exits 1, as `import` and
`labels check` do of such a folder (README: a command that leaves work undone exits 1); `score` says what the
page's entry is, once, without saying in the same sentence that there is no page, and scores the others."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.core.cli_runs import dataset_of_odd_pages, run

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symlinks as on POSIX"),
              pytest.mark.timeout(120)]  # a blocking read of the FIFO would wait for ever


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A dataset of the demo's page 1 and three entries named like pages, none a file; ground truth for 1 and 2."""
    data = dataset_of_odd_pages(tmp_path / "nr", labelled=("1", "2"))
    (data / "html" / "4.html").symlink_to("4.html")
    return data


def test_extract_counts_the_pages_it_could_not_read_and_exits_1(folder: Path, tmp_path: Path, capsys) -> None:
    code, out, err = run(capsys, "extract", "--method", "repeats", "--pages", str(folder / "html"),
                         "--out", str(tmp_path / "run"), "-q")
    assert code == 1
    assert f"{folder / 'html' / '2.html'}: a FIFO (named pipe), not a regular file; not read as the page" in err
    assert "3.html" in err and "4.html" in err
    assert "1 extracted, 0 already there, 0 failed, 3 not extracted (no page file: said above)" in out
    assert (tmp_path / "run" / "1.json").is_file()


def test_extract_of_a_folder_of_files_alone_still_exits_0(folder: Path, tmp_path: Path, capsys) -> None:
    for name in ("2", "3", "4"):
        entry = folder / "html" / f"{name}.html"
        entry.rmdir() if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    code, out, err = run(capsys, "extract", "--method", "repeats", "--pages", str(folder / "html"),
                         "--out", str(tmp_path / "run"), "-q")
    assert code == 0 and "1 extracted, 0 already there, 0 failed in" in out


def test_score_says_what_the_page_s_entry_is_without_saying_there_is_no_page(folder: Path, tmp_path: Path,
                                                                             capsys) -> None:
    assert run(capsys, "extract", "--method", "repeats", "--pages", str(folder / "html"),
               "--out", str(tmp_path / "run"), "-q")[0] == 1
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(folder / "gt"),
                         "--pages", str(folder / "html"))
    assert code == 1  # page 1 scored, page 2 left out and named (README: score leaves out what it cannot read)
    assert f"  2: {folder / 'html' / '2.html'}: a FIFO (named pipe), not a regular file; not read as the page" in out
    assert "no page for" not in out + err and "pages 1 of 2 (1 left out, below)" in out
