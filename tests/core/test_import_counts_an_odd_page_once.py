"""A dataset's page whose file is no regular file (`2.html` a FIFO, `3.html` a folder) is one page not imported:
`import` names its entry once, for what it is, and counts it once; its ground truth is not said again as labels
"without a 2.html" (which the folder holds)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.core.cli_runs import dataset_of_odd_pages, run

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX"),
              pytest.mark.timeout(120)]  # a blocking read of the FIFO would wait for ever


def test_a_page_that_is_no_file_is_said_and_counted_once(tmp_path: Path, capsys) -> None:
    data = dataset_of_odd_pages(tmp_path / "nr")
    assert run(capsys, "project", "init", str(tmp_path / "p"))[0] == 0
    code, out, err = run(capsys, "import", str(data), "--project", str(tmp_path / "p"), "-q")
    assert code == 1
    assert f"not imported: {data / 'html' / '2.html'}: a FIFO (named pipe), not a regular file" in err
    assert f"not imported: {data / 'html' / '3.html'}: a folder, not a page file" in err
    assert "ground truth for page" not in err and err.count("not imported:") == 2
    assert "imported 1 page(s)" in out and "; 2 not imported" in out
