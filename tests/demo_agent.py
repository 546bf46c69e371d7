"""The demo agent benchmark the project ships (its site, tasks and reference trajectories), and a fake model that
walks it: what the agent run tests share."""

from __future__ import annotations

import json

from recordlens.core.agent.actions import format_action
from recordlens.core.agent.model import Trajectory
from recordlens.core.resource_files import resource_path

SITE_DIR = resource_path("agent", "demo-site")
TASKS_FILE = resource_path("agent", "demo-tasks.jsonl")
TASK_IDS = ("lookup-1", "rules-1", "lookup-2")
REFERENCES = {t: Trajectory.from_json(resource_path("agent", "reference", f"{t}.json").read_text("utf-8"))
              for t in TASK_IDS}
INSTRUCTIONS = {json.loads(line)["id"]: json.loads(line)["instruction"]
                for line in TASKS_FILE.read_text("utf-8").splitlines() if line.strip()}


def respond(body: dict) -> str:
    """Even seeds follow the reference path (success); odd seeds answer wrong at once (one request an episode)."""
    prompt = body["contents"][0]["parts"][0]["text"]
    task = next(t for t in TASK_IDS if INSTRUCTIONS[t] in prompt)
    step = int(prompt.split("\nStep ", 1)[1].split(" ", 1)[0])
    if body["generationConfig"]["seed"] % 2:
        return "Thought: a guess.\nAction: ANSWER; nobody"
    return f"Thought: on the path.\nAction: {format_action(REFERENCES[task].steps[step - 1])}"
