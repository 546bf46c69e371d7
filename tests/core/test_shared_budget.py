"""The limiter every Ray worker shares (core/llm/shared_budget.py), as plain state: caps and requests per
minute. Across real workers it is tested in test_ray_engine.py."""

from __future__ import annotations

from recordlens.core.llm.gemini import Budget
from recordlens.core.llm.shared_budget import Limiter


def test_the_request_cap_gives_the_local_budgets_message() -> None:
    limiter = Limiter(max_requests=2)
    assert [limiter.reserve(0.0)[0] for _ in range(3)] == ["ok", "ok", "exceeded"]
    local = Budget(max_requests=2)
    local.reserve_request()
    local.reserve_request()
    try:
        local.reserve_request()
    except Exception as error:  # noqa: BLE001 - compared, not handled
        assert limiter.reserve(0.0) == ("exceeded", str(error))


def test_the_token_cap_counts_what_was_added() -> None:
    limiter = Limiter(max_tokens=100, tokens=40)
    assert limiter.reserve(0.0)[0] == "ok"
    limiter.add_tokens(60)
    assert limiter.reserve(0.0) == ("exceeded", "token budget used up (100 of 100)")
    assert limiter.counts() == (1, 100)


def test_requests_per_minute_wait_for_the_oldest_to_leave_the_window_and_count_nothing_meanwhile() -> None:
    limiter = Limiter(requests_per_minute=2)
    assert limiter.reserve(0.0) == ("ok", 0.0)
    assert limiter.reserve(10.0) == ("ok", 0.0)
    verdict, wait = limiter.reserve(15.0)
    assert verdict == "wait" and wait == 45.0
    assert limiter.requests == 2  # a wait is not a request
    assert limiter.reserve(60.0) == ("ok", 0.0)  # the first left the window
    assert limiter.reserve(65.0)[0] == "wait"
