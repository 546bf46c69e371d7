"""What the app's Propose proposes of a Gemini answer (`extract.proposal_of`): a record answered empty (`[]`) names
nothing a label could hold, and a record repeating an earlier one (the same XPaths, or other XPaths covering the
same text: a wrapper and its only child) would make a pair of one text; neither is proposed, and the proposal's
warnings say how many of each were left out. The extraction itself, and the run that keeps it, holds every record as
answered, as NEXT-EVAL's score counts them (an empty record is a hallucinated one). Against the loopback fake in
tests/fake_gemini.py."""

from __future__ import annotations

import json

import pytest

from recordlens.core import extract
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.hygiene import weigh_proposals
from recordlens.core.records.model import TextKeyIndex
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-proposals-of-an-answer"
PAGE = parse_html("<main><ul><li><b>Camera</b> $399</li></ul><div><p>Lens $129</p><p>Bag $49</p></div></main>")
LIST = "/body[1]/main[1]/ul[1]"
ITEM = "/body[1]/main[1]/ul[1]/li[1]"  # the list's only item: the same text as the list
LENS, BAG = "/body[1]/main[1]/div[1]/p[1]", "/body[1]/main[1]/div[1]/p[2]"


def answered(records: list[list[str]], page: Page = PAGE) -> extract.Extraction:
    with FakeGemini([answer(json.dumps(records))]) as server:
        return GeminiExtractor(api_key=KEY, base_url=server.url, timeout_s=30.0, max_attempts=1).extract(page)


def keys(page: Page = PAGE) -> TextKeyIndex:
    return TextKeyIndex(page.text_map)


def test_an_empty_record_is_kept_as_answered_and_not_proposed() -> None:
    extraction = answered([[LENS], []])
    assert extraction.records == [[LENS], []]  # as answered: the score counts it, as the reference does
    assert any("record 2: an empty record" in w for w in extraction.warnings), extraction.warnings
    proposed = extract.proposal_of(extraction, keys())
    assert proposed.records == [[LENS]]
    assert ("1 empty record not proposed: a record without any XPath names nothing a label could hold"
            in proposed.warnings), proposed.warnings
    assert set(extraction.warnings) <= set(proposed.warnings)  # the answer's own warnings are said too


def test_an_answer_of_empty_records_alone_proposes_none() -> None:
    proposed = extract.proposal_of(answered([[], []]), keys())
    assert proposed.records == []
    assert "2 empty records not proposed: a record without any XPath names nothing a label could hold" \
        in proposed.warnings, proposed.warnings


def test_records_repeating_an_earlier_one_are_counted_as_left_out() -> None:
    records = [[LIST], [ITEM], [LENS], [LENS], [BAG]]
    extraction = answered(records)
    assert extraction.records == records  # as answered
    proposed = extract.proposal_of(extraction, keys())
    assert proposed.records == [[LIST], [LENS], [BAG]]  # the first of each text
    assert ("2 records not proposed: each repeats an earlier record, by its XPaths or by the text they cover (a "
            "wrapper and its only child, say), and the earlier one is proposed") in proposed.warnings, \
        proposed.warnings
    # what the page's weighing leaves out of an answer is what was said: the proposal holds no repeat left
    assert weigh_proposals(proposed.records, [], keys()).new == proposed.records


def test_one_record_left_out_is_said_in_the_singular() -> None:
    proposed = extract.proposal_of(answered([[LIST], [ITEM]]), keys())
    assert proposed.records == [[LIST]]
    assert any(w.startswith("1 record not proposed: it repeats an earlier record") for w in proposed.warnings), \
        proposed.warnings


def test_without_the_page_s_text_repeats_are_known_by_their_xpaths() -> None:
    proposed = extract.proposal_of(answered([[LIST], [ITEM], [ITEM]]), None)
    assert proposed.records == [[LIST], [ITEM]]
    assert any(w.startswith("1 record not proposed") for w in proposed.warnings), proposed.warnings


def test_an_answer_with_nothing_to_leave_out_is_proposed_whole() -> None:
    extraction = answered([[LENS], [BAG]])
    proposed = extract.proposal_of(extraction, keys())
    assert proposed.records == [[LENS], [BAG]]
    assert proposed.warnings == extraction.warnings


@pytest.fixture(autouse=True)
def _no_key_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
