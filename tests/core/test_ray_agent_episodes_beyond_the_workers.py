"""`agent run --engine ray` with many more episodes than `--workers` (and than the episodes a map has in flight at
once, twice the workers): every episode runs once and is stored once, in the local loop's order; none is dropped as
the map hands out the rest, none run twice (each asks the model once: the requests the server had say so).

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): this test skips where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.core.ray_helpers import KEY
from tests.fake_gemini import FakeGemini, answer_with
from tests.ray_cluster import cluster_environment, recordlens

pytest.importorskip("ray")

TASKS = resource_path("agent", "demo-tasks.jsonl")
TASK_OF = {json.loads(line)["instruction"]: json.loads(line)["id"] for line in TASKS.read_text("utf-8").splitlines()}
RUNS = 2
ANSWER_S = 0.1  # each model call takes a moment: the episodes queue behind the one worker


def test_every_episode_runs_once_and_is_kept_with_more_episodes_than_workers(tmp_path: Path) -> None:
    arrived: list[str] = []
    lock = threading.Lock()

    def answers_at_once(body: dict[str, Any]) -> str:  # each episode ends on its first call
        prompt = body["contents"][0]["parts"][0]["text"]
        with lock:
            arrived.append(next(task for instruction, task in TASK_OF.items() if instruction in prompt))
        time.sleep(ANSWER_S)
        return "Thought: done.\nAction: ANSWER; 42"

    project = tmp_path / "p"
    with FakeGemini(default=answer_with(answers_at_once)) as server:
        site = str(resource_path("agent", "demo-site"))
        done = recordlens(["agent", "run", "--project", str(project), "--site", site, "--tasks", str(TASKS),
                           "--runs", str(RUNS), "--browser", "text", "--step-budget", "3", "--base-url", server.url,
                           "--engine", "ray", "--workers", "1"],
                          env={**cluster_environment(), "GEMINI_API_KEY": KEY})
    assert done.returncode == 0, done.stderr[-3000:]
    assert Counter(arrived) == dict.fromkeys(TASK_OF.values(), RUNS)  # each episode asked once: none run twice
    with open_project(project) as opened:
        stored = [(trajectory.run, trajectory.task_id) for _, trajectory in opened.agent.trajectories(agent_run_id=1)]
    local_order = [(run, task) for run in range(RUNS) for task in TASK_OF.values()]
    assert sorted(stored) == sorted(local_order) and len(stored) == len(set(stored))  # every one, once
