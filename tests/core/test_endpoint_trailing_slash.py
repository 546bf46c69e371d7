"""An endpoint given with and without a slash ending its address is one endpoint (the client asks both alike): a run
made through `http://host:port` resumes through `http://host:port/`, and the folder's run.json is left as it was
when nothing is left to do. `localhost` for `127.0.0.1` stays another endpoint (a name can resolve elsewhere)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.llm.endpoint import endpoint_identity
from recordlens.core.runs.run_files import identity_differences, run_identity
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-987"


def _extract(capsys: pytest.CaptureFixture[str], run_dir: Path, base_url: str, *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                       str(run_dir), "--base-url", base_url, "-q", *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


def test_a_slash_ending_the_address_is_the_same_endpoint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, server.url, "--max-requests", "2")[0] == 3
        code, err = _extract(capsys, run_dir, f"{server.url}/")
        assert code == 0 and "2 extracted, 2 already there" in err, err
        described = (run_dir / "_run" / "run.json").read_bytes()
        code, err = _extract(capsys, run_dir, server.url)  # nothing left to do: run.json left as it was
        assert code == 0 and "0 extracted, 4 already there" in err, err
        assert (run_dir / "_run" / "run.json").read_bytes() == described

        code, err = _extract(capsys, run_dir, f"http://localhost:{server.port}")
        assert code == 2 and f"base_url: '{server.url}/' -> 'http://localhost:{server.port}'" in err, err
        assert len(server.requests) == 4


def test_only_one_slash_ending_the_path_is_left_out() -> None:
    assert endpoint_identity("http://127.0.0.1:8080/") == "http://127.0.0.1:8080"
    assert endpoint_identity("https://proxy.example/v1/?key=[key]") == "https://proxy.example/v1?key=[key]"
    assert endpoint_identity("https://proxy.example/v1") == "https://proxy.example/v1"
    assert endpoint_identity(None) is None
    made = {"method": "gemini", "settings": {"base_url": "http://h:1", "json_output": True, "timeout_s": 300}}
    assert run_identity(made) == run_identity({**made, "settings": {**made["settings"], "base_url": "http://h:1/"}})
    assert identity_differences(made, {**made, "settings": {**made["settings"], "base_url": "http://h:2/"}}) == [
        "base_url: 'http://h:1' -> 'http://h:2/'"]
