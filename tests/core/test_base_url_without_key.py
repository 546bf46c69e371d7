"""A command speaking Gemini's protocol to another endpoint (--base-url: a local server, a proxy) runs without a key:
such an endpoint may need none. It used to stop with "no Gemini key: set GEMINI_API_KEY…"; now a placeholder key is
sent and that is said once. Without --base-url (Google's endpoint), no key is still refused before any work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.llm import gemini
from recordlens.core.resource_files import resource_path
from tests.fake_gemini import FakeGemini, answer_with

SITE = resource_path("agent", "demo-site")
SEEDS = resource_path("agent", "demo-tasks.jsonl")


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in gemini.KEY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(gemini, "_said_no_key", [], raising=False)  # said once a process: once in this test


def tasks_answer(body: dict) -> str:
    return "```json\n" + json.dumps([{"instruction": "Who wrote the paper on tide pools?", "answer": "Ilse Marrow",
                                      "answer_kind": "text", "start_url": "https://papers.example.org/"}]) + "\n```"


def test_generate_against_a_local_endpoint_sends_a_placeholder_key_and_says_so_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "candidates.jsonl"
    with FakeGemini(default=answer_with(tasks_answer)) as server:
        assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--per-category", "1",
                     "--model", "fake-model", "--out", str(out), "--base-url", server.url]) == 0
        keys = {r.api_key for r in server.requests}
    said = capsys.readouterr().err
    assert keys == {gemini.NO_KEY}
    assert said.count("no Gemini key set") == 1
    assert f"sending a placeholder key to --base-url {server.url}" in said
    assert out.is_file()


def test_agent_run_against_a_local_endpoint_needs_no_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=answer_with(lambda body: "Thought: a guess.\nAction: ANSWER; nobody")) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE), "--tasks", str(SEEDS),
                     "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", server.url]) == 0
    assert capsys.readouterr().err.count("no Gemini key set") == 1


def test_without_base_url_no_key_is_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS), "--out",
                 str(tmp_path / "c.jsonl")]) != 0
    assert "no Gemini key: set GEMINI_API_KEY or GOOGLE_API_KEY" in capsys.readouterr().err
    assert not (tmp_path / "c.jsonl").exists()
