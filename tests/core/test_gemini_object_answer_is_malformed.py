"""An answer that is a JSON object is not `string[][]` (the reference's zod check refuses it), even when it holds a
list of records (`{"records": [[…]]}`) or bracketed prose (`{"error": "… [policy 3]"}`): it is malformed, kept,
counted and asked again twice, for the reason that it is an object. A list of records beside prose braces or an
example object is still read. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json

import pytest

from recordlens.core.extract.base import ExtractionFailedError
from recordlens.core.extract.gemini import GeminiExtractor, parse_answer
from recordlens.core.page.dom import parse_html
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-object"
PAGE = parse_html("<main><div>Camera $399</div><div>Lens $129</div></main>")
RECORDS = [["/body[1]/main[1]/div[1]"], ["/body[1]/main[1]/div[2]"]]
IN_AN_OBJECT = json.dumps({"records": RECORDS})
REFUSAL = '{"error": "I cannot do this [policy 3]"}'


def extractor(server: FakeGemini) -> GeminiExtractor:
    return GeminiExtractor(api_key=KEY, base_url=server.url, timeout_s=30.0, max_attempts=1, backoff_s=0.01)


def test_records_inside_an_object_are_asked_again_then_fail_the_page() -> None:
    with FakeGemini(default=answer(IN_AN_OBJECT)) as server, pytest.raises(ExtractionFailedError) as caught:
        extractor(server).extract(PAGE)
    raw = caught.value.details["raw"]
    assert (raw["malformed"], len(raw["answers"]), len(server.requests)) == (3, 3, 3)  # type: ignore[index]
    warnings = caught.value.details["warnings"]
    assert warnings and all("the answer is a JSON object" in w and '"records"' in w for w in warnings)  # type: ignore[union-attr]
    assert "no readable answer after 3 call(s)" in caught.value.reason


def test_an_object_answer_then_an_array_reads_the_array_as_a_retry() -> None:
    with FakeGemini([answer("Here: " + IN_AN_OBJECT), answer(json.dumps(RECORDS))]) as server:
        result = extractor(server).extract(PAGE)
    assert result.records == RECORDS and result.raw["malformed"] == 1 and len(server.requests) == 2


@pytest.mark.parametrize("text", [IN_AN_OBJECT, REFUSAL, "```json\n" + IN_AN_OBJECT + "\n```",
                                  "Sure! " + IN_AN_OBJECT + " Hope this helps [1]."])
def test_an_object_is_said_as_an_object(text: str) -> None:
    parsed = parse_answer(text)
    assert parsed.malformed and parsed.records == []
    assert len(parsed.problems) == 1 and parsed.problems[0].startswith("the answer is a JSON object")
    assert "does not parse" not in parsed.problems[0]  # never the bracketed "[policy 3]" inside its string


@pytest.mark.parametrize("text", ['Records {as asked}: [["/a"], ["/b"]]',
                                  'Each record is like {"xpath": "/x"}; here they are: [["/a"], ["/b"]]',
                                  '[["/a"], ["/b"]]\n{"note": "two records"}',
                                  'A brace never closed { then [["/a"], ["/b"]]'])
def test_a_list_of_records_beside_braces_is_still_read(text: str) -> None:
    parsed = parse_answer(text)
    assert (parsed.records, parsed.malformed, parsed.problems) == ([["/a"], ["/b"]], False, [])
