"""A Gemini answer's XPaths are kept as the model wrote them, as NEXT-EVAL keeps them (no trim), so that the same
answer scores alike whether `extract` asked for it or it is scored as a run file (as `replay` keeps answers);
whitespace around an XPath, and an XPath ending in the hier format's `#text` key, are said in the page's warnings.
Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.extract.gemini import GeminiExtractor, parse_answer
from recordlens.core.page.dom import parse_html
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, answer_with

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-as-written"
TRUTH = {p: json.loads((DEMO / "gt" / f"{p}.json").read_text()) for p in ("1", "2", "3", "4")}
PAGE = parse_html("<main><ul><li>Camera <b>$399</b></li><li>Lens <b>$129</b></li></ul></main>")


def padded(records: list[list[str]]) -> list[list[str]]:
    """The records with whitespace around three XPaths, as a model may write them."""
    records = [list(record) for record in records]
    records[0][0] = " " + records[0][0]
    records[1][0] += " "
    records[2][0] += "\n"
    return records


def test_xpaths_are_kept_as_written_and_the_whitespace_is_said() -> None:
    parsed = parse_answer(json.dumps([[" /a", ""], ["  "], ["/b"]]))
    assert parsed.records == [[" /a"], ["  "], ["/b"]]  # only "" is dropped (said), as before
    assert parsed.problems[0] == "record 1: 1 empty XPath(s) dropped"
    assert parsed.problems[1].startswith('2 XPaths of the answer have whitespace around them or are only whitespace '
                                         '(" /a", "  "; in 2 records): kept as written, as NEXT-EVAL keeps them')


# a word of each demo page's title, as every input format carries it (the site's name is on other pages too)
WORDS = {"1": "Cookware", "2": "Standings", "3": "Courier", "4": "Jobs in"}  # each in one page alone


def page_of(body: dict[str, Any]) -> str:
    prompt = "\n".join(part.get("text", "") for content in body["contents"] for part in content["parts"])
    return next(page for page, word in WORDS.items() if word in prompt)


def test_extract_and_a_run_file_of_the_same_answer_score_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    answers = {"1": padded(TRUTH["1"]), "2": TRUTH["2"], "3": TRUTH["3"], "4": TRUTH["4"]}
    extracted = tmp_path / "extracted"
    with FakeGemini(default=answer_with(lambda body: json.dumps(answers[page_of(body)]))) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                           str(extracted), "--base-url", server.url, "-q")
    assert code == 0, err
    assert json.loads((extracted / "1.json").read_text()) == answers["1"]  # as the model wrote them
    assert "3 XPaths of the answer have whitespace around them" in err
    assert "3 of " in err and "XPaths in the answer name no element" in err  # the padded ones name nothing
    as_file = tmp_path / "as_file"  # the same answers as a run file holds them (replay's way)
    shutil.copytree(extracted, as_file, ignore=shutil.ignore_patterns("_run"))
    for name, records in answers.items():
        (as_file / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    figures = []
    for folder in (extracted, as_file):
        code, out, _ = run(capsys, "score", "--pred", str(folder), "--gt", str(DEMO / "gt"), "--pages",
                           str(DEMO / "html"), "--json", "-q")
        figures.append(json.loads(out)["mean"])
    assert figures[0] == figures[1] and figures[0]["f1"] < 1.0


def test_an_xpath_ending_in_the_hier_own_text_key_is_scored_as_written_and_said() -> None:
    own_text = [["/body[1]/main[1]/ul[1]/li[1]/#text"], ["/body[1]/main[1]/ul[1]/li[2]/#text"]]
    with FakeGemini([answer(json.dumps(own_text))]) as server:
        result = GeminiExtractor("hier", api_key=KEY, base_url=server.url, backoff_s=0.01).extract(PAGE)
    assert result.records == own_text
    said = next(w for w in result.warnings if "/#text" in w)
    assert said.startswith("2 XPaths of the answer end in /#text, the hier format's key for an element's own text")
    assert "scored as written, as NEXT-EVAL scores them" in said
    assert 'the element meant is the path without /#text ("/body[1]/main[1]/ul[1]/li[1]")' in said
