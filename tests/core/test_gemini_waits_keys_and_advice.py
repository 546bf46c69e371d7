"""What a Gemini call waits for and says: the wait Gemini's own 429 asks for in its body (RetryInfo), honoured as
Retry-After is; which of two key variables is sent, said truthfully (and the SDK's contrary line silenced);
`timeout_s` as a limit on the whole request (a trickled answer is cut); zero token counts told from none; what to
check first on a 404 and a 403; a refused connection named with its address and given up after a couple of tries;
and the next step after a cut-off or unreadable answer. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

import pytest

from recordlens.core.extract.base import ExtractionFailedError
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.llm import gemini
from recordlens.core.llm.gemini import CallSettings, GeminiCaller, GeminiError, QuotaWaitError, required_api_key
from recordlens.core.page.dom import parse_html
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer, quota_spent, refused, status, trickle
from tests.loopback import refusing_port

PAGE = parse_html("<main><ul><li><b>Camera</b> $399</li><li><b>Lens</b> $129</li></ul></main>")
RECORDS = [["/body[1]/main[1]/ul[1]/li[1]"], ["/body[1]/main[1]/ul[1]/li[2]"]]
DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-waits"


def caller(server: FakeGemini | None, slept: list[float] | None = None, **settings: object) -> GeminiCaller:
    chosen = {"base_url": server.url if server else None, "max_attempts": 3, "backoff_s": 0.01, "timeout_s": 10.0,
              "json_output": False, **settings}
    return GeminiCaller(CallSettings(**chosen), api_key=KEY,  # type: ignore[arg-type]
                        sleep=slept.append if slept is not None else None, notify=lambda message: None)


def extractor(server: FakeGemini, **options: object) -> GeminiExtractor:
    settings = {"api_key": KEY, "base_url": server.url, "timeout_s": 10.0, "max_attempts": 3, "backoff_s": 0.01,
                **options}
    return GeminiExtractor(**settings)  # type: ignore[arg-type]


# finding 3: Gemini's 429 states its wait in the body (google.rpc.RetryInfo), not in a Retry-After header


def test_the_wait_a_429_asks_for_in_its_body_is_waited_as_retry_after_is() -> None:
    slept: list[float] = []
    said: list[str] = []
    with FakeGemini([quota_spent("50s"), answer(json.dumps(RECORDS))]) as server:
        call = caller(server, slept)
        call._notify = said.append  # noqa: SLF001 - what is said of the wait
        assert call.generate("page").text == json.dumps(RECORDS)
    assert len(slept) == 1 and slept[0] >= 50.0  # not the 0.01 s backoff
    assert said == [f"HTTP 429: waiting {slept[0]:.0f} s as the server asks (RetryInfo retryDelay)"]


def test_a_body_asking_for_longer_than_a_call_waits_stops_as_a_long_retry_after_does() -> None:
    with FakeGemini(default=quota_spent("3600s")) as server, \
            pytest.raises(QuotaWaitError, match=r"asks to wait 3,600 s \(RetryInfo retryDelay: a quota\)"):
        caller(server, []).generate("page")
    assert len(server.requests) == 1


# finding 4: with both key variables set, which one is sent is said truthfully


@pytest.fixture
def both_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "gemini-variable-key")
    monkeypatch.setenv("GOOGLE_API_KEY", "google-variable-key")
    monkeypatch.setattr(gemini, "_said_key_choice", [])


def test_with_both_key_variables_the_one_sent_is_said_and_the_sdk_line_is_not(
        both_keys: None, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with FakeGemini([answer("[]"), status(400, "API key not valid. Please pass a valid API key.")]) as server:
        call = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1))
        call.generate("page")
        with pytest.raises(GeminiError) as caught:
            call.generate("page")
        sent = {request.api_key for request in server.requests}
    err = capsys.readouterr().err
    assert sent == {"gemini-variable-key"}
    assert err.count("both GEMINI_API_KEY and GOOGLE_API_KEY are set: the key of GEMINI_API_KEY is used, "
                     "GOOGLE_API_KEY is ignored") == 1, err
    assert not any("Using GOOGLE_API_KEY" in record.getMessage() for record in caplog.records)
    assert "check it first (the key sent is GEMINI_API_KEY's; GOOGLE_API_KEY is set too, and ignored)" \
        in str(caught.value)


def test_a_blank_first_variable_is_said_with_the_one_used(both_keys: None, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "  ")
    assert required_api_key() == "google-variable-key"
    assert "GEMINI_API_KEY is set but blank: the key of GOOGLE_API_KEY is used" in capsys.readouterr().err


# finding 5: --timeout-s limits the whole request


def test_an_answer_trickled_past_the_timeout_is_cut_at_it() -> None:
    # Trickled over a minute (its thread ends with the server): the call's 1 s, some 1.5 s with the client made,
    # is told apart from it with room for a busy machine
    with FakeGemini([trickle(json.dumps(RECORDS), 60.0)]) as server:
        started = time.monotonic()
        with pytest.raises(GeminiError, match="no whole answer within 1 s"):
            caller(server, [], timeout_s=1.0, max_attempts=1).generate("page")
        seconds = time.monotonic() - started
    assert seconds < 20.0  # not the minute the server trickles for


def test_a_request_given_up_is_closed_and_counted_as_paid_without_its_tokens() -> None:
    with FakeGemini([trickle(json.dumps(RECORDS), 6.0), answer(json.dumps(RECORDS))]) as server:
        call = caller(server, [], timeout_s=1.0, max_attempts=2)
        answered = call.generate("page")
        assert answered.attempts == 2 and len(server.requests) == 2
        # The answer given up was generated, so paid for: its tokens are unknown, not 0.
        assert call.budget.uncounted == 1
        # Its connection was closed: its thread ends now, not when the server is done trickling.
        deadline = time.monotonic() + 4.0
        while any(t.name == "gemini-request" for t in threading.enumerate()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(t.name == "gemini-request" for t in threading.enumerate())


# finding 7: zero token counts are told from no usageMetadata


def test_an_answer_whose_counts_are_zeros_is_said_as_such() -> None:
    with FakeGemini([answer(json.dumps(RECORDS), usage=(0, 0))]) as server:
        result = extractor(server).extract(PAGE)
    assert result.tokens == {"uncounted": 1}
    assert any("(a usageMetadata whose token counts are all 0)" in w for w in result.warnings), result.warnings
    assert not any("no usageMetadata" in w for w in result.warnings)


# finding 8: a 404 points at the model name, a 403 at the key's permissions


def test_an_unknown_model_points_at_the_model_name() -> None:
    with FakeGemini(default=status(404, "models/gemini-9-nope is not found")) as server, \
            pytest.raises(GeminiError) as caught:
        caller(server, [], model="gemini-9-nope").generate("page")
    assert "the endpoint knows no model 'gemini-9-nope': check the model name first (--model" in str(caught.value)
    assert caught.value.endpoint_failed  # every page would fail the same: the run stops after a few


def test_a_permission_denied_points_at_the_key_s_permissions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    with FakeGemini(default=status(403, "Generative Language API has not been used in project 1")) as server, \
            pytest.raises(GeminiError) as caught:
        caller(server, []).generate("page")
    assert "check the key's permissions first (the Generative Language API enabled for its project" \
        in str(caught.value) and "the key sent is GEMINI_API_KEY's" in str(caught.value)


# finding 9: a refused connection is named with its address, and tried twice, not five times


def test_a_refused_connection_is_said_with_its_address_and_tried_twice() -> None:
    slept: list[float] = []
    with refusing_port() as port, pytest.raises(GeminiError) as caught:
        caller(None, slept, base_url=f"http://127.0.0.1:{port}", max_attempts=5).generate("page")
    assert f"connection refused by 127.0.0.1:{port}" in str(caught.value)
    assert "a refused connection is tried 2 times, not 5" in str(caught.value)
    assert caught.value.log is not None and caught.value.log.attempts == 2 and len(slept) == 1


def test_a_run_at_a_refusing_address_stops_in_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, wait: 0.01)
    with refusing_port() as port:
        code, printed, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                                 str(tmp_path / "run"), "--base-url", f"http://127.0.0.1:{port}", "-q")
    assert code == 4 and f"connection refused by 127.0.0.1:{port}" in err, err
    # three pages, two tries each (not 15), none of which reached a server: no request
    assert err.count("failed after 2 attempt(s)") >= 3 and "0 requests" in printed, err


# finding 10: a failed page's reason gives the next step


def test_an_answer_cut_at_the_output_limit_says_what_to_do() -> None:
    with FakeGemini([refused("MAX_TOKENS", '[["/body[1]')]) as server, \
            pytest.raises(ExtractionFailedError) as caught:
        extractor(server).extract(PAGE)
    assert caught.value.reason.startswith("the model did not finish (finishReason MAX_TOKENS); its answer reached "
                                          "the model's output limit")
    assert "running again asks again" in caught.value.reason and "(--model)" in caught.value.reason


def test_an_unreadable_answer_s_failure_says_its_fault() -> None:
    with FakeGemini(default=answer('{"records": [["/body[1]"]]}')) as server, \
            pytest.raises(ExtractionFailedError) as caught:
        extractor(server).extract(PAGE)
    assert caught.value.reason.startswith('no readable answer after 3 call(s) (the last: the answer is a JSON object '
                                          '(with key "records")')
    assert caught.value.reason.endswith("; running again asks again")
