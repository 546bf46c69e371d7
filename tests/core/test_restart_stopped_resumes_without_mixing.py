"""A `--restart` stopped by its budget, a quota or a failing endpoint says how to go on without starting over (the
same command without --restart), and going on so keeps only the pages made with the run's settings: a page the
--restart left from the run before, made with other settings, is extracted again, said once; `score` of the
folder meanwhile names such pages rather than scoring a run of two settings without a word. Against the loopback
fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import GeminiCaller
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR
from tests.core.cli_runs import gemini_extract as extract
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, status

DEMO = resource_path("demo", "dataset")  # pages 1 to 4
KEY = "test-key-not-real-restart"
GO_ON = ("run the same command without --restart to resume from page 3 (with --restart it would start over and "
         "extract every page again)")
EARLIER = ("2 pages of {whose} (3, 4) hold records an earlier run of the folder made with other settings "
           "(temperature: 1.0 -> 0.5)")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)



def score(run_dir: Path) -> tuple[str, ...]:
    return "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q"


def temperatures(run_dir: Path) -> dict[str, float]:
    """Each done page's temperature, as its own record (`_run/N.json`) says it."""
    records = {name: json.loads((run_dir / META_DIR / f"{name}.json").read_text("utf-8")) for name in "1234"}
    return {name: record["parameters"]["temperature"] for name, record in records.items()}


def test_a_restart_with_other_settings_stopped_by_its_budget_resumes_without_starting_over_or_mixing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        code, _, err = run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5",
                                            "--max-requests", "2"))
        assert code == 3, err
        assert f"request budget used up (2 of 2); {GO_ON}" in err, err
        assert "its other pages hold the earlier run's records where it had them, made with other settings " \
               "(temperature: 1.0 -> 0.5)" in err
        assert "run again to resume" not in err

        # meanwhile the folder holds two settings' pages, and its score says which
        _, _, err = run(capsys, *score(run_dir))
        assert EARLIER.format(whose="the run") in err, err

        # going on as told asks the pages the --restart did not reach, those the run before made included
        before = len(server.requests)
        code, printed, err = run(capsys, *extract(run_dir, server, "--temperature", "0.5"))
        asked = [request.generation_config.get("temperature") for request in server.requests[before:]]
    assert code == 0, err
    assert asked == [0.5, 0.5] and "2 extracted, 2 already there" in printed
    assert EARLIER.format(whose=f"the run in {run_dir}") in err and err.count("hold records an earlier run") == 1
    assert temperatures(run_dir) == {"1": 0.5, "2": 0.5, "3": 0.5, "4": 0.5}
    _, _, err = run(capsys, *score(run_dir))
    assert "earlier run" not in err


def test_a_restart_stopped_by_its_budget_then_resumed_pays_for_no_page_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server))[0] == 0
        code, _, err = run(capsys, *extract(run_dir, server, "--restart", "--max-requests", "2"))
        assert code == 3 and GO_ON in err, err
        assert "earlier run's records" not in err  # the same settings: nothing of the run before to redo
        _, _, err = run(capsys, *score(run_dir))
        assert "earlier run" not in err
        before = len(server.requests)
        code, printed, err = run(capsys, *extract(run_dir, server))
        assert code == 0 and len(server.requests) == before, err
    # the pages the --restart did are not asked again, nor those the run before made with the same settings
    assert "0 extracted, 4 already there" in printed


def test_a_restart_stopped_by_a_quota_or_a_failing_endpoint_says_to_go_on_without_restart(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    run_dir = tmp_path / "run"
    quota = status(429, "Quota exceeded for the day", headers={"Retry-After": "3600"})
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server))[0] == 0
        server.script([answer("[]"), quota], default=answer("[]"))
        code, _, err = run(capsys, *extract(run_dir, server, "--restart"))
        assert code == 3 and "run the same command without --restart to resume from page 2 (with --restart it " \
                              "would start over" in err, err
        server.script(default=status(503, "down"))
        code, _, err = run(capsys, *extract(run_dir, server, "--restart"))
    assert code == 4, err
    assert "failed on 3 pages in a row" in err and "then run the same command without --restart to resume (with " \
                                                    "--restart it would start over" in err, err
