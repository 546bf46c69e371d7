"""Words of runs and model calls that said less than they knew: replay takes `--format hier-ref`, the name bench
and run.json give its hier answers; an answer record left empty once its empty XPaths go says it is empty; a wait
before a retry names its page; `bench --count-tokens` with --base-url and no key counts there, as Gemini methods
call there. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import GeminiExtractor, parse_answer
from recordlens.core.llm.gemini import GeminiCaller
from recordlens.core.page.dataset import load_page
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.score import score_page
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, status

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-654"


def _answers(tmp_path: Path) -> Path:
    """Recorded answers for page 1 in the hier format (made on the reference's hier-ref), as NEXT-EVAL ships them."""
    folder = tmp_path / "llm" / "answers"
    folder.mkdir(parents=True)
    (tmp_path / "llm" / "index.json").write_text(json.dumps({"sample1": 1}), encoding="utf-8")
    truth = json.loads((DEMO / "gt" / "1.json").read_text(encoding="utf-8"))
    (folder / "sample1_hier_content.json").write_text(json.dumps(truth), encoding="utf-8")
    (folder / "sample1_flat_content.json").write_text("[]", encoding="utf-8")
    return folder


def test_replay_takes_hier_ref_as_the_name_of_its_hier_answers(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    answers = _answers(tmp_path)
    described = {}
    for name in ("hier-ref", "hier"):
        out = tmp_path / f"run-{name}"
        code, _, err = run(capsys, "extract", "--method", "replay", "--answers", str(answers), "--format", name,
                           "--pages", str(DEMO / "html"), "--out", str(out), "-q")
        assert code == 0, err
        described[name] = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"]
        assert json.loads((out / "1.json").read_text(encoding="utf-8")) == json.loads(
            (DEMO / "gt" / "1.json").read_text(encoding="utf-8"))
    assert described["hier-ref"] == described["hier"]  # one run, by either name
    assert (described["hier"]["input_format"], described["hier"]["read_format"]) == ("hier", "hier-ref")
    code, _, err = run(capsys, "extract", "--method", "replay", "--answers", str(answers), "--format", "slim",
                       "--pages", str(DEMO / "html"), "--out", str(tmp_path / "run-slim"), "-q")
    assert code == 2 and "(it has: flat, hier (made on hier-ref))" in err, err


def test_an_answer_record_left_empty_says_it_is_empty_and_counts_as_hallucinated() -> None:
    parsed = parse_answer('[[""], ["/html/body", ""], []]')
    assert parsed.records == [[], ["/html/body"], []]
    assert parsed.problems == [
        "record 1: its 1 XPath(s) empty, dropped, so the record is empty: kept as answered, it names nothing on the "
        "page and counts as a hallucinated record",
        "record 2: 1 empty XPath(s) dropped",
        "record 3: an empty record: kept as answered, it names nothing on the page and counts as a hallucinated "
        "record"]
    page = load_page(DEMO / "html" / "1.html", "1").page
    scored = score_page([[]], [], TextKeyIndex(page.text_map), "1")
    assert scored.hallucinated_records == 1  # as said


def test_a_wait_before_a_retry_names_its_page() -> None:
    said: list[str] = []
    page = load_page(DEMO / "html" / "3.html", "3").page
    with FakeGemini([status(503, "busy", {"Retry-After": "3"})], default=answer("[]")) as server:
        caller = GeminiCaller(api_key=KEY, sleep=lambda seconds: None, notify=said.append,
                              settings=GeminiExtractor(api_key=KEY, base_url=server.url).caller.settings)
        GeminiExtractor(caller=caller).extract(page)
    assert said == ["page 3: HTTP 503: waiting 3 s as the server asks (Retry-After)"]


def test_bench_counts_tokens_at_an_endpoint_of_base_url_without_a_key(capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini() as server:  # no key set (the suite's conftest removes any)
        code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                             "mdr", "--count-tokens", "--base-url", server.url, "--json", "-q", "--no-chart")
        keys = {request.api_key for request in server.requests}
    rows = {row["format"]: row for row in json.loads(out)["table1"]}
    assert code == 0 and "needs GEMINI_API_KEY" not in err, err
    assert rows["flat"]["token_source"] == "countTokens" and rows["flat"]["mean_prompt_tokens"] > 0
    assert keys == {"recordlens-no-key"}  # the placeholder a Gemini method sends there too
    code, _, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "mdr",
                       "--count-tokens", "--json", "-q", "--no-chart")
    assert code == 0 and "--count-tokens needs GEMINI_API_KEY (or GOOGLE_API_KEY), or an endpoint of --base-url" in err
