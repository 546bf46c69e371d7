"""`agent tasks generate` and an answer the model did not finish: a refusal (finishReason SAFETY, empty text) or a
list cut off (MAX_TOKENS) was reported as "the answer holds no JSON list of tasks", counted among the categories
answered, and the command exited 0. Such a category is now named with the finish reason (`agent run`'s words), not
counted as answered, none of its answer is used, and the exit status is 1 (as for a category whose request alone is
refused). An empty list is an answer with no task, said so."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.fake_gemini import FakeGemini, Step, answer_with, refused

SITE = resource_path("agent", "demo-site")
SEEDS = resource_path("agent", "demo-tasks.jsonl")
FIRST_SEED = {}
for _task in DEMO_TASKS:
    FIRST_SEED.setdefault(_task.category, _task)


def one_task(category: str) -> str:
    seed = FIRST_SEED[category]
    return json.dumps([{"instruction": f"A new {category} question?", "answer": seed.answer,
                        "answer_kind": seed.answer_kind, "start_url": seed.start_url}])


def model(body: dict) -> str | Step:
    category = re.search(r"^Category: (.+)$", body["contents"][0]["parts"][0]["text"], re.M).group(1)
    if category == "lookup":
        return refused("SAFETY")
    if category == "rules":  # one whole item, then the list is cut: nothing of it is used
        return refused("MAX_TOKENS", one_task("rules")[:-1] + ', {"instruction": "How many days may an item be')
    if category == "content extraction":
        return "[]"
    return one_task(category)


def generate(tmp_path: Path, server: FakeGemini, out: Path) -> int:
    return main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model", "fake-model",
                 "--out", str(out), "--base-url", server.url, "--per-category", "2"])


def test_refused_and_cut_off_answers_are_named_not_answered_and_exit_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(model)) as server:
        code = generate(tmp_path, server, out)
    said = capsys.readouterr()
    assert code == 1
    assert "4 of 6 categories answered (content extraction with no task)" in said.out
    assert "warning: lookup: the model did not finish (finishReason SAFETY): its answer is not used" in said.err
    assert ("warning: rules: the model did not finish (finishReason MAX_TOKENS): its answer is not used; fewer "
            "tasks (--per-category) make a shorter answer") in said.err
    assert "warning: content extraction: the model answered with no task (an empty list)" in said.err
    assert "holds no JSON list" not in said.err
    assert ("no finished answer for lookup (the model did not finish (finishReason SAFETY)); rules (the model did "
            "not finish (finishReason MAX_TOKENS))") in said.err
    assert sorted(c.task.category for c in load_candidates(out)) == ["comparison", "filtered search", "retrieval"]


def test_nothing_but_unfinished_answers_writes_nothing_and_exits_1(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=refused("SAFETY")) as server:
        code = generate(tmp_path, server, out)
    err = capsys.readouterr().err
    assert code == 1 and not out.exists()
    assert "recordlens: error: no candidate task: no finished answer for lookup (the model did not finish" in err
