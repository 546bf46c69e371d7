"""A resume reads each page's record (`_run/N.json`) of its folder once, however many questions it asks of them before
it extracts (which pages were predicted on other pages, whether the run is held whole, which pages other settings
made, which are held already), as `runs --add` does: one `ResumedRun` holds what was read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import EXTRACT, page_records_read, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer


def test_a_resume_of_a_whole_run_reads_each_page_record_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    reads = page_records_read(monkeypatch)
    code, printed, err = run(capsys, *EXTRACT, str(out), "-q")
    assert code == 0 and "0 extracted, 4 already there" in printed, err
    assert reads == {f"{page}.json": 1 for page in ("1", "2", "3", "4")}, reads


def test_a_resume_of_a_stopped_run_reads_the_records_of_the_pages_it_holds_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-read-once")
    out = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(out, server, "--max-requests", "2"))[0] == 3  # pages 1 and 2
        reads = page_records_read(monkeypatch)
        code, printed, err = run(capsys, *extract(out, server))
    assert code == 0 and "2 extracted, 2 already there" in printed, err
    assert reads["1.json"] == reads["2.json"] == 1, reads
