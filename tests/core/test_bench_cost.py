"""What a bench spent on Gemini, which it keeps in no run: each method's requests and tokens in its tables and its
JSON; --max-requests as one budget for every Gemini method, said as such when it stops them, with no promise of a
resume; and Table 1's two means read over pages that are said. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import statistics

import pytest

from recordlens.core.extract.base import Extraction
from recordlens.core.llm.gemini import GeminiCaller
from recordlens.core.page import formats
from recordlens.core.page.dataset import load_page
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import bench
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, Step, answer, status

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-456"


def bench_args(server: FakeGemini, methods: str, *more: str) -> tuple[str, ...]:
    return ("bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", methods,
            "--base-url", server.url, "--no-chart", "-q", *more)


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def test_each_gemini_method_s_requests_and_tokens_are_in_the_tables_and_the_json(
        capsys: pytest.CaptureFixture[str]) -> None:
    # gemini:flat's first request fails (HTTP 503) and is retried: a request paid for, no tokens
    with FakeGemini([status(503, "busy")], default=answer("[]", usage=(1000, 50))) as server:
        code, out, _ = run(capsys, *bench_args(server, "gemini:flat,gemini:outline,mdr", "--json"))
        asked = len(server.requests)
    document = json.loads(out)
    rows = {(r["method"], r["input"]): r for r in document["table2"]}
    assert code == 0 and asked == 9
    assert rows["gemini", "flat"]["requests"] == 5
    assert rows["gemini", "flat"]["tokens"] == {"prompt": 4000, "completion": 200, "total": 4200}
    assert rows["gemini", "outline"]["requests"] == 4
    assert (rows["mdr", "slim"]["requests"], rows["mdr", "slim"]["tokens"]) == (None, None)  # it calls no model
    assert document["spent"] == {"requests": 9, "tokens": {"prompt": 8000, "completion": 400, "total": 8400}}
    with FakeGemini(default=answer("[]", usage=(1000, 50))) as server:
        code, out, _ = run(capsys, *bench_args(server, "gemini:flat,gemini:outline"))
    assert code == 0
    spent = out[out.index("Spent on model calls"):].splitlines()
    assert spent[1].split() == ["method", "requests", "prompt", "completion", "total"]
    assert spent[2].split() == ["gemini:flat", "4", "4,000", "200", "4,200"]
    assert spent[4].split() == ["all", "8", "8,000", "400", "8,400"]


class Thinking:
    """An extractor whose calls report thinking tokens, as Gemini's thinking models do."""

    name, version, input_format = "thinking-test", "1", "flat"

    def extract(self, page: object) -> Extraction:
        tokens = {"prompt": 10, "completion": 2, "thinking": 30, "total": 42}
        return Extraction([], self.name, self.version, {}, 0.0, input_format="flat", tokens=tokens,
                          raw={"calls": [{"attempts": 1, "statuses": [200], "tokens": tokens}]})


def test_thinking_tokens_are_shown_where_the_provider_reports_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: Thinking())
    result = bench.run_bench(DEMO / "html", DEMO / "gt", [bench.MethodSpec("thinking-test")])
    assert result.as_dict()["spent"] == {"requests": 4, "tokens": {"prompt": 40, "completion": 8, "thinking": 120,
                                                                   "total": 168}}
    spent = bench.format_tables(result).split("Spent on model calls")[1].splitlines()
    assert spent[1].split() == ["method", "requests", "prompt", "completion", "thinking", "total"]
    assert spent[2].split() == ["thinking-test", "4", "40", "8", "120", "168"]


def test_max_requests_is_one_budget_for_every_method_and_a_stopped_bench_promises_no_resume(
        capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=answer("[]")) as server:
        code, out, err = run(capsys, *bench_args(server, "gemini:flat,gemini:outline", "--max-requests", "7"))
        asked = len(server.requests)
    assert code == 3 and asked == 7
    # the methods take turns on each page: flat answers page 4 with the 7th request, outline is stopped there
    shared = "one budget shared by gemini:flat (4 requests), gemini:outline (3 requests)"
    assert f"(gemini:outline stopped: request budget used up (7 of 7), {shared})" in out
    assert f"gemini:outline stopped: request budget used up (7 of 7), {shared}; its 1 page not reached" in err
    for said in (out, err):
        assert "bench keeps no run to resume from: a bench run again asks every page again" in said
    assert main_help("--max-requests").startswith("stop after this many requests, counted over every Gemini "
                                                  "method together; one budget")


def main_help(option: str) -> str:
    import argparse

    from recordlens.core.cli import evaluation

    parser = argparse.ArgumentParser()
    evaluation.register(parser.add_subparsers())
    bench_parser = parser._subparsers._group_actions[0].choices["bench"]  # type: ignore[union-attr]
    return bench_parser._option_string_actions[option].help


def test_table_1_s_token_mean_counts_a_refused_page_and_says_over_how_many_pages_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Page 1 answered, page 2 refused (SAFETY: its prompt's tokens are reported), page 3 answered, page 4 never
    # asked (the budget): tokens are known on 3 of the 4 pages.
    refused = Step("answer", finish_reason="SAFETY", usage=(4000, 0))
    with FakeGemini([answer("[]", usage=(1000, 10)), refused, answer("[]", usage=(1000, 10))]) as server:
        code, out, _ = run(capsys, *bench_args(server, "gemini:flat", "--max-requests", "3", "--json"))
    flat = next(row for row in json.loads(out)["table1"] if row["format"] == "flat")
    sizes = [len(formats.represent(load_page(DEMO / "html" / f"{p}.html", p).page, "flat")) for p in "1234"]
    assert code == 3
    assert (flat["mean_prompt_tokens"], flat["token_pages"], flat["pages"]) == (2000.0, 3, 4)
    assert flat["mean_characters"] == statistics.fmean(sizes)
    assert flat["mean_characters_of_token_pages"] == statistics.fmean(sizes[:3])
    with FakeGemini([answer("[]", usage=(1000, 10)), refused, answer("[]", usage=(1000, 10))]) as server:
        code, out, _ = run(capsys, *bench_args(server, "gemini:flat", "--max-requests", "3"))
    line = next(line for line in out.splitlines() if line.startswith("flat "))
    assert line.split()[1:3] == [f"{statistics.fmean(sizes):,.0f}", "2,000"]
    assert line.endswith(f"recorded usage, 3 of 4 pages (mean chars on them: {statistics.fmean(sizes[:3]):,.0f})")
    assert "(mean chars: over every page; mean tokens: over the pages whose prompt's tokens are known)" in out
