"""`agent run --max-failures` below 1 is refused as `--runs 0` and `--step-budget 0` are: with 0 (or -1) every
episode ended after its first step, a successful one included, stopped as "failures", and `agent eval` scored the
run 0.000 although no step had failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project
from tests.demo_agent import SITE_DIR, TASKS_FILE
from tests.fake_gemini import FakeGemini, answer

RUN = ["agent", "run", "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE), "--task", "lookup-1", "--runs", "1",
       "--browser", "text"]


@pytest.mark.parametrize("value", ["0", "-1"])
def test_a_max_failures_below_1_is_refused_before_any_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str], value: str) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with FakeGemini(default=answer("Action: ANSWER; x")) as server:
        code = main([*RUN, "--project", str(tmp_path / "p"), "--base-url", server.url, "--max-failures", value])
        asked = len(server.requests)
    err = capsys.readouterr().err
    assert code == 2 and asked == 0 and not (tmp_path / "p").exists()
    assert f"recordlens: error: --max-failures must be at least 1, as --runs and --step-budget must (got {value})" \
        in err


def test_a_run_recorded_with_max_failures_0_is_not_resumed_and_says_it_is_the_runs_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    with init_project(tmp_path / "p") as project:
        project.agent.add_run("m", {"site": "demo-site", "runs": 1, "task_ids": ["lookup-1"], "max_failures": 0,
                                    "browser": "text", "memory": "window:3", "step_budget": 15})
    with FakeGemini(default=answer("Action: ANSWER; x")) as server:
        code = main([*RUN[:6], "--project", str(tmp_path / "p"), "--base-url", server.url, "--resume", "1"])
        asked = len(server.requests)
    err = capsys.readouterr().err
    assert code == 2 and asked == 0
    assert "agent run 1 records --max-failures 0 (made before values below 1 were refused" in err
