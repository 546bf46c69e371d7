"""Lines said of a stop and of an agent episode: a 429 asking for a longer wait than a call waits says "run again"
once in its stop line; an episode cut before any answer says "no answer" (not Python's None), and the wait before
its retry names the episode, as extract's names its page. Against the loopback fake in tests/fake_gemini.py, and a
closed port for an endpoint that refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm import gemini
from tests.core.cli_runs import DEMO, run
from tests.demo_agent import SITE_DIR, TASK_IDS, TASKS_FILE
from tests.fake_gemini import FakeGemini, quota_spent
from tests.loopback import refusing_port

KEY = "test-key-not-real-wording"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(gemini, "_said_no_key", [], raising=False)


def test_a_quota_wait_too_long_says_run_again_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=quota_spent("400s")) as server:
        code, out, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                             str(tmp_path / "run"), "--base-url", server.url, "-q")
    assert code == 3, err
    stop = next(line for line in err.splitlines() if "asks to wait 400 s" in line)
    assert stop.count("run again") == 1, stop
    assert "more than the 300 s a call waits, so wait that long; run again to resume from page 1" in stop, stop
    described = json.loads((tmp_path / "run" / "_run" / "run.json").read_text(encoding="utf-8"))
    assert str(described["stopped"]).count("run again") == 1, described


def test_an_episode_cut_without_an_answer_says_no_answer_and_its_wait_names_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = TASK_IDS[0]
    with refusing_port() as port:
        code, _, err = run(capsys, "agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR),
                           "--tasks", str(TASKS_FILE), "--task", task, "--runs", "1", "--browser", "text",
                           "--base-url", f"http://127.0.0.1:{port}")
    assert code == 4, err
    assert f"run 0 {task}: cut in 1 step (model error); no answer" in err, err
    assert "answer None" not in err
    assert f"run 0, task {task}: connection problem" in err, err
