"""The command `agent eval` hands out to finish an agent run begun by an older RecordLens, which recorded its tasks
file as it was given to `agent run` (82722f2 made new runs record the whole path): relative to the folder that
command was run from, a folder such a run does not record. The hint printed that relative path, which named the
file only from that folder. It now names the file by its whole path: the folder is looked for where the run was
likely begun (the folder `agent eval` runs in, the project's folder and those above it, the site folder's), and a
file there is taken only if it holds the run's tasks. Found nowhere, the hint says TASKS, and what the run recorded.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import GeminiCaller
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, Step, answer_with, status

FINISH = re.compile(r"the agent run failed \(.*\); finish it with `recordlens (agent run [^`]*)`(.*)")


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


class _FailsAfter:
    """The demo's fake model for `requests` requests, then HTTP 500 for good until it is `mended`."""

    def __init__(self, requests: int) -> None:
        self.left, self.mended = requests, False

    def __call__(self, body: dict) -> str | Step:
        self.left -= 1
        return respond(body) if self.mended or self.left >= 0 else status(500, "down")


def _failed_run(project: Path, tasks: Path, server: FakeGemini) -> None:
    """An agent run of the demo's tasks begun in `tasks`' folder, failed part way (its endpoint down)."""
    assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", tasks.name,
                 *[arg for t in TASK_IDS for arg in ("--task", t)], "--runs", "1", "--browser", "text",
                 "--base-url", server.url]) == 4


def _record_tasks_as_older_versions_did(project: Path, recorded: str) -> None:
    """The run's record of its tasks file made as before 82722f2: the path as given to `agent run`."""
    with sqlite3.connect(project / "project.db") as db:
        (parameters,) = db.execute("SELECT parameters FROM agent_runs WHERE id = 1").fetchone()
        db.execute("UPDATE agent_runs SET parameters = ? WHERE id = 1",
                   (json.dumps({**json.loads(parameters), "tasks": recorded}),))


def _finish_hint(project: Path, capsys: pytest.CaptureFixture[str]) -> re.Match[str]:
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project)]) == 0
    err = capsys.readouterr().err
    said = FINISH.search(err)
    assert said is not None, err
    return said


def test_an_old_runs_relative_tasks_file_is_named_whole_and_the_hint_runs_from_elsewhere(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    begun_in, elsewhere = tmp_path / "bench", tmp_path / "elsewhere"
    begun_in.mkdir(), elsewhere.mkdir()
    tasks = begun_in / "my tasks.jsonl"
    shutil.copyfile(TASKS_FILE, tasks)
    project = begun_in / "my project"
    model = _FailsAfter(len(REFERENCES[TASK_IDS[0]].steps))
    with FakeGemini(default=answer_with(model)) as server:
        monkeypatch.chdir(begun_in)
        _failed_run(project, tasks, server)
        _record_tasks_as_older_versions_did(project, "my tasks.jsonl")

        monkeypatch.chdir(elsewhere)  # neither the folder the run was begun in nor the project's
        command = _finish_hint(project, capsys).group(1)

        assert shlex.split(command)[shlex.split(command).index("--tasks") + 1] == str(tasks)
        model.mended = True
        assert main(shlex.split(command)) == 0, capsys.readouterr().err
    assert main(["agent", "eval", "--project", str(project)]) == 0
    assert "finish it with" not in capsys.readouterr().err  # finished


def test_a_file_of_that_name_not_holding_the_runs_tasks_is_not_taken(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    begun_in, elsewhere = tmp_path / "bench", tmp_path / "elsewhere"
    begun_in.mkdir(), elsewhere.mkdir()
    tasks = begun_in / "tasks.jsonl"
    shutil.copyfile(TASKS_FILE, tasks)
    (elsewhere / "tasks.jsonl").write_text(TASKS_FILE.read_text("utf-8").splitlines()[0] + "\n", "utf-8")
    project = tmp_path / "projects" / "p"  # not below the folder the run was begun in: nothing tells that folder
    with FakeGemini(default=answer_with(_FailsAfter(1))) as server:
        monkeypatch.chdir(begun_in)
        _failed_run(project, tasks, server)
    _record_tasks_as_older_versions_did(project, "tasks.jsonl")
    monkeypatch.chdir(elsewhere)  # a tasks.jsonl here, holding one of the run's three tasks: another file

    said = _finish_hint(project, capsys)

    words = shlex.split(said.group(1))
    assert words[words.index("--tasks") + 1] == "TASKS"
    assert "tasks.jsonl" in said.group(2) and "relative to the folder" in said.group(2), said.group(0)


def test_a_whole_path_recorded_is_named_as_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    begun_in = tmp_path / "bench"
    begun_in.mkdir()
    tasks = begun_in / "tasks.jsonl"
    shutil.copyfile(TASKS_FILE, tasks)
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(_FailsAfter(1))) as server:
        monkeypatch.chdir(begun_in)
        _failed_run(project, tasks, server)
    tasks.unlink()  # gone since: the hint still names the file the run recorded

    said = _finish_hint(project, capsys)

    words = shlex.split(said.group(1))
    assert words[words.index("--tasks") + 1] == str(tasks) and said.group(2) == ""


def test_the_file_holding_the_tasks_as_the_run_ran_them_comes_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    begun_in, elsewhere = tmp_path / "bench", tmp_path / "elsewhere"
    begun_in.mkdir(), elsewhere.mkdir()
    tasks = begun_in / "tasks.jsonl"
    shutil.copyfile(TASKS_FILE, tasks)
    lines = [json.loads(line) for line in TASKS_FILE.read_text("utf-8").splitlines() if line]
    changed = [{**task, "instruction": task["instruction"] + " (reworded)"} if task["id"] == TASK_IDS[0] else task
               for task in lines]
    (elsewhere / "tasks.jsonl").write_text("".join(json.dumps(task) + "\n" for task in changed), "utf-8")
    project = begun_in / "p"
    with FakeGemini(default=answer_with(_FailsAfter(1))) as server:
        monkeypatch.chdir(begun_in)
        _failed_run(project, tasks, server)
    _record_tasks_as_older_versions_did(project, "tasks.jsonl")
    monkeypatch.chdir(elsewhere)  # its tasks.jsonl holds the run's tasks, one changed since: not the run's as begun

    words = shlex.split(_finish_hint(project, capsys).group(1))
    assert words[words.index("--tasks") + 1] == str(tasks)

    tasks.unlink()  # the one changed since is the run's tasks file still, named (the resume says what changed)
    words = shlex.split(_finish_hint(project, capsys).group(1))
    assert words[words.index("--tasks") + 1] == str(elsewhere / "tasks.jsonl")
