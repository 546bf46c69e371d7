"""`runs --add` reads each page's record (`_run/N.json`) of the folder once, however many questions it asks of them
(the pages failed, done without a file, stopped on part way, their digests, their cost, the pages they were made on)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import EXTRACT, demo_project, page_records_read, run


def test_runs_add_reads_each_page_record_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    project = demo_project(capsys, tmp_path / "p")
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    reads = page_records_read(monkeypatch)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 1" in err, err
    assert reads == {f"{page}.json": 1 for page in ("1", "2", "3", "4")}, reads
