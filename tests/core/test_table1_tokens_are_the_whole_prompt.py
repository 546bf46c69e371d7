"""Table 1's token column is one quantity whatever its source: the whole prompt a Gemini run sends (system
instruction, the words around the page, the page). countTokens is sent that prompt, not the page alone, so a format
reads the same whether its tokens came from a run's recorded usage or from `--count-tokens`. Against the loopback
fake in tests/fake_gemini.py, whose answers report as prompt tokens the words of what they were sent, as its
countTokens counts them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.resource_files import read_resource
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, Step, answer_with


def _words_sent(body: dict[str, Any]) -> Step:
    """An empty answer whose recorded prompt tokens are the words of the whole prompt it was sent."""
    system = body.get("systemInstruction") or body.get("system_instruction") or {}
    parts = [part.get("text", "") for content in [*body.get("contents", []), system]
             for part in content.get("parts", [])]
    return Step("answer", text="[]", usage=(len(" ".join(parts).split()), 5))


def _table1(capsys: pytest.CaptureFixture[str], server: FakeGemini, methods: str, *more: str) -> dict[str, Any]:
    code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                         methods, "--count-tokens", "--base-url", server.url, "--json", "-q", "--no-chart", *more)
    assert code == 0, err
    return {row["format"]: row for row in json.loads(out)["table1"]}


def test_a_format_reads_the_same_from_recorded_usage_and_from_count_tokens(
        capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=answer_with(_words_sent)) as server:
        recorded = _table1(capsys, server, "gemini:flat,gemini:outline")
        counted = _table1(capsys, server, "gemini:flat")
        asked = [r for r in server.requests if r.path.endswith(":countTokens")]
    assert recorded["outline"]["token_source"] == "recorded usage"
    assert counted["outline"]["token_source"] == "countTokens"
    assert counted["outline"]["mean_prompt_tokens"] == recorded["outline"]["mean_prompt_tokens"]
    # what countTokens was sent: the shipped prompt's system instruction and its words around the page
    outline_system = read_resource("prompts", "format-outline.md").strip()
    assert any(outline_system in r.prompt_text and "The page follows." in r.prompt_text for r in asked)


def test_count_tokens_is_sent_a_prompt_file_as_the_run_sends_it(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    prompt = tmp_path / "prompt.txt"
    prompt.write_text("Find the repeated records in this page, please:\n\n{input}\n\nAnswer as string[][].\n")
    with FakeGemini(default=answer_with(_words_sent)) as server:
        recorded = _table1(capsys, server, "gemini:slim", "--prompt-file", str(prompt))
        counted = _table1(capsys, server, "mdr", "--prompt-file", str(prompt))
        asked = [r for r in server.requests if r.path.endswith(":countTokens")]
    assert recorded["slim"]["token_source"] == "recorded usage" and counted["slim"]["token_source"] == "countTokens"
    assert counted["slim"]["mean_prompt_tokens"] == recorded["slim"]["mean_prompt_tokens"]
    assert asked and all("Find the repeated records" in r.prompt_text and "string[][]" in r.prompt_text
                         and "The page follows." not in r.prompt_text for r in asked)
