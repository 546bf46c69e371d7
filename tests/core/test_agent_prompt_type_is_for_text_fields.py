"""The agent's instructions say that Type fills a text field only (a link, a button or a checkbox is clicked), and
that Enter in a text area is a new line: both browsers refuse a Type into anything else, a failed step the prompt
did not warn of. A run records no digest of the prompt (each model call keeps the system text it was sent), so a
run begun with the earlier prompt still resumes and is evaluated: its later episodes are sent the new one."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from recordlens.core.agent import loop
from recordlens.core.agent.loop import system_prompt
from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

EARLIER = "`Type [n]; text` clears the field n, types the text and presses Enter, which submits the field's form."


def test_the_prompt_says_type_is_for_text_fields_only() -> None:
    said = " ".join(system_prompt(False).split())
    assert "Type fills only a text field (a text box or a search box); a link, a button or a checkbox is clicked" \
        in said
    assert "(in a text area, Enter starts a new line)" in said


def test_a_run_begun_with_the_earlier_prompt_resumes_and_is_evaluated(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    shipped = loop.read_resource

    def earlier(*parts: str) -> str:
        text = shipped(*parts)
        if parts[-1] != "agent-system.md":
            return text
        return re.sub(r"`Type \[n\]; text`.*?is clicked\.\n", EARLIER + "\n", text, flags=re.S)

    monkeypatch.setattr(loop, "read_resource", earlier)
    project = tmp_path / "p"
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    first_run = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     *tasks, "--runs", "2", "--browser", "text", "--base-url", server.url,
                     "--max-requests", str(first_run + 1)]) == 3  # cut in run 1
        command = re.search(r"finish it with `recordlens (agent run [^`]*)`", capsys.readouterr().err)
        assert command is not None
        monkeypatch.setattr(loop, "read_resource", shipped)
        assert main(shlex.split(command.group(1))) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["complete_runs"] == [0, 1] and len(result["episodes"]) == 2 * len(TASK_IDS)
    with open_project(project) as opened:
        systems = {call.system for row, _ in opened.agent.trajectories(agent_run_id=1)
                   for call in opened.agent.model_calls(row)}
    assert len(systems) == 2 and sum(EARLIER in s for s in systems) == 1  # each episode keeps the prompt it was sent
