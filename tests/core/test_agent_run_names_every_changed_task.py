"""`agent run` refuses tasks changed since agent runs were scored on them (without --replace-tasks): it used to name
the first one only, so a file with three edited tasks took three attempts to mend. Every one is named, in one pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.demo_agent import TASK_JSON, TASKS_FILE, agent_run_of_two_tasks


def test_every_changed_task_is_named_in_one_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    assert agent_run_of_two_tasks(project, TASKS_FILE) == 0
    edited = tmp_path / "tasks.jsonl"
    edited.write_text("".join(json.dumps({**TASK_JSON[t], "answer": "another"}) + "\n"
                              for t in ("lookup-1", "rules-1")), encoding="utf-8")
    capsys.readouterr()
    assert agent_run_of_two_tasks(project, edited) != 0
    said = capsys.readouterr().err
    assert (f"2 tasks of {edited} differ from the ones agent runs were scored on (no episode was run, and no task "
            "stored)") in said
    assert "task lookup-1 differs from the one agent run(s) 1 were scored on (gold answer" in said
    assert "task rules-1 differs from the one agent run(s) 1 were scored on (gold answer" in said
    assert said.count("--replace-tasks to score those runs by the new one") == 1
