"""A bench whose Gemini methods share one budget compares them on the same pages: a page some method never reached
(the budget ran out on it, or before it) is left out of every row, and named, rather than scored as an empty
prediction for that method alone while the methods listed before it are scored on their answers. Two methods given
the same answers get the same figures. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json

import pytest

from recordlens.core.llm.gemini import GeminiCaller
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, Step, answer_with, refused

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-789"
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text(encoding="utf-8")) for p in "1234"}
# a word of each demo page's title, as every input format carries it
WORDS = {"1": "Quillmarsh", "2": "Valdoria League", "3": "Marrowby", "4": "Ferncastle"}


def page_of(body: dict) -> str:
    prompt = "\n".join(part.get("text", "") for content in body["contents"] for part in content["parts"])
    return next(page for page, word in WORDS.items() if word in prompt)


def the_truth(body: dict) -> str:
    """Every method is given the same answer on a page: its true records (a perfect score), page 3 none."""
    page = page_of(body)
    return json.dumps(TRUTH[page] if page != "3" else [])


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)


def bench(capsys: pytest.CaptureFixture[str], budget: str, *more: str) -> tuple[int, str, str]:
    with FakeGemini(default=answer_with(the_truth)) as server:
        return run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                   "gemini:flat,gemini:slim,mdr", "--base-url", server.url, "--no-chart", "-q",
                   "--max-requests", budget, *more)


def test_methods_sharing_a_budget_are_scored_on_the_pages_every_method_reached(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 5 requests: flat answers pages 1, 2, 3; slim pages 1, 2, and is stopped on page 3; page 4 is reached by none
    code, out, err = bench(capsys, "5", "--json")
    document = json.loads(out)
    rows = {row["method"] + ":" + row["input"]: row for row in document["table2"]}
    flat, slim, mdr = rows["gemini:flat"], rows["gemini:slim"], rows["mdr:slim"]
    assert code == 3
    assert flat["page_names"] == slim["page_names"] == mdr["page_names"] == ["1", "2"]
    assert (flat["precision"], flat["recall"], flat["f1"]) == (slim["precision"], slim["recall"], slim["f1"]) \
        == (1.0, 1.0, 1.0)
    assert (flat["not_reached_pages"], slim["not_reached_pages"]) == (1, 2)
    assert document["left_out_pages"] == {"3": ["gemini:slim"], "4": ["gemini:flat", "gemini:slim"]}
    said = [line for line in err.splitlines() if "every method is measured on the same" in line]
    assert said == ["warning: 2 pages a method never reached are left out of every row, so that every method is "
                    "measured on the same 2 pages: 3 (not reached by gemini:slim); 4 (not reached by gemini:flat, "
                    "gemini:slim); gemini:flat was asked on page 3: paid for, not scored"], err
    assert "scored as empty predictions" not in err


def test_the_table_says_over_which_pages_its_rows_are(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = bench(capsys, "5")
    lines = out.splitlines()
    assert code == 3
    assert "Table 2: methods (on 2 of 4 pages: 2 that a method never reached are left out of every row: 3, 4)" in lines
    flat, slim = (next(line for line in lines if line.startswith("gemini") and f" {fmt} " in line)
                  for fmt in ("flat", "slim"))
    assert flat.split()[2:5] == slim.split()[2:5] == ["1.0000", "1.0000", "1.0000"]
    assert flat.endswith(" 2 (1 not reached)") and slim.endswith(" 2 (2 not reached)")
    assert "(pages a method failed on are scored as empty predictions)" not in out  # none failed


def test_a_budget_no_page_is_reached_on_by_every_method_scores_no_row(capsys: pytest.CaptureFixture[str]) -> None:
    # 1 request: flat answers page 1, slim is stopped there: no page was reached by both
    code, out, err = bench(capsys, "1", "--json")
    rows = json.loads(out)["table2"]
    assert code == 3 and all(row["pages"] == 0 and row["f1"] is None for row in rows)
    assert "no page was reached by every method: no row is scored" in err
    code, out, _ = bench(capsys, "1")
    line = next(line for line in out.splitlines() if line.startswith("gemini") and " flat " in line)
    assert line.split()[2:5] == ["n/a", "n/a", "n/a"]


def test_a_failure_on_a_page_left_out_is_said_as_left_out_not_as_scored(capsys: pytest.CaptureFixture[str]) -> None:
    # page 3 is refused to flat (the 5th request); slim, stopped there, never reaches it: no row scores page 3
    def refuse_page_3(body: dict) -> str | Step:
        return refused("SAFETY") if page_of(body) == "3" else the_truth(body)

    with FakeGemini(default=answer_with(refuse_page_3)) as server:
        code, out, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                             "gemini:flat,gemini:slim", "--base-url", server.url, "--no-chart", "-q",
                             "--max-requests", "5", "--json")
    rows = json.loads(out)["table2"]
    assert code == 3 and [row["page_names"] for row in rows] == [["1", "2"], ["1", "2"]]
    assert rows[0]["failed_pages"] == 1
    assert "gemini:flat on page 3: the model did not finish (finishReason SAFETY); left out of every row (a method " \
           "never reached it)" in err, err
    assert "scored as an empty prediction" not in err
