"""`bench --pages DATASET` (the dataset's folder, its pages in DATASET/html) measures nothing: refused in one line
that names the folder of pages (exit 2), rather than tables of 0 pages and exit 0; as extract and score refuse it."""

from __future__ import annotations

import pytest

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
