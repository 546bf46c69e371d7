"""A Gemini run folder whose `_run/run.json` cannot be read is resumed only through the endpoint (and JSON output
mode) its pages' own records say answered them: each done page's `_run/N.json` keeps them. Through another
endpoint it is refused, naming both, and nothing in the folder is touched; a folder whose pages were written before
they kept the endpoint is refused too, saying why and what to do, rather than resumed with a run.json that would
name an endpoint no record says. Against two loopback fakes of Gemini."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, folder_files, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-321"


def _extract(capsys: pytest.CaptureFixture[str], run_dir: Path, server: FakeGemini,
             *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                       str(run_dir), "--base-url", server.url, "-q", *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


def _damaged(capsys: pytest.CaptureFixture[str], run_dir: Path, server: FakeGemini) -> None:
    """A run of the demo's four pages through `server`, page 4 to do again and its run.json emptied."""
    assert _extract(capsys, run_dir, server)[0] == 0
    (run_dir / "4.json").unlink()
    (run_dir / "_run" / "4.json").unlink()
    (run_dir / "_run" / "run.json").write_text("", encoding="utf-8")


def test_each_page_records_the_endpoint_and_json_mode_that_answered_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, tmp_path / "run", server, "--max-requests", "9")[0] == 0
    record = json.loads((tmp_path / "run" / "_run" / "1.json").read_text(encoding="utf-8"))
    assert record["settings"] == {"json_output": True, "base_url": server.url}  # no session bound: no budget


def test_an_unreadable_run_description_is_not_resumed_through_another_endpoint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as first, FakeGemini(default=answer("[]")) as other:
        _damaged(capsys, run_dir, first)
        held = folder_files(run_dir)
        code, err = _extract(capsys, run_dir, other)
        assert code == 2, err
        assert f"base_url: {first.url!r} -> {other.url!r}" in err, err
        assert "as its pages' own records say" in err and "would mix two endpoints' answers" in err, err
        assert other.requests == [] and folder_files(run_dir) == held  # nothing asked, nothing written

        code, err = _extract(capsys, run_dir, first, "--max-requests", "5")  # its own endpoint: resumed
        assert code == 0, err
        assert "say they were made by gemini with the parameters and endpoint given now: resumed" in err, err
        assert len(first.requests) == 5  # the four pages, then page 4 again
    assert json.loads((run_dir / "_run" / "run.json").read_text())["settings"]["base_url"] == first.url


def test_pages_that_do_not_say_their_endpoint_refuse_the_resume_and_say_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as first, FakeGemini(default=answer("[]")) as other:
        _damaged(capsys, run_dir, first)
        for path in (run_dir / "_run").glob("[123].json"):  # as pages written by an earlier RecordLens say them
            record = json.loads(path.read_text(encoding="utf-8"))
            del record["settings"]
            path.write_text(json.dumps(record), encoding="utf-8")
        held = folder_files(run_dir)
        for server in (other, first):  # nothing says which one answered: neither is taken for it
            code, err = _extract(capsys, run_dir, server)
            assert code == 2, err
            assert ("its pages' own records name the method but not the endpoint (--base-url) and JSON output mode "
                    "that answered them") in err, err
            assert f"resuming {run_dir} through {server.url} could mix two endpoints' answers" in err, err
            assert "put its run.json back (from a copy) to resume it, or use --restart" in err, err
        assert other.requests == [] and len(first.requests) == 4 and folder_files(run_dir) == held

        code, err = _extract(capsys, run_dir, other, "--restart")  # the way out it names
        assert code == 0 and "4 extracted, 0 already there" in err, err
    assert json.loads((run_dir / "_run" / "run.json").read_text())["settings"]["base_url"] == other.url


def test_a_method_that_calls_no_endpoint_resumes_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    extract = ("extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(run_dir), "-q")
    assert run(capsys, *extract)[0] == 0
    assert "settings" not in json.loads((run_dir / "_run" / "1.json").read_text(encoding="utf-8"))
    (run_dir / "2.json").unlink()
    (run_dir / "_run" / "run.json").write_text("", encoding="utf-8")
    code, printed, err = run(capsys, *extract)
    assert code == 0 and "1 extracted, 3 already there" in printed, err
