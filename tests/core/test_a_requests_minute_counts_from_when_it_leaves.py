"""`--requests-per-minute` held as the server counts: a request's minute begins when it leaves for the server, not
when it was reserved. A fresh Ray worker's first request left a second or more after its reservation, and the
limiter, counting from the reservation, let the server see 11 requests within 60 s under --requests-per-minute 10.
The limiter as plain state, and the caller telling its budget as each model request leaves; across real workers
in test_ray_stops_rate_and_settings.py."""

from __future__ import annotations

import time

from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.llm.shared_budget import Limiter
from tests.fake_gemini import FakeGemini, answer, status


def test_a_request_that_leaves_late_holds_its_place_in_the_window_from_when_it_left() -> None:
    limiter = Limiter(requests_per_minute=2)
    assert limiter.reserve(0.0) == ("ok", 0.0)
    limiter.sent(1.5)  # a fresh worker: the request left 1.5 s after its reservation
    assert limiter.reserve(10.0) == ("ok", 0.0)
    limiter.sent(10.0)
    # a minute after the first reservation, but not after the first request reached the server
    assert limiter.reserve(60.0) == ("wait", 1.5)
    assert limiter.reserve(61.5) == ("ok", 0.0)
    assert limiter.requests == 3


def test_a_reservation_not_yet_sent_holds_its_place_until_it_is() -> None:
    limiter = Limiter(requests_per_minute=1, window_s=4.0)
    assert limiter.reserve(0.0) == ("ok", 0.0)
    assert limiter.reserve(3.0) == ("wait", 1.0)
    limiter.sent(3.5)
    assert limiter.reserve(4.0) == ("wait", 3.5)  # its window counts from 3.5 now
    assert limiter.reserve(7.5) == ("ok", 0.0)


def test_a_reservation_never_sent_leaves_the_window_a_window_after_it_was_made() -> None:
    limiter = Limiter(requests_per_minute=1, window_s=4.0)
    assert limiter.reserve(0.0) == ("ok", 0.0)  # its worker died before the request left: never told sent
    assert limiter.reserve(4.0) == ("ok", 0.0)


class _TimedBudget(Budget):
    """A run's budget that notes what it is told, and when."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, float]] = []

    def reserve_request(self) -> None:
        super().reserve_request()
        self.told.append(("reserved", time.monotonic()))

    def request_sent(self) -> None:
        self.told.append(("sent", time.monotonic()))


def test_each_model_request_is_told_to_its_budget_as_it_leaves_and_a_token_count_is_not() -> None:
    budget = _TimedBudget()
    arrived: list[float] = []

    def noted(body: dict[str, object]) -> str:
        arrived.append(time.monotonic())
        return '[["/body[1]"]]'

    with FakeGemini([status(503, "busy"), answer('[["/body[1]"]]')], default=answer("[]")) as server:
        server.steps[1].respond = noted
        caller = GeminiCaller(CallSettings(base_url=server.url, backoff_s=0.01, max_attempts=3), api_key="test-key",
                              budget=budget, sleep=lambda seconds: None)
        caller.generate("a prompt")
        told_before_counting = list(budget.told)
        caller.count_tokens("some words to count")
    assert [kind for kind, _ in told_before_counting] == ["reserved", "sent", "reserved", "sent"]
    assert budget.told == told_before_counting  # a countTokens request reserves nothing, and is not told sent
    last_sent = told_before_counting[-1][1]
    assert told_before_counting[-2][1] <= last_sent <= arrived[0]  # told after its reservation, before it arrived
