"""What a Gemini run says of answers it cannot take at their word: an endpoint that reports no token usage under a
--max-tokens cap (the run stops after the first such answer, said, rather than spend without counting), an
answer holding two JSON arrays of records (read, and the choice said), an HTTP 200 whose body is an error object
(named as such, not as an empty body), `score --json`'s figures without failed pages when no page is left (null,
not 0.0), and `runs --add` of a run stopped before it finished any page (stored as a stopped run, as one whose
pages failed is). Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import UNCOUNTED_ANSWER, parse_answer
from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR
from tests.core.cli_runs import gemini_extract as extract
from tests.core.cli_runs import run
from tests.core.run_folder_helpers import dataset, project_of
from tests.fake_gemini import FakeGemini, answer, raw_body, refused, status

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-uncounted"
RECORDS = [["/body[1]/div[1]"], ["/body[1]/div[2]"]]


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)



def without_usage(text: str) -> bytes:
    """A Gemini answer of `text` with no usageMetadata (as some proxies answer)."""
    return json.dumps({"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                       "finishReason": "STOP", "index": 0}]}).encode()


# 1. an endpoint that reports no token usage


def test_a_token_cap_stops_the_run_after_the_first_answer_without_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    uncounted = raw_body(without_usage(json.dumps(RECORDS)), "application/json")
    with FakeGemini(default=uncounted) as server:
        code, _, err = run(capsys, *extract(run_dir, server, "--max-tokens", "1"))
        asked = len(server.requests)
    assert code == 3 and asked == 1, err  # not every page, spent without a count
    assert "token budget cannot be held (0 of 1 counted): the endpoint answered 1 request without token counts" \
        in err and "--max-requests instead" in err, err
    kept = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert kept["warnings"] == [UNCOUNTED_ANSWER]  # the paid answer is kept, its tokens said unknown


def test_without_a_token_cap_an_answer_without_counts_is_said_not_read_as_free(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    uncounted = raw_body(without_usage(json.dumps(RECORDS)), "application/json")
    with FakeGemini(default=uncounted) as server:
        code, _, err = run(capsys, *extract(tmp_path / "run", server, "--max-requests", "10"))
    assert code == 0, err
    assert err.count(UNCOUNTED_ANSWER) == 4, err


def test_the_budget_counts_answers_without_counts_apart_from_tokens() -> None:
    budget = Budget(max_tokens=1_000)
    budget.add_tokens(10)
    assert budget.used_up() is None
    budget.add_uncounted()
    assert budget.tokens == 10 and "cannot be held (10 of 1,000 counted)" in str(budget.used_up())
    assert Budget(max_requests=5, uncounted=3).used_up() is None  # no token cap: nothing to hold


def test_an_answer_reporting_its_tokens_counts_as_before() -> None:
    with FakeGemini(default=answer(json.dumps(RECORDS))) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1), api_key=KEY,
                              budget=Budget(max_tokens=1_000))
        caller.generate("page")
    assert caller.budget.counts() == (1, 120) and caller.budget.uncounted == 0


# 5. an answer holding two JSON arrays


def test_an_answer_holding_two_lists_of_records_is_read_and_the_choice_said() -> None:
    parsed = parse_answer('[["/body[1]/div[1]"]] and also [["/body[1]/div[2]"], ["/body[1]/div[3]"]]')
    assert parsed.records == [["/body[1]/div[2]"], ["/body[1]/div[3]"]] and not parsed.malformed
    assert parsed.problems == ["the answer holds 2 JSON lists of records where one array is asked for: the longest "
                               "(the first of equal length), list 2, is read as the answer, and 1 other ignored"]


def test_one_array_or_an_example_flat_list_beside_the_records_says_nothing() -> None:
    assert parse_answer(json.dumps(RECORDS)).problems == []
    parsed = parse_answer('For example ["/body[1]/p[1]"]; the answer: [["/body[1]/div[1]"]] (see [1])')
    assert parsed.records == [["/body[1]/div[1]"]] and parsed.problems == []


def test_the_warning_of_two_arrays_is_kept_with_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    text = '[["/body[1]/div[1]"]] and also [["/body[1]/div[2]"]]'
    with FakeGemini(default=answer(text)) as server:
        code, _, err = run(capsys, *extract(run_dir, server))
    assert code == 0, err
    kept = json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))
    assert any(w.startswith("the answer holds 2 JSON lists of records") for w in kept["warnings"]), kept["warnings"]
    assert json.loads((run_dir / "1.json").read_text(encoding="utf-8")) == [["/body[1]/div[1]"]]


# 8. an HTTP 200 whose body is an error object


def test_a_200_holding_an_error_object_is_named_not_called_empty() -> None:
    body = json.dumps({"error": {"code": 200, "message": "proxy says no"}}).encode()
    with FakeGemini(default=raw_body(body, "application/json")) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=2, backoff_s=0.01), api_key=KEY)
        with pytest.raises(Exception) as raised:
            caller.generate("page")
    said = str(raised.value)
    assert "HTTP 200 holding an error object, not an answer: " in said and "proxy says no" in said, said
    assert "empty body" not in said
    assert raised.value.log.statuses == [200, 200]  # retried, as a transient answer is


def test_a_truly_empty_200_is_still_said_empty() -> None:
    with FakeGemini(default=raw_body(b"{}", "application/json")) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1), api_key=KEY)
        with pytest.raises(Exception, match="HTTP 200 with an empty body"):
            caller.generate("page")


# 6. score --json without failed pages, when none is left


def test_score_json_gives_null_figures_without_failed_when_no_page_is_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=refused("SAFETY")) as server:
        assert run(capsys, *extract(run_dir, server))[0] == 1
    code, out, _ = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "--json", "-q")
    document = json.loads(out)
    assert document["without_failed"] == {"precision": None, "recall": None, "f1": None,
                                          "hallucination_rate": None, "hallucinated_record_share": None,
                                          "pages": 0}, document["without_failed"]
    assert document["mean"]["f1"] == 0.0  # the failed pages still count as empty predictions in the mean


# 7. runs --add of a run stopped before it finished any page (needs /tmp/fix/gemini-importer.patch)


def test_a_run_stopped_part_way_through_its_first_page_is_stored_as_a_stopped_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    project = project_of(tmp_path, dataset(tmp_path, ("1", "2"), "ds"))
    run_dir = tmp_path / "run"
    with FakeGemini([status(503, "overloaded")] * 3, default=answer("[]")) as server:
        code, _, err = run(capsys, *extract(run_dir, server, "--max-requests", "2"))
    assert code == 3 and not list(run_dir.glob("*.json")), err
    assert json.loads((run_dir / META_DIR / "1.json").read_text(encoding="utf-8"))["status"] == "not finished"
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 or code == 1, err
    assert "stored as a stopped run" in err and "no predictions" not in err, err
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    (stored,) = json.loads(out)
    assert stored["status"] == "stopped" and stored["pages_stored"] == 0 and stored["failed_pages"] == 0
    assert stored["cost"]["pages"] == 1  # the paid calls of the page stopped part way are kept


def test_a_folder_that_never_ran_is_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_of(tmp_path, dataset(tmp_path, ("1",), "ds"))
    (tmp_path / "empty").mkdir()
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "empty"), "--method", "mdr")
    assert code == 2 and "no predictions (N.json)" in err, err
