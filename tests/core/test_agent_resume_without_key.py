"""`agent run --resume N` of a run made on a keyless --base-url endpoint, with no key set: the command the cut run
prints (no --base-url: the run records its own) finishes it. The key used to be asked for before the run's
recorded --base-url was read, so the printed command stopped with "no Gemini key"."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.llm import gemini
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in gemini.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(gemini, "_said_no_key", [], raising=False)


def test_the_printed_resume_command_finishes_a_keyless_endpoints_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(TASKS_FILE), *tasks, "--runs", "2", "--browser", "text", "--base-url", server.url,
                     "--max-requests", str(run0_requests + 1)]) == 3  # cut in run 1
        said = capsys.readouterr().err
        command = re.search(r"finish it with `recordlens (agent run [^`]*)`", said)
        assert command and "--base-url" not in command.group(1)
        server.requests.clear()
        gemini._said_no_key.clear()  # said once a process: said again for the resumed run
        assert main(shlex.split(command.group(1))) == 0, capsys.readouterr().err
        assert server.requests and {r.api_key for r in server.requests} == {gemini.NO_KEY}
    err = capsys.readouterr().err
    assert "no Gemini key:" not in err
    assert f"sending a placeholder key to --base-url {server.url}" in err



def test_resume_in_a_folder_that_is_not_a_project_creates_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "nope"
    assert main(["agent", "run", "--project", str(folder), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                 "--resume", "1"]) != 0
    assert f"no agent run 1 in {folder} to resume" in capsys.readouterr().err
    assert not folder.exists()
