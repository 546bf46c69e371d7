"""A run stopped before it finished any page (its budget ran out part way through its first page: that page's
record in `_run/` keeps the calls it paid for, and no page has an answer) is the run its `run.json` and that record
say, like any other: its folder moved, resumed and added again brings the stored run up to date rather than storing
a second run beside it, and one that stopped on that page again is still the run stored. Against the loopback fake
in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, demo_project, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-stopped"
ANSWER = '[["/body[1]/div[1]"]]'
UNREADABLE = "no records here, sorry"  # asked again: past a budget of one request, the run stops on page 1


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def _gemini(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini, *more: str) -> tuple[int, str]:
    code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
                       "--base-url", server.url, "-q", *more)
    return code, err


def _stopped_on_its_first_page(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini) -> None:
    code, err = _gemini(capsys, out, server, "--max-requests", "1")
    assert code == 3, err
    assert not list(out.glob("*.json")), "no page has an answer"
    assert json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))["status"] == "not finished"


def test_a_run_stopped_on_its_first_page_moved_and_resumed_brings_the_stored_run_up_to_date(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "p")
    first, moved = tmp_path / "run", tmp_path / "moved" / "run"
    with FakeGemini([answer(UNREADABLE)], default=answer(ANSWER)) as server:
        _stopped_on_its_first_page(capsys, first, server)
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(first))
        assert code == 0 and f"stored {first} as run 1" in err, err
        moved.parent.mkdir()
        first.rename(moved)
        assert _gemini(capsys, moved, server)[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(moved))
    assert code == 0, err
    assert (f"{moved} holds run 1, stored from {first.resolve()} when its extract had stopped (0 pages); the "
            "extract went on since: run 1 now holds what the folder holds") in err, err
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    (stored,) = json.loads(listing)
    assert (stored["id"], stored["status"], stored["pages_with_records"]) == (1, "finished", 4), stored


def test_a_run_stopped_on_its_first_page_twice_moved_is_still_the_run_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # resumed, it stops on page 1 part way again: the record the run was stored with is kept under "earlier"
    project = demo_project(capsys, tmp_path / "p")
    first, moved = tmp_path / "run", tmp_path / "moved"
    with FakeGemini([answer(UNREADABLE), answer(UNREADABLE)], default=answer(ANSWER)) as server:
        _stopped_on_its_first_page(capsys, first, server)
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(first))
        assert code == 0 and f"stored {first} as run 1" in err, err
        _stopped_on_its_first_page(capsys, first, server)
    record = json.loads((first / "_run" / "1.json").read_text(encoding="utf-8"))
    assert [earlier["status"] for earlier in record["earlier"]] == ["not finished"]
    first.rename(moved)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(moved))
    assert code == 0 and "run 1" in err and "as run 2" not in err, err
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    (stored,) = json.loads(listing)
    assert (stored["id"], stored["status"], stored["pages_with_records"]) == (1, "stopped", 0), stored
