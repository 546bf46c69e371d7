"""`agent run --engine ray` stopped by Ctrl+C or SIGTERM keeps its episodes under way as a local run keeps its own:
stored, cut as "interrupted", with the model calls they had paid for and read. A Ray run kept none of them: the
episodes its workers ran were lost with the stop, and so were episodes finished but not yet stored (the run stores
them in the local loop's order, each after those before it).

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): this test skips where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.agent.loop import INTERRUPTED
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.core.ray_helpers import KEY
from tests.fake_gemini import FakeGemini, answer_with
from tests.ray_cluster import cluster_environment, recordlens_running, wait_while_running

pytest.importorskip("ray")

ANSWER_S = 0.7  # each model call takes so long: the episodes are under way when the run is stopped
# Requests the server has had when the run is stopped: more than the episodes a run of 2 workers has under way at once
# (4 tasks in flight, a worker waiting on Ray giving its CPU to another), so that one of them has a call answered
STOP_AFTER = 5
TASKS = resource_path("agent", "demo-tasks.jsonl")
TASK_OF = {json.loads(line)["instruction"]: json.loads(line)["id"] for line in TASKS.read_text("utf-8").splitlines()}


@pytest.mark.parametrize("engine, stop", [("local", signal.SIGINT), ("ray", signal.SIGINT), ("ray", signal.SIGTERM)])
def test_a_stopped_agent_run_keeps_its_episodes_under_way_cut_as_interrupted(
        engine: str, stop: signal.Signals, tmp_path: Path) -> None:
    arrived: list[str] = []  # the task of each request, as it arrives
    lock = threading.Lock()

    def slow_miss(body: dict[str, Any]) -> str:  # a failed step each time: the episode goes on to its step budget
        prompt = body["contents"][0]["parts"][0]["text"]
        with lock:
            arrived.append(next(task for instruction, task in TASK_OF.items() if instruction in prompt))
        time.sleep(ANSWER_S)
        return "Thought: trying.\nAction: Click [999]"

    project = tmp_path / "p"
    on_ray = ["--workers", "2"] if engine == "ray" else []
    with FakeGemini(default=answer_with(slow_miss)) as server:
        args = ["agent", "run", "--project", str(project), "--site", str(resource_path("agent", "demo-site")),
                "--tasks", str(TASKS), "--runs", "1", "--browser", "text",
                "--step-budget", "20", "--max-failures", "20", "--base-url", server.url, "--engine", engine, *on_ray]
        with recordlens_running(args, env={**cluster_environment(), "GEMINI_API_KEY": KEY}) as running:
            wait_while_running(running, lambda: len(arrived) >= STOP_AFTER)
            running.send_signal(stop)
            _, err = running.communicate(timeout=120)
        time.sleep(2 * ANSWER_S)  # a request sent late is in by now
        with lock:
            requests = Counter(arrived)
    assert running.returncode == 128 + stop, err[-3000:]
    assert "recordlens: agent run 1 interrupted; its finished episodes are kept" in err, err[-3000:]
    with open_project(project) as opened:
        stored = [(row, trajectory, opened.agent.model_calls(row))
                  for row, trajectory in opened.agent.trajectories(agent_run_id=1)]
    cut = [(trajectory, calls) for _, trajectory, calls in stored if trajectory.stop == INTERRUPTED]
    assert cut, [(trajectory.task_id, trajectory.stop) for _, trajectory, _ in stored]
    for trajectory, calls in cut:
        assert calls and all(call.answer and "Click [999]" in call.answer for call in calls), trajectory.task_id
        assert len(trajectory.steps) in (len(calls) - 1, len(calls)), trajectory.task_id  # the last call's step
    kept = Counter({trajectory.task_id: len(calls) for _, trajectory, calls in stored})
    for task, asked in requests.items():  # each call answered is kept; of an episode under way, its last is not read
        assert asked - 1 <= kept[task] <= asked, (task, kept, requests)
