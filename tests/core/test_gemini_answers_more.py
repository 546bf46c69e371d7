"""How Gemini's answers are read and said: thinking tokens kept beside prompt and completion, JSON found in prose
that holds brackets of its own (quickly, even in a huge answer), an HTTP 200 that is not JSON said as such, a
refused key named before the endpoint, the closing line's requests, and an answer holding the same record many
times over said. Against real HTTP servers on 127.0.0.1 (tests/fake_gemini.py, and one here that reports thinking
tokens)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import GeminiExtractor, parse_answer
from recordlens.core.llm.gemini import CallSettings, GeminiCaller
from recordlens.core.page.dom import parse_html
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR, read_page_costs, summed_cost
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, raw_body, status
from tests.loopback import LoopbackHandler, base_url, serve

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-answers"
PAGE = parse_html("<main><div>Camera $399</div><div>Lens $129</div></main>")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def extractor(server: FakeGemini, **options: object) -> GeminiExtractor:
    settings = {"api_key": KEY, "base_url": server.url, "timeout_s": 30.0, "max_attempts": 3, "backoff_s": 0.01}
    settings.update(options)
    return GeminiExtractor(**settings)  # type: ignore[arg-type]


def extract(run_dir: Path, url: str, *more: str) -> tuple[str, ...]:
    return ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "--base-url",
            url, "-q", *more)


# 4. thinking tokens


class Thinking(LoopbackHandler):
    """Gemini 2.5 as it bills: thinking tokens in `thoughtsTokenCount`, counted in the total, not in the answer."""

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = {"candidates": [{"content": {"role": "model", "parts": [{"text": "[]"}]}, "finishReason": "STOP",
                                "index": 0}],
                "usageMetadata": {"promptTokenCount": 844, "candidatesTokenCount": 56, "thoughtsTokenCount": 1000,
                                  "totalTokenCount": 1900}}
        self.send(200, json.dumps(body).encode(), "application/json")


def test_thinking_tokens_are_kept_beside_prompt_and_completion_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with serve(Thinking) as server:
        code, printed, err = run(capsys, *extract(run_dir, base_url(server)))
    assert code == 0, err
    page = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    tokens = {"prompt": 844, "completion": 56, "thinking": 1000, "total": 1900}
    assert page["tokens"] == tokens and page["raw"]["calls"][0]["tokens"] == tokens
    assert summed_cost(read_page_costs(run_dir).values())["tokens"] == {k: 4 * v for k, v in tokens.items()}
    closing = printed.strip().splitlines()[-1]  # the closing line, a result, on stdout
    assert closing.endswith("4 requests, 7,600 tokens (3,376 prompt, 224 completion, 4,000 thinking)"), closing


def test_a_run_stored_before_thinking_was_counted_still_reads() -> None:
    older = [{"status": "done", "tokens": {"prompt": 100, "completion": 20, "total": 120}},
             {"status": "done", "tokens": {"prompt": 844, "completion": 56, "thinking": 1000, "total": 1900}}]
    assert summed_cost(older)["tokens"] == {"prompt": 944, "completion": 76, "thinking": 1000, "total": 2020}


# 5. the JSON found in prose that holds brackets


@pytest.mark.parametrize(("text", "records"), [
    ('Here are the records (see [1]): [["/body[1]/div[1]"]]', [["/body[1]/div[1]"]]),
    ('[Note] The records follow.\n[["/a"], ["/b"]]\n[end]', [["/a"], ["/b"]]),
    ('Each record is a list like ["xpath", ...]; here they are: [["/a", "/b"], ["/c"]]', [["/a", "/b"], ["/c"]]),
    ('I found none: []', []),
])
def test_prose_with_brackets_of_its_own_is_read_around_the_json(text: str, records: list[list[str]]) -> None:
    parsed = parse_answer(text)
    assert (parsed.records, parsed.malformed) == (records, False)


def test_a_truncated_answer_is_not_read_from_a_list_inside_it() -> None:
    parsed = parse_answer('Here you go: [["/a", "/b"], ["/c"')
    assert parsed.malformed and parsed.records == []


def test_a_huge_answer_is_read_in_linear_time() -> None:
    records = [[f"/body[1]/div[{i}]"] for i in range(1, 100_001)]
    # CPU time, with room to spare on a busy machine: a quadratic reading of these 100,000 records takes far longer
    started = time.process_time()
    parsed = parse_answer("The records [all of them]: " + json.dumps(records) + " [done]")
    cut = parse_answer("[" + '["/body[1]/div[1]"], ' * 100_000)  # cut off: no list inside is taken for it
    bracketed = parse_answer("[1 of 2] " * 50_000 + json.dumps(records))  # many spans that are not the answer
    assert time.process_time() - started < 60
    assert parsed.records == records and not parsed.malformed and bracketed.records == records
    assert cut.malformed and cut.records == []


def test_an_answer_with_prose_and_brackets_is_paid_for_once() -> None:
    with FakeGemini([answer('Here are the records (see [1]): [["/body[1]/main[1]/div[1]"]]')],
                    default=answer("not asked")) as server:
        result = extractor(server).extract(PAGE)
    assert result.records == [["/body[1]/main[1]/div[1]"]] and len(server.requests) == 1


# 6. small messages


def test_a_200_whose_body_is_not_json_is_said_as_such_when_waited_for() -> None:
    said: list[str] = []
    with FakeGemini([raw_body(b"<html>captive portal</html>"), answer("[]")]) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, backoff_s=3.0), api_key=KEY,
                              sleep=lambda seconds: None, notify=said.append)
        caller.generate("a page")
    assert len(said) == 1 and said[0].startswith("HTTP 200 with a body that is not JSON"), said
    assert "before attempt 2 of 5" in said[0]


def test_a_refused_key_is_named_before_the_endpoint_when_the_run_stops(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=status(400, "API key not valid. Please pass a valid API key.")) as server:
        code, _, err = run(capsys, *extract(tmp_path / "run", server.url))
    assert code == 4
    stop = next(line for line in err.splitlines() if line.startswith("recordlens: stopped:"))
    key_at, endpoint_at = stop.find("the API key"), stop.find("check the endpoint")
    assert 0 <= key_at < endpoint_at, stop
    assert "GEMINI_API_KEY" in stop and KEY not in err


def test_the_closing_line_counts_the_requests(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    with FakeGemini([status(503, "busy")], default=answer("[]")) as server:
        code, printed, _ = run(capsys, *extract(tmp_path / "run", server.url))
    closing = printed.strip().splitlines()[-1]
    assert code == 0 and ", 5 requests, 480 tokens (400 prompt, 80 completion)" in closing, closing


def test_an_answer_holding_the_same_record_many_times_over_is_said_and_kept_as_answered() -> None:
    distinct = [[f"/body[1]/main[1]/div[{i % 2 + 1}]"] for i in range(8)]  # 2 distinct records, 8 answered
    with FakeGemini([answer(json.dumps(distinct * 400))]) as server:
        result = extractor(server).extract(PAGE)
    assert len(result.records) == 3200
    assert "the answer holds 3,198 duplicate records (3,200 records, 2 distinct); kept as answered" \
        in result.warnings, result.warnings
