"""One rule for the two streams: stdout holds a command's result, and a summary that carries figures is one
(`labels check`'s summary with the ceiling, `extract`'s and `synth`'s closing lines); stderr holds progress, warnings
and notes. Before, `labels check > report.txt` kept the findings and lost the summary that holds the ceiling F1,
while `import` printed that same summary on stdout."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, run


def test_labels_check_s_summary_with_the_ceiling_is_on_stdout_with_its_findings(capsys: pytest.CaptureFixture[str]
                                                                                ) -> None:
    code, out, err = run(capsys, "labels", "check", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"))
    assert code == 0 and "4 pages: " in out and "scores a mean F1 of " in out
    assert "mean F1" not in err


def test_extract_s_closing_line_is_on_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out",
                         str(tmp_path / "run"), "-q")
    assert code == 0 and out.startswith(f"{tmp_path / 'run'}: 4 extracted, 0 already there, 0 failed in ")
    assert "extracted" not in err


def test_synth_s_summary_is_on_stdout_as_its_json_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                         str(tmp_path / "syn"), "--variants", "1", "-q")
    assert code == 0 and out.startswith(f"{tmp_path / 'syn'}: 4 pages (1 variant(s) of 4), ")
    assert "pages/s" not in err
