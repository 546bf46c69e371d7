"""`extract --seeds N` on a folder holding a run of more seeds runs the seeds given and keeps the run's seeds asked
as its folder records them, said: a resume with nothing to do leaves every seed's run.json as it was, and the
seed-S/ folders never disagree on the seeds asked. Seeds added to a run are recorded by every seed-S/ of it, those
the command did not run too. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-246"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def _extract(capsys: pytest.CaptureFixture[str], run_dir: Path, server: FakeGemini, *more: str) -> tuple[int, str]:
    code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                       str(run_dir), "--base-url", server.url, "-q", *more)
    return code, out + err  # what it said: its closing line on stdout, the rest on stderr


def _descriptions(run_dir: Path) -> dict[str, bytes]:
    return {folder.name: (folder / "_run" / "run.json").read_bytes() for folder in sorted(run_dir.glob("seed-*"))}


def _seeds_asked(run_dir: Path) -> dict[str, list[int]]:
    return {name: json.loads(text)["seeds"] for name, text in _descriptions(run_dir).items()}


def test_fewer_seeds_than_the_run_holds_leave_its_records_as_they_were(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, server, "--seeds", "3")[0] == 0
        held = _descriptions(run_dir)
        code, err = _extract(capsys, run_dir, server, "--seeds", "2")
        assert len(server.requests) == 12  # nothing asked again
    assert code == 0 and err.count("0 extracted, 4 already there") == 2, err
    assert (f"{run_dir} holds a run of 3 seeds asked (0, 1, 2): --seeds gives seeds 0, 1, run now; the run still "
            "asks 0, 1, 2, seed 2 left as it is (choose another --out for a run of fewer seeds)") in err, err
    assert _descriptions(run_dir) == held
    _, out, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                      str(DEMO / "html"), "-q")
    assert "3 seeds" in out and "not run" not in err


def test_fewer_seeds_given_to_a_run_stopped_before_its_last_seed_keep_it_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, server, "--seeds", "3", "--max-requests", "6")[0] == 3  # seed 1 half way
        code, err = _extract(capsys, run_dir, server, "--seeds", "2")
    assert code == 0 and "the run still asks 0, 1, 2, seed 2 not run" in err, err
    assert _seeds_asked(run_dir) == {"seed-0": [0, 1, 2], "seed-1": [0, 1, 2]}


def test_seeds_added_to_a_run_are_recorded_by_every_seed_of_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert _extract(capsys, run_dir, server, "--seeds", "2")[0] == 0
        code, err = _extract(capsys, run_dir, server, "--seed", "2", "--seeds", "2")  # seeds 2 and 3
        assert code == 0, err
        assert f"{run_dir} holds a run of 2 seeds asked (0, 1): seeds 2, 3 added to it (the run asks 0, 1, 2, 3)" in err
        assert _seeds_asked(run_dir) == {f"seed-{s}": [0, 1, 2, 3] for s in range(4)}
        held = _descriptions(run_dir)
        code, err = _extract(capsys, run_dir, server, "--seeds", "4")  # the whole run, nothing to do
        assert code == 0 and err.count("0 extracted, 4 already there") == 4 and "holds a run" not in err, err
        assert _descriptions(run_dir) == held


def test_a_refused_command_records_no_seeds_it_never_ran(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server, FakeGemini(default=answer("[]")) as other:
        assert _extract(capsys, run_dir, server, "--seeds", "2")[0] == 0
        held = _descriptions(run_dir)
        code, err = _extract(capsys, run_dir, other, "--seeds", "3")  # another endpoint: seed 0 refused
        assert code == 2 and "made with other settings" in err, err
        assert other.requests == [] and _descriptions(run_dir) == held
