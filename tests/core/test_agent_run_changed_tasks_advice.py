"""`agent run` refusing several tasks changed since agent runs were scored on them names each, with the advice once.
The advice used to be found by cutting the messages' common ending at its first ": ", so changed instructions that
end alike with a ": " of their own were cut there (half an instruction said as the advice); and the refusal said
"(nothing was run)" while the run's other tasks had been stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.demo_agent import SITE_DIR, TASK_JSON, agent_run_of_two_tasks, respond

ADVICE = "give the changed task an id of its own, or --replace-tasks to score those runs by the new one"


def scored_on_two_tasks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project (tmp_path/p) with an agent run on lookup-1 and rules-1 as the demo's tasks file gives them."""
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps(TASK_JSON["lookup-1"]) + "\n" + json.dumps(TASK_JSON["rules-1"]) + "\n",
                     encoding="utf-8")
    assert agent_run_of_two_tasks(project, first) == 0
    return project


def test_instructions_ending_alike_with_a_colon_are_said_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    project = scored_on_two_tasks(tmp_path, monkeypatch)
    edited = tmp_path / "tasks.jsonl"
    asked = {t: f"What does {t} ask? Note: answer in days" for t in ("lookup-1", "rules-1")}  # ending alike
    edited.write_text("".join(json.dumps({**TASK_JSON[t], "instruction": asked[t]}) + "\n" for t in asked),
                      encoding="utf-8")
    capsys.readouterr()
    assert agent_run_of_two_tasks(project, edited) != 0
    said = capsys.readouterr().err
    for task_id in ("lookup-1", "rules-1"):
        whole = repr(asked[task_id])
        assert f"task {task_id} differs from the one agent run(s) 1 were scored on (instruction " in said
        assert f"-> {whole})\n" in said
    assert said.rstrip().endswith("\n" + ADVICE)
    assert said.count(ADVICE) == 1
    assert "nothing was run" not in said and "no episode was run" in said


def test_the_refusal_carries_its_advice_apart() -> None:
    from recordlens.core.store.agent_data import ChangedTaskError

    error = ChangedTaskError("task t differs from the one agent run(s) 1 were scored on (instruction 'a: b')")
    assert error.advice == ADVICE
    assert str(error) == f"{error.changed}: {ADVICE}"


def test_the_refusal_says_the_other_tasks_were_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.cli.command import main
    from recordlens.core.store.project import open_project
    from tests.fake_gemini import FakeGemini, answer_with

    project = scored_on_two_tasks(tmp_path, monkeypatch)
    edited = tmp_path / "tasks.jsonl"
    edited.write_text("".join(json.dumps({**TASK_JSON[t], "answer": "another"}) + "\n" for t in ("lookup-1", "rules-1"))
                      + json.dumps(TASK_JSON["lookup-2"]) + "\n", encoding="utf-8")
    capsys.readouterr()
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(edited),
                     "--runs", "1", "--browser", "text", "--base-url", server.url]) != 0
        assert not server.requests
    said = capsys.readouterr().err
    assert (f"2 tasks of {edited} differ from the ones agent runs were scored on (no episode was run; the run's other "
            f"task, lookup-2, is stored in the project as {edited} gives it)") in said
    with open_project(project) as opened:
        assert "lookup-2" in {t.id for t in opened.agent.tasks()}
