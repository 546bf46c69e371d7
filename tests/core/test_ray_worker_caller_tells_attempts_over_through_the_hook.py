"""A Ray worker's Gemini caller tells each attempt's end to the driver's notices (its request no longer open, so not
counted as lost with a worker that dies later) through the one hook every caller has, `on_attempt_over`, before
what keeps the page's spending (`spending_told(..., attempts=caller)`) hears it; that keeper puts the worker's hook
back after the page. Before, the worker's caller overrode a private method of `GeminiCaller` for it: two ways for
one thing. No Ray instance: the tell to the notices' actor is recorded here instead. Against the loopback fake of
Gemini."""

from __future__ import annotations

import pytest

from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.runs import ray_engine
from recordlens.core.runs.page_loop import Spent, spending_told
from tests.fake_gemini import FakeGemini, answer, status

KEY = "test-key-not-real-worker-hook"


def test_a_worker_s_caller_tells_each_attempt_over_through_on_attempt_over_first(
        monkeypatch: pytest.MonkeyPatch) -> None:
    heard: list[object] = []
    monkeypatch.setattr(ray_engine, "_tell_the_request", lambda **told: heard.append(("notices", told)))
    with FakeGemini([status(429), answer("[]", usage=(100, 20)), answer("[]")]) as server:
        caller = ray_engine._CallerOnAWorker(  # noqa: SLF001 - the worker's caller, as `_caller_from_parts` makes it
            CallSettings(base_url=server.url, backoff_s=0.01, max_attempts=2), api_key=KEY, budget=Budget(),
            sleep=lambda seconds: None, notify=lambda message: None)
        own = caller.on_attempt_over
        assert own is not None  # the worker's tell is the public hook, not a private override
        with spending_told(caller.budget, heard.append, attempts=caller):
            caller.generate("a page")
        assert caller.on_attempt_over is own  # put back after the page
        caller.generate("another page")  # outside a page: the notices still hear it
    over = ("notices", {"over": True})
    assert heard == [Spent(requests=1, awaited=1), over, Spent(requests=1),  # the 429: notices first
                     Spent(requests=2, awaited=1), Spent(requests=2, tokens=120), over,  # the answer, read
                     over]


def test_a_caller_has_one_way_to_tell_an_attempt_over() -> None:
    assert not hasattr(GeminiCaller, "_attempt_over")
    assert not hasattr(ray_engine._CallerOnAWorker, "_attempt_over")  # noqa: SLF001
