"""What a fake model answers `agent tasks generate` with, for the tests of task generation: the demo site and its
seeds, the first seed of each category, new tasks modelled on it, and the category a request asks about."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.model import Task
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini

SITE = resource_path("agent", "demo-site")
SEEDS = resource_path("agent", "demo-tasks.jsonl")
FIRST_SEED: dict[str, Task] = {}
for _task in DEMO_TASKS:
    FIRST_SEED.setdefault(_task.category, _task)
CATEGORIES = list(FIRST_SEED)  # lookup, rules, retrieval, filtered search, content extraction, comparison


def task_items(category: str, **changed: object) -> list[dict]:
    """Two new tasks of `category`, each asking for its first seed's answer from its start page (`changed` keys
    replacing theirs)."""
    seed = FIRST_SEED[category]
    return [{"instruction": f"A new {category} question number {n}?", "answer": seed.answer,
             "answer_kind": seed.answer_kind, "start_url": seed.start_url, **changed} for n in (1, 2)]


def two_tasks(category: str) -> str:
    """`task_items` as the model's JSON answer."""
    return json.dumps(task_items(category))


def category_of(body: dict) -> str:
    """The category a generateContent request asks tasks of."""
    return re.search(r"^Category: (.+)$", body["contents"][0]["parts"][0]["text"], re.M).group(1)


def without_round(task_id: str) -> str:
    """A generated candidate's id without its round's tag (`gen-<round>-<category>-<n>` as `gen-<category>-<n>`):
    what a test that knows no round's tag (drawn) names it by."""
    return re.sub(r"^gen-[a-z0-9]{5}-", "gen-", task_id)


def generate_tasks(capsys: pytest.CaptureFixture[str], server: FakeGemini, out: Path, *extra: str
                   ) -> tuple[int, str, str]:
    """`agent tasks generate` of two tasks per category of the demo seeds, from the fake model at `server`."""
    return run(capsys, "agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
               "fake-model", "--out", str(out), "--base-url", server.url, "--per-category", "2", *extra)
