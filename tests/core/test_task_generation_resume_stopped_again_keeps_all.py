"""`agent tasks generate --resume` that stops again (the endpoint fails, the budget, Ctrl+C) before a category the
resumed run had answered: that category was left out of --out and of the summary's count (the generation broke off
at the stop, before it reached the categories resumed after it), though still in `<out>.partial`. Now --out holds
every candidate answered so far, this run's and the earlier runs', and the summary counts them all."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.llm.gemini import GeminiCaller
from tests.core.generation_answers import category_of, generate_tasks, two_tasks
from tests.ctrl_c import ctrl_c_raises
from tests.fake_gemini import FakeGemini, Step, answer_with, hang, status


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def _lookup_and_retrieval_answered(capsys: pytest.CaptureFixture[str], out: Path) -> None:
    """A first run: lookup answered, rules refused (HTTP 400), retrieval answered, then the endpoint fails."""
    def model(body: dict) -> str | Step:
        category = category_of(body)
        if category == "rules":
            return status(400, "bad request")
        return status(500, "down") if category == "filtered search" else two_tasks(category)

    with FakeGemini(default=answer_with(model)) as server:
        code, said, err = generate_tasks(capsys, server, out)
    assert code == 4, err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["retrieval"] * 2


def _partial_categories(out: Path) -> list[str]:
    return list(json.loads(Path(f"{out}.partial").read_text(encoding="utf-8"))["categories"])


def test_a_resume_whose_endpoint_fails_writes_the_categories_resumed_after_the_stop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"
    _lookup_and_retrieval_answered(capsys, out)
    with FakeGemini(default=status(500, "down")) as server:  # rules, asked first, fails for good: the stop
        code, said, err = generate_tasks(capsys, server, out, "--resume")
        asked = {category_of(r.body) for r in server.requests}
    assert code == 4 and asked == {"rules"}, err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["retrieval"] * 2
    assert "4 candidate(s) from" in said and "2 of 6 categories answered, 2 of them by the run resumed" in said, said
    assert ("stopped at category 2 of 6, rules, not answered (the model endpoint failed; not asked: filtered search, "
            "content extraction, comparison)") in err, err
    assert _partial_categories(out) == ["lookup", "retrieval"]  # nothing paid for is dropped

    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate_tasks(capsys, server, out, "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["rules", "filtered search", "content extraction", "comparison"]
    assert "6 of 6 categories answered, 2 of them by the run resumed" in said


def test_a_resume_stopped_by_ctrl_c_writes_the_categories_resumed_after_the_stop(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"
    _lookup_and_retrieval_answered(capsys, out)

    def interrupted(body: dict) -> Step:  # rules, asked first: stopped while its answer is awaited
        os.kill(os.getpid(), signal.SIGINT)
        return hang(30)

    with FakeGemini(default=answer_with(interrupted)) as server, ctrl_c_raises():
        code, said, err = generate_tasks(capsys, server, out, "--resume")
    assert code == 130, err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["retrieval"] * 2
    assert "2 of 6 categories answered, 2 of them by the run resumed" in said, said
    assert _partial_categories(out) == ["lookup", "retrieval"]
