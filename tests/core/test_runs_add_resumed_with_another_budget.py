"""A run's identity (`run_files.run_identity`) leaves out the bounds of the session that wrote it: a Gemini run
stopped by its budget and resumed with a larger one is the same run, which `runs --add` brings up to date rather
than storing a second run beside the partial one, and a resume with nothing left to do leaves its run.json as it
was. A folder stored as a run of its own beside the run stored from it before (another endpoint, records written
again) says so, naming that run. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import SESSION_BOUNDS, identity_differences, run_identity
from tests.core.cli_runs import demo_project, run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-budget"
ANSWER = '[["/body[1]/div[1]"]]'


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    return demo_project(capsys, tmp_path / "p")


def _extract(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini, *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
                       "--base-url", server.url, "-q", *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


def _runs(capsys: pytest.CaptureFixture[str], project: Path) -> list[dict]:
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0
    return json.loads(listing)


def test_the_bounds_of_a_session_are_no_part_of_a_run_s_identity() -> None:
    settings = {"timeout_s": 300.0, "max_attempts": 5, "backoff_s": 2.0, "max_backoff_s": 60.0,
                "max_retry_after_s": 300.0, "json_output": True, "malformed_retries": 2, "max_requests": 2,
                "max_tokens": None, "base_url": "http://127.0.0.1:1"}
    described = {"method": "gemini", "version": "1", "parameters": {"seed": 0}, "settings": settings,
                 "written": "2026-01-01T00:00:00+00:00", "stopped": "request budget used up (2 of 2)"}
    longer = {**settings, "timeout_s": 600.0, "max_attempts": 9, "backoff_s": 1.0, "max_backoff_s": 9.0,
              "max_retry_after_s": 9.0, "malformed_retries": 0, "max_requests": 100, "max_tokens": 10}
    resumed = {**described, "settings": longer, "written": "2026-01-02T00:00:00+00:00"}
    del resumed["stopped"]
    assert set(longer) - {"json_output", "base_url"} == SESSION_BOUNDS
    assert run_identity(resumed) == run_identity(described) and identity_differences(described, resumed) == []
    elsewhere = {**described, "settings": {**settings, "base_url": "http://127.0.0.1:2"}}
    assert identity_differences(described, elsewhere) == ["base_url: 'http://127.0.0.1:1' -> 'http://127.0.0.1:2'"]


def test_a_run_stopped_by_its_budget_and_resumed_with_a_larger_one_is_brought_up_to_date(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=answer(ANSWER)) as server:
        assert _extract(capsys, out, server, "--max-requests", "2")[0] == 3
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
        assert code == 0 and f"stored {out} as run 1" in err and "stored as a stopped run" in err, err
        code, err = _extract(capsys, out, server, "--max-requests", "100")
        assert code == 0 and "2 extracted, 2 already there" in err, err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert (f"{out} was stored as run 1 when its extract had stopped (2 pages); the extract went on since: run 1 now "
            "holds what the folder holds") in err, err
    (stored,) = _runs(capsys, project)  # one run, not a partial copy beside the whole one
    assert (stored["id"], stored["status"], stored["pages_with_records"]) == (1, "finished", 4)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"{out} is stored already, as run 1" in err, err


def test_a_resume_with_nothing_left_and_another_budget_leaves_the_run_description_as_it_was(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=answer(ANSWER)) as server:
        assert _extract(capsys, out, server, "--max-requests", "10")[0] == 0
        described = (out / "_run" / "run.json").read_bytes()
        code, err = _extract(capsys, out, server, "--max-requests", "500", "--timeout-s", "9")
        assert len(server.requests) == 4
    assert code == 0 and "0 extracted, 4 already there" in err, err
    assert (out / "_run" / "run.json").read_bytes() == described


def test_a_folder_made_again_through_another_endpoint_is_stored_apart_naming_the_run_stored_before(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    with FakeGemini(default=answer(ANSWER)) as first:
        assert _extract(capsys, out, first, "--max-requests", "2")[0] == 3
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    with FakeGemini(default=answer(ANSWER)) as second:  # another address: its answers may be other ones
        assert _extract(capsys, out, second)[0] == 2  # a resume through it would mix two endpoints' answers
        assert _extract(capsys, out, second, "--restart")[0] == 0  # the folder's run made again through it
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 2" in err, err
    assert (f"warning: run 1 was stored from {out} before (stopped, 2 pages): it is kept apart, and the folder is "
            "stored as a run of its own rather than bringing run 1 up to date, as the folder's run is described "
            f"otherwise since (base_url: '{first.url}' -> '{second.url}'); `runs --delete 1` takes run 1 out if it "
            "is only an earlier copy of this one") in err, err
    assert [r["status"] for r in _runs(capsys, project)] == ["stopped", "finished"]


def test_a_stopped_folder_whose_records_were_written_again_names_the_run_it_is_kept_apart_from(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out), "-q")[0] == 0
    described = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    (out / "_run" / "run.json").write_text(json.dumps({**described, "stopped": "budget used up"}), encoding="utf-8")
    kept = (out / "4.json").read_bytes()
    (out / "4.json").unlink()
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0  # stopped, 3 pages
    (out / "4.json").write_bytes(kept)
    # page 1 extracted again since, into other records: its record in _run/ is a new one too (an N.json changed
    # while its record is the one stored is a hand edit, which the run keeps its own prediction over)
    (out / "1.json").write_text("[]", encoding="utf-8")
    record = json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))
    (out / "_run" / "1.json").write_text(json.dumps({**record, "seconds": 9.5}), encoding="utf-8")
    (out / "_run" / "run.json").write_text(json.dumps(described), encoding="utf-8")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 2" in err, err
    assert (f"run 1 was stored from {out} before (stopped, 3 pages): it is kept apart, and the folder is stored as a "
            "run of its own rather than bringing run 1 up to date, as the folder holds page 1 of run 1 otherwise "
            "(extracted again since: its record in _run/ is a new one)") in err, err
