"""The command `agent eval` hands out to finish a failed or interrupted agent run runs as printed. It was
"`recordlens agent run ... --resume 1`", which `agent run` refuses as typed (--project, --site and --tasks are
required); now it is the whole command: the project evaluated, and the site folder and tasks file the run recorded
(where it was begun from, so that the command runs from another folder too), each quoted for the shell."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.agent.evaluate import RunPlan, evaluate
from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import GeminiCaller
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, Step, answer_with, status


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


class _FailsAfter:
    """The demo's fake model for `requests` requests, then an endpoint that fails for good (HTTP 500) until it is
    `mended` (one server: a run resumes on the endpoint it was made on)."""

    def __init__(self, requests: int) -> None:
        self.left, self.mended = requests, False

    def __call__(self, body: dict) -> str | Step:
        self.left -= 1
        return respond(body) if self.mended or self.left >= 0 else status(500, "down")


@pytest.mark.parametrize("keyed", [False, True], ids=["endpoint", "endpoint holding a key"])
def test_the_resume_command_agent_eval_prints_finishes_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, keyed: bool) -> None:
    begun_in, elsewhere = tmp_path / "begun here", tmp_path / "elsewhere"
    begun_in.mkdir(), elsewhere.mkdir()
    shutil.copyfile(TASKS_FILE, begun_in / "my tasks.jsonl")
    project = tmp_path / "my project"
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    monkeypatch.chdir(begun_in)  # the tasks file given relative to the folder the run is begun in
    model = _FailsAfter(len(REFERENCES[TASK_IDS[0]].steps))
    with FakeGemini(default=answer_with(model)) as server:
        # A key in the endpoint's URL is not recorded: the command says to give that --base-url again
        base_url = server.url.replace("http://", "http://proxy:test-key-not-real@") if keyed else server.url
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", "my tasks.jsonl",
                     *tasks, "--runs", "1", "--browser", "text", "--base-url", base_url]) == 4
        capsys.readouterr()

        monkeypatch.chdir(elsewhere)
        assert main(["agent", "eval", "--project", str(project)]) == 0
        err = capsys.readouterr().err
        command = re.search(r"the agent run failed \(.*\); finish it with `recordlens (agent run [^`]*)`", err)
        assert command is not None, err
        assert command.group(1) == " ".join(["agent run", "--project", shlex.quote(str(project)), "--site",
                                             shlex.quote(str(SITE_DIR)), "--tasks",
                                             shlex.quote(str(begun_in / "my tasks.jsonl")), "--resume 1"]
                                            + (["--base-url URL"] if keyed else []))
        model.mended = True
        typed = [base_url if word == "URL" else word for word in shlex.split(command.group(1))]
        assert main(typed) == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project)]) == 0
    assert "finish it with" not in capsys.readouterr().err  # finished


def test_a_run_whose_project_site_and_tasks_are_not_known_is_said_with_placeholders() -> None:
    said = evaluate([], [], plan=RunPlan(ended=False, run_id=3)).warnings
    assert any(w.endswith("finish it with `recordlens agent run --project PROJECT --site SITE --tasks TASKS "
                          "--resume 3`") for w in said), said
