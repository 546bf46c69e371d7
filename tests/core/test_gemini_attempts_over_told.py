"""A Gemini caller tells whoever keeps the requests awaited when each attempt ends (`GeminiCaller.on_attempt_over`):
answered, answered with an error status, or given up at the time limit, once what it cost is counted. What a page
spent is told with it (`spending_told(..., attempts=caller)`): a request is awaited from its reservation until its
attempt ends, an error status (which counts nothing) included, as both `extract` and the app's Propose keep it.
Before, `spending_told` wrapped a private method of the caller on the instance. Against the loopback fake of Gemini."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller, GeminiError
from recordlens.core.runs.page_loop import Spent, spending_told
from tests.fake_gemini import FakeGemini, answer, status, trickle

KEY = "test-key-not-real-attempts"


def caller_of(server: FakeGemini, **settings: object) -> GeminiCaller:
    return GeminiCaller(CallSettings(base_url=server.url, backoff_s=0.01, **settings), api_key=KEY, budget=Budget(),
                        sleep=lambda seconds: None, notify=lambda message: None)


def test_each_attempt_s_end_is_told_once_what_it_cost_is_counted() -> None:
    counted: list[tuple[int, int]] = []
    with FakeGemini([status(503), answer("[]", usage=(100, 20))]) as server:
        caller = caller_of(server)
        caller.on_attempt_over = lambda: counted.append(caller.budget.counts())
        caller.generate("a page")
    assert counted == [(1, 0), (2, 120)]  # the 503's (nothing to count), then the answer's, its tokens counted


def test_a_page_s_request_is_awaited_until_its_attempt_ends_an_error_status_included(tmp_path: Path) -> None:
    told: list[Spent] = []
    had: list[str] = []
    with FakeGemini([status(503), status(429), answer("[]", usage=(100, 20))]) as server:
        caller = caller_of(server)
        own = caller.on_attempt_over = lambda: had.append("over")  # a hook the caller had: still told, put back
        with spending_told(caller.budget, told.append, attempts=caller):
            caller.generate("a page")
        assert caller.on_attempt_over is own
    assert told == [Spent(requests=1, awaited=1), Spent(requests=1),  # the 503
                    Spent(requests=2, awaited=1), Spent(requests=2),  # the 429
                    Spent(requests=3, awaited=1), Spent(requests=3, tokens=120)]  # the answer, read
    assert had == ["over"] * 3


def test_an_attempt_given_up_at_the_time_limit_is_awaited_no_more_its_tokens_unknown() -> None:
    told: list[Spent] = []
    with FakeGemini([trickle("[]", seconds=5)]) as server:  # each read quick, the whole answer not
        caller = caller_of(server, timeout_s=0.5, max_attempts=1)
        with spending_told(caller.budget, told.append, attempts=caller):
            try:
                caller.generate("a page")
            except GeminiError:
                pass
            else:
                raise AssertionError("a request given up at the time limit was answered")
    assert told == [Spent(requests=1, awaited=1), Spent(requests=1, uncounted=1, given_up=1)]


def test_a_caller_told_nothing_after_the_page() -> None:
    with FakeGemini([answer("[]")]) as server:
        caller = caller_of(server)
        with spending_told(caller.budget, lambda spent: None, attempts=caller):
            pass
        assert caller.on_attempt_over is None
        assert caller.budget.on_change is None
        caller.generate("a page")  # nothing left to tell
