"""The limiter every Ray worker shares (core/llm/shared_budget.py), as plain state: caps and requests per
minute, and what comes back to the driver's budget when a run ends (`copy_counts`). Across real workers it is
tested in test_ray_engine.py; the one test here that needs Ray skips where it is not installed."""

from __future__ import annotations

import pytest

from recordlens.core.llm.gemini import Budget, given_up_said
from recordlens.core.llm.shared_budget import CountsAsked, Limiter, copy_counts
from recordlens.core.runs import ray_engine
from tests.core.ray_helpers import require_ray


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
    assert limiter.counts() == (1, 100, 0, 0)


def test_requests_per_minute_wait_for_the_oldest_to_leave_the_window_and_count_nothing_meanwhile() -> None:
    limiter = Limiter(requests_per_minute=2)
    assert limiter.reserve(0.0) == ("ok", 0.0)
    assert limiter.reserve(10.0) == ("ok", 0.0)
    verdict, wait = limiter.reserve(15.0)
    assert verdict == "wait" and wait == 45.0
    assert limiter.requests == 2  # a wait is not a request
    assert limiter.reserve(60.0) == ("ok", 0.0)  # the first left the window
    assert limiter.reserve(65.0)[0] == "wait"


class LimiterAsked(CountsAsked):
    """The shared budget as `copy_counts` meets it, with the actor's `Limiter` asked in place of the actor."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def counts(self) -> tuple[int, int, int, int]:
        return self.limiter.counts()


def test_an_answer_without_token_counts_comes_back_to_the_drivers_budget() -> None:
    budget = Budget(max_tokens=1000)
    limiter = Limiter(budget.max_requests, budget.max_tokens)  # as start_shared_budget seeds the actor
    assert limiter.reserve(0.0)[0] == "ok"
    limiter.add_uncounted()  # a worker's answer came without usageMetadata
    copy_counts(LimiterAsked(limiter), budget)  # type: ignore[arg-type] - the actor's answer, without the actor
    assert (budget.requests, budget.tokens, budget.uncounted) == (1, 0, 1)
    assert (budget.used_up() or "").startswith("token budget cannot be held")  # as the workers' limiter says


def test_a_later_shipping_of_the_same_budget_still_allows_no_request_under_max_tokens() -> None:
    ray = require_ray()
    from recordlens.core.runs.ray_engine import RayEngine

    if ray.is_initialized():
        pytest.skip("needs a Ray instance of its own")
    engine = RayEngine.connect(workers=1)
    try:
        class Unit:
            caller = type("Caller", (), {})()

        unit = Unit()
        local = Budget(max_tokens=1000)
        unit.caller.budget = local
        with engine.shipping(unit):
            unit.caller.budget.reserve_request()
            unit.caller.budget.add_uncounted(given_up=True)  # ordered before the counts asked as the shipping ends
        # the answer given up at --timeout-s comes back to the driver with the rest of the counts
        assert (local.requests, local.uncounted, local.given_up) == (1, 1, 1)
        with engine.shipping(unit):  # a later seed or bench method: a new actor, seeded from `local`, given-up too
            assert (unit.caller.budget.used_up() or "").startswith("token budget cannot be held")
            assert unit.caller.budget.used_up() == local.used_up()
    finally:
        engine.close()
        ray.shutdown()


# The answers given up at --timeout-s (generated, so paid for, their tokens unknown) come back from a Ray run's
# workers as a local run counts them: the stop line under --max-tokens says them as given up, whether the counts come
# from the shared budget's actor or, that actor lost, from the pages' records.


def local_budget_after_one_given_up_answer() -> Budget:
    """A local run's budget after the one answer it asked for was given up at --timeout-s."""
    local = Budget(max_tokens=1000)
    local.reserve_request()
    local.add_uncounted(given_up=True)
    return local


def test_the_actor_s_given_up_answers_come_back_and_the_stop_line_says_them_as_locally() -> None:
    budget = Budget(max_tokens=1000)
    limiter = Limiter(budget.max_requests, budget.max_tokens)  # as start_shared_budget seeds the actor
    assert limiter.reserve(0.0)[0] == "ok"
    limiter.add_uncounted(given_up=True)  # a worker's answer given up at --timeout-s
    copy_counts(LimiterAsked(limiter), budget)  # type: ignore[arg-type] - the actor's answer, without the actor
    assert (budget.requests, budget.tokens, budget.uncounted, budget.given_up) == (1, 0, 1, 1)
    said = budget.used_up() or ""
    assert said == local_budget_after_one_given_up_answer().used_up()
    assert given_up_said(1) in said and "without token counts (no usageMetadata)" not in said


def test_counted_from_the_pages_records_when_the_actor_is_lost_the_given_up_answers_are_kept() -> None:
    budget = Budget(max_tokens=1000)
    # the records of the run's pages: 1 request, its answer given up (asked=False: the actor is not asked)
    ray_engine._count_back(None, budget, lambda: (1, 0, 1, 1), asked=False)  # type: ignore[arg-type]
    assert (budget.requests, budget.uncounted, budget.given_up) == (1, 1, 1)
    assert budget.used_up() == local_budget_after_one_given_up_answer().used_up()
