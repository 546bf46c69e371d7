"""`agent tasks generate --resume`: a generation that stopped part-way goes on without paying twice.

A stopped generation (an endpoint that failed, Ctrl+C, a category refused) could only be run again whole: running it
again was refused for the existing --out, and --replace asked (and paid for) every category again. Now the
categories answered are kept in `<out>.partial` as each is answered, the stop says how to finish, and `--resume`
asks only the categories not answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.candidates import load_candidates
from recordlens.core.llm.gemini import GeminiCaller
from tests.core.cli_runs import run
from tests.core.generation_answers import CATEGORIES, SEEDS, SITE, category_of, two_tasks
from tests.fake_gemini import FakeGemini, Step, answer_with, status


def generate(capsys: pytest.CaptureFixture[str], server: FakeGemini, out: Path, *extra: str) -> tuple[int, str, str]:
    return run(capsys, "agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--model",
               "fake-model", "--out", str(out), "--base-url", server.url, "--per-category", "2", *extra)


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def test_a_stopped_generation_resumes_asking_only_the_categories_not_answered(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def failing(body: dict) -> str | Step:
        category = category_of(body)
        if category == "rules":  # refused (HTTP 400): not answered, asked again on resume
            return status(400, "bad request")
        return status(500, "down") if category == "filtered search" else two_tasks(category)

    out = tmp_path / "candidates.jsonl"
    partial = tmp_path / "candidates.jsonl.partial"
    with FakeGemini(default=answer_with(failing)) as server:
        code, said, err = generate(capsys, server, out)
    assert code == 4 and partial.exists()
    assert "the same command with --resume asks only the others" in err, err
    assert [c.task.category for c in load_candidates(out)] == ["lookup"] * 2 + ["retrieval"] * 2

    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate(capsys, server, out)  # neither --resume nor --replace: refused, nothing asked
        assert (code, len(server.requests)) == (2, 0)
        assert "--resume asks only the others, --replace starts over" in err
        code, said, err = generate(capsys, server, out, "--resume")
        asked = [category_of(r.body) for r in server.requests]
    assert code == 0, err
    assert asked == ["rules", "filtered search", "content extraction", "comparison"]  # lookup, retrieval: paid for
    assert "6 of 6 categories answered, 2 of them by the run resumed" in said
    assert [c.task.category for c in load_candidates(out)] == [c for c in CATEGORIES for _ in (1, 2)]
    assert not partial.exists()  # every category answered: nothing left to resume


def test_a_resume_with_other_options_or_nothing_to_resume_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"

    def failing(body: dict) -> str | Step:
        category = category_of(body)
        return status(500, "down") if category == "retrieval" else two_tasks(category)

    with FakeGemini(default=answer_with(failing)) as server:
        assert generate(capsys, server, out)[0] == 4
    with FakeGemini(default=answer_with(lambda body: two_tasks(category_of(body)))) as server:
        code, said, err = generate(capsys, server, out, "--resume", "--per-category", "3")
        assert (code, len(server.requests)) == (2, 0)
        assert "was made with another per_category 2 (now 3)" in err, err
        code, said, err = generate(capsys, server, tmp_path / "other.jsonl", "--resume")
        assert (code, len(server.requests)) == (2, 0)
        assert "no stopped generation to resume" in err
