"""`recordlens agent run` as installed (recordlens.annotator.cli) drives QtWebEngine: real screenshots reach the
model, and a model following the reference path succeeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.cli import main
from recordlens.core.agent import CAPTURE_VIEWPORT
from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Trajectory
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.fake_gemini import FakeGemini, answer

pytestmark = pytest.mark.app


def test_the_installed_command_runs_the_agent_in_qtwebengine(qapp, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    tasks = tmp_path / "tasks.jsonl"
    lines = resource_path("agent", "demo-tasks.jsonl").read_text("utf-8").splitlines()
    tasks.write_text("\n".join(line for line in lines if '"rules-1"' in line) + "\n", encoding="utf-8")
    reference = Trajectory.from_json(resource_path("agent", "reference", "rules-1.json").read_text("utf-8"))
    with FakeGemini([answer(format_action(s)) for s in reference.steps]) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(resource_path("agent",
                     "demo-site")), "--tasks", str(tasks), "--runs", "1", "--base-url", server.url])
    assert code == 0, capsys.readouterr().err
    assert "1 of 1 episode succeeded" in capsys.readouterr().out
    assert all(r.body["contents"][0]["parts"][-1].get("inlineData") for r in server.requests)  # a screenshot each
    with open_project(tmp_path / "p") as project:
        stored = project.agent.trajectories()
        assert len(stored) == 1 and stored[0][1].success and stored[0][1].steps[0].screenshot_before
        # The run records the view it rendered in: the capture's.
        assert project.agent.runs()[-1].parameters["viewport"] == list(CAPTURE_VIEWPORT) == [1920, 1080]
