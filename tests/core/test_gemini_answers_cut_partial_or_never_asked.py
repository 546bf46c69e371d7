"""What a Gemini run makes of answers it could not read whole or at their word, and of pages it need not ask about:
an HTTP 200 whose body the connection cuts part way was generated, so paid for (counted as an answer without token
counts, said "cut off mid-answer"); an answer whose usageMetadata counts only its prompt is said and kept uncounted,
as one without usage; a second candidate is said with the page, not by google-genai on stderr; a --max-tokens stop
caused by answers given up at --timeout-s advises a longer --timeout-s, not capping "such an endpoint"; a 429's
words are not followed by ".;"; a flat list of XPaths is read as one record per XPath, and said; and a page with no
text, or whose bytes are not text, is failed without a request, and scored as NEXT-EVAL scores an empty prediction.
Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import logging
import random
import shutil
import socket
import struct
from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.extract.base import ExtractionFailedError
from recordlens.core.extract.gemini import parse_answer, uncounted_answer
from recordlens.core.llm.gemini import (
    CUT_OFF,
    INCOMPLETE_USAGE,
    UNCOUNTED,
    Budget,
    CallSettings,
    GeminiCaller,
    GeminiError,
    QuotaWaitError,
    cut_off_said,
)
from recordlens.core.page.dataset import load_page
from recordlens.core.page.dom import parse_html
from recordlens.core.runs.evaluate import score_run
from recordlens.core.runs.run_files import META_DIR
from tests.core.cli_runs import DEMO, gemini_extract, run
from tests.fake_gemini import FakeGemini, Step, answer, raw_body, status

KEY = "test-key-not-real-cut-partial"
RECORDS = [["/body[1]/div[1]"], ["/body[1]/div[2]"]]


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


class _CutsMidBody(FakeGemini):
    """The fake, whose "trickle" steps instead send HTTP 200 with the whole body's length and half of it, then reset
    the connection (as a proxy that dies, or a link that drops, cuts an answer)."""

    def _handler_class(self):  # noqa: ANN202 - the fake's handler class
        base = super()._handler_class()

        class Handler(base):  # type: ignore[valid-type,misc]
            def _trickle(self, data: bytes, seconds: float) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data[:len(data) // 2])
                self.wfile.flush()
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()  # a reset: the rest of the body never comes
                self.close_connection = True

        return Handler


CUT = Step("trickle", text=json.dumps(RECORDS))


def caller(server: FakeGemini, **settings: object) -> GeminiCaller:
    options = {"max_attempts": 2, "backoff_s": 0.01, **settings}
    return GeminiCaller(CallSettings(base_url=server.url, **options), api_key=KEY,  # type: ignore[arg-type]
                        sleep=lambda seconds: None, notify=lambda message: None)


# 1. a connection cut mid-answer after its 200


def test_an_answer_cut_mid_body_is_counted_as_paid_without_its_tokens() -> None:
    with _CutsMidBody([CUT, answer(json.dumps(RECORDS), usage=(100, 20))]) as server:
        call = caller(server)
        answered = call.generate("page")
    assert answered.log.statuses == [200, 200], answered.log  # an answer came: not "no HTTP answer" (0)
    assert "cut off mid-answer" in answered.log.errors[0], answered.log.errors
    assert answered.log.as_dict()[CUT_OFF] == 1
    assert answered.usage == {"prompt": 100, "completion": 20, "total": 120, UNCOUNTED: 1}
    assert (call.budget.uncounted, call.budget.given_up, call.budget.tokens) == (1, 0, 120)


def test_a_page_whose_answers_were_all_cut_keeps_them_as_uncounted_and_says_why(tmp_path: Path) -> None:
    page = load_page(DEMO / "html" / "1.html").page
    with _CutsMidBody(default=CUT) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, max_attempts=2, backoff_s=0.01)
        with pytest.raises(ExtractionFailedError) as failed:
            extractor.extract(page)
    details = failed.value.details
    assert details["tokens"] == {UNCOUNTED: 2}, details
    assert cut_off_said(2) in details["warnings"], details["warnings"]  # type: ignore[operator]


def test_an_answered_page_says_the_answer_cut_before_it(tmp_path: Path) -> None:
    page = load_page(DEMO / "html" / "1.html").page
    with _CutsMidBody([CUT, answer(json.dumps(RECORDS))]) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, max_attempts=2, backoff_s=0.01)
        result = extractor.extract(page)
    assert result.tokens[UNCOUNTED] == 1 and cut_off_said(1) in result.warnings, result.warnings


# 2. a usageMetadata with the prompt's count alone, on an answer with text


def test_an_answer_counted_for_its_prompt_alone_is_said_and_kept_uncounted() -> None:
    page = load_page(DEMO / "html" / "1.html").page
    with FakeGemini([answer(json.dumps(RECORDS), usage=(100, 0))]) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, max_attempts=1)
        result = extractor.extract(page)
        budget = extractor.caller.budget  # type: ignore[attr-defined]
    assert result.tokens == {"prompt": 100, "total": 100, UNCOUNTED: 1}, result.tokens  # no completion of 0
    assert uncounted_answer(INCOMPLETE_USAGE) in result.warnings, result.warnings
    assert (budget.tokens, budget.uncounted) == (100, 1)  # a token cap is no longer held by counting


def test_an_answer_with_its_own_counts_is_not_said() -> None:
    page = load_page(DEMO / "html" / "1.html").page
    with FakeGemini([answer(json.dumps(RECORDS), usage=(100, 20))]) as server:
        result = create("gemini", input_format="flat", base_url=server.url, max_attempts=1).extract(page)
    assert result.tokens == {"prompt": 100, "completion": 20, "total": 120} and not result.warnings


# 5. words: two candidates, a stop of answers given up, a 429's full stop, a flat list of XPaths


def two_candidates(first: str, second: str) -> bytes:
    usage = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}
    return json.dumps({"candidates": [
        {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": index}
        for index, text in enumerate((first, second))], "usageMetadata": usage}).encode()


def test_a_second_candidate_is_said_with_the_page_not_by_the_library_on_stderr(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from google.genai import types

    monkeypatch.setattr(types, "_response_text_warning_logged", False, raising=False)  # said once a process
    page = load_page(DEMO / "html" / "1.html").page
    body = two_candidates(json.dumps(RECORDS), json.dumps([["/body[1]"]]))
    with caplog.at_level(logging.WARNING), FakeGemini([raw_body(body, "application/json")]) as server:
        result = create("gemini", input_format="flat", base_url=server.url, max_attempts=1).extract(page)
    assert result.records == RECORDS  # the first candidate's
    assert not [r for r in caplog.records if "candidates" in r.getMessage()], caplog.text
    assert any("the answer holds 2 candidates: the first one's text is read" in w for w in result.warnings), \
        result.warnings


def test_a_token_cap_stopped_by_answers_given_up_advises_a_longer_timeout() -> None:
    budget = Budget(max_tokens=1_000)
    budget.add_tokens(10)
    budget.add_uncounted(given_up=True)
    said = budget.used_up() or ""
    assert "1 answer given up at --timeout-s" in said and "a longer --timeout-s" in said, said
    assert "cap such an endpoint" not in said, said  # the endpoint counts tokens: the timeout is why
    budget.add_uncounted()  # an answer without usage too: that endpoint is capped by requests
    assert "cap such an endpoint with --max-requests instead" in (budget.used_up() or "")


def test_a_quota_stop_reads_without_a_doubled_stop() -> None:
    quota = status(429, "Resource has been exhausted (e.g. check quota).", headers={"Retry-After": "3600"})
    with FakeGemini([quota]) as server, pytest.raises(QuotaWaitError) as stopped:
        caller(server).generate("page")
    said = str(stopped.value)
    assert "(e.g. check quota); the server asks to wait 3,600 s" in said, said
    assert ".;" not in said


def test_a_flat_list_of_xpaths_is_read_one_record_each_and_said() -> None:
    parsed = parse_answer('["/body[1]/div[1]", "/body[1]/div[2]"]')
    assert parsed.records == RECORDS and not parsed.malformed
    assert parsed.problems == ["the answer is a flat list of 2 XPaths, not the list of records (string[][]) asked "
                               "for: read as 2 records of one XPath each"], parsed.problems
    assert parse_answer(json.dumps(RECORDS)).problems == []  # records as asked: nothing said
    assert parse_answer("[]").problems == []


def test_a_flat_list_is_said_as_the_page_s_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    flat = answer('["/body[1]/div[1]", "/body[1]/div[2]"]')
    with FakeGemini(default=flat) as server:
        code, _, err = run(capsys, *gemini_extract(run_dir, server))
    assert code == 0, err
    assert "page 1: the answer is a flat list of 2 XPaths" in err, err


# 6. a page with nothing to read is not sent


def _pages_with_nothing_to_read(folder: Path) -> Path:
    """A dataset: page 1 the demo's, page 2 a page without text, page 3 random bytes (read as mojibake); the demo's
    labels for page 1, none ([]) for the others."""
    for kind in ("html", "gt"):
        (folder / kind).mkdir(parents=True)
    shutil.copy(DEMO / "html" / "1.html", folder / "html" / "1.html")
    shutil.copy(DEMO / "gt" / "1.json", folder / "gt" / "1.json")
    (folder / "html" / "2.html").write_text("<html><body><div> </div><img src='a.png'></body></html>")
    (folder / "html" / "3.html").write_bytes(random.Random(7).randbytes(4000))
    for name in ("2", "3"):
        (folder / "gt" / f"{name}.json").write_text("[]")
    return folder


def test_a_page_with_nothing_to_read_is_failed_without_a_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _pages_with_nothing_to_read(tmp_path / "data")
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer(json.dumps(RECORDS))) as server:
        code, out, err = run(capsys, *gemini_extract(run_dir, server, pages=data / "html"))
        asked = len(server.requests)
    assert asked == 1, err  # page 1 only
    assert code == 1, err
    empty = json.loads((run_dir / META_DIR / "2.json").read_text(encoding="utf-8"))
    assert empty["status"] == "failed" and "the page holds no text" in empty["reason"], empty
    assert empty["raw"]["calls"] == [] and not empty.get("tokens"), empty
    mojibake = json.loads((run_dir / META_DIR / "3.json").read_text(encoding="utf-8"))
    assert "the page's text is not text" in mojibake["reason"], mojibake
    assert "1 request" in out + err, out + err
    # scored as NEXT-EVAL scores a page predicted empty: with no true records either, P = R = F1 = 1
    scores, _ = score_run(run_dir, data / "gt", data / "html")
    by_page = {page.page: page for page in scores.pages}
    assert (by_page["2"].f1, by_page["2"].predicted_records, by_page["2"].true_records) == (1.0, 0, 0)


def test_a_page_of_text_is_sent_whatever_its_script() -> None:
    text = "Tiếng Việt có dấu, 日本語のテキスト, ελληνικά\ttab"  # text in any script is text
    page = parse_html(f"<html><body><p>{text}</p></body></html>")
    with FakeGemini([answer(json.dumps(RECORDS))]) as server:
        create("gemini", input_format="flat", base_url=server.url, max_attempts=1).extract(page)
        assert len(server.requests) == 1


def test_a_cut_answer_is_no_request_without_an_answer() -> None:
    with _CutsMidBody(default=CUT) as server, pytest.raises(GeminiError) as failed:
        caller(server, max_attempts=1).generate("page")
    assert failed.value.log is not None and failed.value.log.statuses == [200]
    assert failed.value.log.as_dict()[CUT_OFF] == 1
