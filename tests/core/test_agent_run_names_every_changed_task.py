"""`agent run` refuses tasks changed since agent runs were scored on them (without --replace-tasks): it used to name
the first one only, so a file with three edited tasks took three attempts to mend. Every one is named, in one pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.demo_agent import SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

TASKS = {json.loads(line)["id"]: json.loads(line) for line in TASKS_FILE.read_text("utf-8").splitlines() if line}


def run(project: Path, tasks: Path) -> int:
    with FakeGemini(default=answer_with(respond)) as server:
        return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks),
                     "--task", "lookup-1", "--task", "rules-1", "--runs", "1", "--browser", "text", "--base-url",
                     server.url])


def test_every_changed_task_is_named_in_one_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    assert run(project, TASKS_FILE) == 0
    edited = tmp_path / "tasks.jsonl"
    edited.write_text("".join(json.dumps({**TASKS[t], "answer": "another"}) + "\n" for t in ("lookup-1", "rules-1")),
                      encoding="utf-8")
    capsys.readouterr()
    assert run(project, edited) != 0
    said = capsys.readouterr().err
    assert (f"2 tasks of {edited} differ from the ones agent runs were scored on (no episode was run, and no task "
            "stored)") in said
    assert "task lookup-1 differs from the one agent run(s) 1 were scored on (gold answer" in said
    assert "task rules-1 differs from the one agent run(s) 1 were scored on (gold answer" in said
    assert said.count("--replace-tasks to score those runs by the new one") == 1
