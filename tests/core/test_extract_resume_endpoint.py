"""`extract` resuming a run folder follows the one rule of what makes a run the one it is (`run_identity`, as
`runs --add` does): a run made against one endpoint (--base-url) is not resumed against another, which would mix
two endpoints' answers in one folder and rewrite its run.json naming only the second; nothing in the folder is
touched. The same endpoint resumes, with a larger --max-requests too (a session's bound), and so does a run.json
written before the endpoint and the JSON output mode were recorded. Against two loopback fakes of Gemini."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, folder_files, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-789"


def _extract(capsys: pytest.CaptureFixture[str], run_dir: Path, server: FakeGemini,
             *more: str) -> tuple[int, str, str]:
    return run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir),
               "--base-url", server.url, "-q", *more)


def _half_run(capsys: pytest.CaptureFixture[str], run_dir: Path, server: FakeGemini) -> None:
    """Two of the demo's four pages, then the budget stops the run."""
    code, _, err = _extract(capsys, run_dir, server, "--max-requests", "2")
    assert len(server.requests) == 2, err
    assert code != 0 or "stopped" in err, err
    assert sorted(p.name for p in run_dir.glob("*.json")) == ["1.json", "2.json"], err


def test_a_run_is_not_resumed_against_another_endpoint_and_is_against_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as first, FakeGemini(default=answer("[]")) as other:
        _half_run(capsys, run_dir, first)
        held = folder_files(run_dir)

        code, _, err = _extract(capsys, run_dir, other)
        assert code != 0
        assert f"{run_dir} holds a run of gemini made with other settings (" in err, err
        assert f"base_url: {first.url!r} -> {other.url!r}" in err, err
        assert "choose another --out, or --restart" in err, err
        assert other.requests == []  # nothing asked of the other endpoint
        assert folder_files(run_dir) == held  # nor anything written: its run.json still names the first endpoint

        code, _, err = _extract(capsys, run_dir, first, "--max-requests", "10")  # a larger budget: the same run
        assert code == 0, err
        assert len(first.requests) == 4  # pages 3 and 4
    described = json.loads((run_dir / "_run" / "run.json").read_text())
    assert described["settings"]["base_url"] == first.url and "stopped" not in described


def test_a_run_described_before_its_endpoint_was_recorded_resumes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        _half_run(capsys, run_dir, server)
        described_path = run_dir / "_run" / "run.json"
        described = json.loads(described_path.read_text())
        for unrecorded in ("base_url", "json_output"):  # as a run.json of before they were recorded says it
            del described["settings"][unrecorded]
        described_path.write_text(json.dumps(described))

        code, _, err = _extract(capsys, run_dir, server)
        assert code == 0, err
        assert len(server.requests) == 4
