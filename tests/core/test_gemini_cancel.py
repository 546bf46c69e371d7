"""Cancel stops Gemini calls: no attempt after it, a wait between attempts ends at once, and what was paid for
before it stays with the page (the app's Cancel sets the caller's `cancel`); an attempt in flight still brings its paid
answer."""

from __future__ import annotations

import threading
import time

import pytest

from recordlens.core.extract.base import StoppedOnPageError
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.llm.gemini import CallSettings, GeminiCaller
from recordlens.core.page.dom import parse_html
from tests.fake_gemini import FakeGemini, answer, answer_with, status

PAGE = "<html><body><ul><li>a</li><li>b</li></ul></body></html>"


def test_a_cancel_during_the_backoff_ends_the_wait_and_sends_no_further_request() -> None:
    cancel = threading.Event()
    outcome: dict[str, BaseException] = {}
    # Retry-After 600 s: without the cancel, the call would wait that long (max_retry_after_s lets it).
    with FakeGemini([status(500, headers={"Retry-After": "600"}), status(500), answer("[]")]) as server:
        settings = CallSettings(base_url=server.url, max_attempts=5, max_retry_after_s=900)
        extractor = GeminiExtractor(caller=GeminiCaller(settings, api_key="test", cancel=cancel, notify=lambda _: None))

        def extract() -> None:
            try:
                extractor.extract(parse_html(PAGE))
            except BaseException as error:  # noqa: BLE001 - handed to the test
                outcome["error"] = error

        thread = threading.Thread(target=extract, daemon=True)
        thread.start()
        while not server.requests:
            thread.join(0.01)
        cancel.set()
        thread.join(10)
        assert not thread.is_alive()
        requests = len(server.requests)
    assert requests == 1
    error = outcome["error"]
    # The page's paid attempt is kept with the stop, as a spent budget keeps it.
    assert isinstance(error, StoppedOnPageError)
    assert error.details["raw"]["calls"][0]["statuses"] == [500]  # type: ignore[index]


def test_a_caller_cancelled_before_its_call_makes_none() -> None:
    cancel = threading.Event()
    cancel.set()
    with FakeGemini([answer("[]")]) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url), api_key="test", cancel=cancel)
        with pytest.raises(Exception, match="cancelled"):
            caller.generate("hello")
        assert server.requests == []


def generate_in_a_thread(caller: GeminiCaller) -> tuple[threading.Thread, dict[str, object]]:
    """`caller.generate` running in a thread of its own; what it returns or raises lands in the dict."""
    outcome: dict[str, object] = {}

    def generate() -> None:
        try:
            outcome["answer"] = caller.generate("hello")
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome["error"] = error

    thread = threading.Thread(target=generate, daemon=True)
    thread.start()
    return thread, outcome




def test_a_cancel_lets_the_attempt_in_flight_bring_its_paid_answer() -> None:
    cancel, asked = threading.Event(), threading.Event()

    def slow(_body: dict) -> str:
        asked.set()
        time.sleep(0.5)
        return "[]"

    with FakeGemini([answer_with(slow)]) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url), api_key="test", cancel=cancel, notify=lambda _: None)
        thread, outcome = generate_in_a_thread(caller)
        assert asked.wait(10)
        cancel.set()  # the app's Cancel: its job keeps the answer that comes after it (`run_until_cancelled`)
        thread.join(20)
    assert outcome["answer"].text == "[]"  # type: ignore[attr-defined]
