"""The demo agent benchmark the project ships (its site, tasks and reference trajectories), a fake model that
walks it, and `agent run` on it against that model: what the agent run tests share. Also a model that answers at
once and keeps the prompts it was given (`PromptsKept`), for tests of what an agent is shown; and `agent run` in a
child process (`agent_run_child`) against a model that holds one request (`HoldingOne`), for the tests that kill it
(`agent_run_killed_at_held_request`)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from recordlens.core.agent.actions import format_action
from recordlens.core.agent.axtree import write_tree
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.sites import Site, build_site, side_files
from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import Answer
from recordlens.core.resource_files import resource_path
from tests.child_lines import LINE_TIMEOUT_S
from tests.fake_gemini import FakeGemini, answer_with

# The command line in a child process, for a test that kills it (the code before it may patch what it runs)
AGENT_CHILD = """
import sys
from recordlens.core.cli.command import main
sys.exit(main(sys.argv[1:]))
"""

SITE_DIR = resource_path("agent", "demo-site")
TASKS_FILE = resource_path("agent", "demo-tasks.jsonl")
TASK_IDS = ("lookup-1", "rules-1", "lookup-2")
# Each task as the tasks file writes it (a JSON object), by id
TASK_JSON = {json.loads(line)["id"]: json.loads(line) for line in TASKS_FILE.read_text("utf-8").splitlines() if line}
INSTRUCTIONS = {task_id: task["instruction"] for task_id, task in TASK_JSON.items()}
RULES = next(task for task in DEMO_TASKS if task.id == "rules-1")


def demo_reference(task_id: str) -> Trajectory:
    """The reference trajectory the demo ships for the task."""
    return Trajectory.from_json(resource_path("agent", "reference", f"{task_id}.json").read_text("utf-8"))


REFERENCES = {t: demo_reference(t) for t in TASK_IDS}


def demo_site_with_trees(folder: Path) -> Site:
    """A copy of the demo site at `folder` whose every page has a stored tree (a root node named by its title) and
    the meta.json that marks a captured page, its index built again: as `site capture` would have kept it."""
    shutil.copytree(SITE_DIR, folder)
    for page in build_site(folder).pages:
        files = side_files(folder / page.file)
        write_tree(files["axtree"], {"format": "recordlens-axtree/1", "url": page.url, "nodes": [
            {"id": "1", "role": "RootWebArea", "name": page.title, "parent": None, "children": [], "ignored": False}]})
        files["meta"].write_text(json.dumps({"final_url": page.url}), encoding="utf-8")  # what marks a capture
    return build_site(folder)


def stopped_reference(task_id: str) -> Trajectory:
    """A reference stopped before ANSWER: its first step only, no answer (as the window stores it)."""
    full = demo_reference(task_id)
    return replace(full, steps=full.steps[:1], answer=None, success=None, stop=None, actor="person:bo")


def respond(body: dict) -> str:
    """Even seeds follow the reference path (success); odd seeds answer wrong at once (one request an episode)."""
    prompt = body["contents"][0]["parts"][0]["text"]
    task = next(t for t in TASK_IDS if INSTRUCTIONS[t] in prompt)
    step = int(prompt.split("\nStep ", 1)[1].split(" ", 1)[0])
    if body["generationConfig"]["seed"] % 2:
        return "Thought: a guess.\nAction: ANSWER; nobody"
    return f"Thought: on the path.\nAction: {format_action(REFERENCES[task].steps[step - 1])}"


def agent_run(project: Path, server: FakeGemini, *extra: str) -> int:
    """`agent run` of the demo's three tasks, 2 runs, in the text browser against `server`; its exit status."""
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                 *tasks, "--runs", "2", "--browser", "text", "--base-url", server.url, *extra])


def agent_run_of_two_tasks(project: Path, tasks: Path) -> int:
    """`agent run` of lookup-1 and rules-1 as the file `tasks` gives them, 1 run, in the text browser against a
    fake model following `respond`; its exit status."""
    with FakeGemini(default=answer_with(respond)) as server:
        return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks),
                     "--task", "lookup-1", "--task", "rules-1", "--runs", "1", "--browser", "text", "--base-url",
                     server.url])


class PromptsKept:
    """The model: answers at once, keeping the prompts it was given."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        self.prompts.append(prompt)
        return Answer(text="Action: ANSWER; done", usage={}, attempts=1, seconds=0.0, finish_reason="STOP")


def agent_run_child(project: Path, cwd: Path, key: str, *extra: str) -> subprocess.Popen[str]:
    """`agent run` of the demo's site and tasks file in a child process (HOME `cwd`, the Gemini key `key`), with the
    options `extra`."""
    return subprocess.Popen(
        [sys.executable, "-c", AGENT_CHILD, "agent", "run", "--project", str(project), "--site", str(SITE_DIR),
         "--tasks", str(TASKS_FILE), *extra],
        cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HOME": str(cwd), "GEMINI_API_KEY": key})


class HoldingOne:
    """The fake model's answers (`answer`: `respond` by default), counting every request that comes in; request
    `held` is held until `go`: the run is killed while it waits for that answer, its earlier ones all read."""

    def __init__(self, held: int, answer: Callable[[dict], str] = respond) -> None:
        self.held = held
        self.answer = answer
        self.asked = 0
        self.arrived = threading.Event()
        self.go = threading.Event()
        self._counting = threading.Lock()

    def __call__(self, body: dict) -> str:
        with self._counting:
            self.asked += 1
            number = self.asked
        if number == self.held:
            self.arrived.set()
            self.go.wait(LINE_TIMEOUT_S * 4)
        return self.answer(body)


@contextmanager
def agent_run_killed_at_held_request(project: Path, cwd: Path, key: str, *extra: str, held: int,
                                     answer: Callable[[dict], str] = respond) -> Iterator[FakeGemini]:
    """`agent_run_child` with the options `extra`, in the text browser, against a fake model answering `answer`
    (`HoldingOne`), killed with SIGKILL while it waits for request `held`: no way out, nothing is written after
    the kill. Gives the fake model, serving still (a resume asks it), until the block ends."""
    holding = HoldingOne(held, answer)
    with FakeGemini(default=answer_with(holding)) as server:
        child = agent_run_child(project, cwd, key, *extra, "--browser", "text", "--base-url", server.url)
        try:
            if not holding.arrived.wait(LINE_TIMEOUT_S * 2):
                child.kill()
                raise AssertionError(f"the held request never came: {child.communicate(timeout=LINE_TIMEOUT_S)}")
            child.send_signal(signal.SIGKILL)
            child.communicate(timeout=LINE_TIMEOUT_S)
        finally:
            holding.go.set()
        assert child.returncode == -signal.SIGKILL
        yield server
