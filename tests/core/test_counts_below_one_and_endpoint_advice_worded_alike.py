"""The whole-number options that must be at least 1 are refused in one wording, the option named with the value given
(`wording.below_one`: "--variants must be at least 1 (got 0)"), as --runs and --workers are; and an endpoint's
refusal goes on to what to check first after its own words with their closing full stop dropped and an ellipsis kept
(`wording.as_clause`), where the ellipsis, which says the endpoint's list goes on, was cut to a dangling comma."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.llm.gemini import CallSettings, GeminiCaller, GeminiError
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import DEMO, run
from tests.fake_gemini import FakeGemini, answer, status

SITE = resource_path("agent", "demo-site")
SEEDS = resource_path("agent", "demo-tasks.jsonl")


@pytest.mark.parametrize("variants", ["0", "-3"])
def test_synth_names_variants_below_one_with_the_value(variants: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out",
                       str(tmp_path / "out"), "--variants", variants)
    assert code == 2 and err == f"recordlens: error: --variants must be at least 1 (got {variants})\n", err
    assert not (tmp_path / "out").exists()


def test_task_generation_names_per_category_below_one_with_the_value(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "agent", "tasks", "generate", "--site", str(SITE), "--seeds", str(SEEDS),
                           "--per-category", "0", "--model", "fake-model", "--out", str(tmp_path / "c.jsonl"),
                           "--base-url", server.url)
        assert not server.requests  # refused before any request
    assert code == 2 and err.endswith("recordlens: error: --per-category must be at least 1 (got 0)\n"), err


def test_bench_names_splits_below_one_with_the_value(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "bench", "--cv", "2", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"),
                       "--splits", "0")
    assert code == 2 and err == "recordlens: error: --splits must be at least 1 (got 0)\n", err


@pytest.mark.parametrize(("said", "kept"), [
    ("models/gemini-9 is not found; known: gemini-2.5-flash, gemini-2.5-pro, ...",
     "known: gemini-2.5-flash, gemini-2.5-pro, ...; the endpoint knows no model"),
    ("models/gemini-9 is not found for API version v1beta.", "for API version v1beta; the endpoint knows no model"),
])
def test_an_endpoint_s_words_go_on_to_the_advice_as_a_clause(said: str, kept: str) -> None:
    with FakeGemini(default=status(404, said)) as server, pytest.raises(GeminiError) as caught:
        settings = CallSettings(model="gemini-9", base_url=server.url, max_attempts=1, backoff_s=0.01,
                                timeout_s=10.0, json_output=False)
        GeminiCaller(settings, api_key="test-key-not-real-clause", notify=lambda message: None).generate("page")
    assert kept in str(caught.value), caught.value
