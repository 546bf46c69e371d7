"""The answers given up at --timeout-s (generated, so paid for, their tokens unknown) come back from the workers of a
Ray run to the driver's budget as a local run counts them: its stop line under --max-tokens then says them as given
up, not as answers the endpoint sent without token counts, whether the counts come from the shared budget's actor
(`copy_counts`) or, that actor lost, from the pages' records. The first two tests need no Ray; the last skips where
the optional extra is not installed."""

from __future__ import annotations

import pytest

from recordlens.core.llm.gemini import Budget, given_up_said
from recordlens.core.llm.shared_budget import CountsAsked, Limiter, copy_counts
from recordlens.core.runs import ray_engine
from tests.core.ray_helpers import require_ray


class LimiterAsked(CountsAsked):
    """The shared budget as `copy_counts` meets it, with the actor's `Limiter` asked in place of the actor."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def counts(self) -> tuple[int, ...]:
        return self.limiter.counts()


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


def test_a_shipping_on_ray_brings_the_given_up_answers_back_to_the_driver() -> None:
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
        assert (local.requests, local.uncounted, local.given_up) == (1, 1, 1)
        assert local.used_up() == local_budget_after_one_given_up_answer().used_up()
        with engine.shipping(unit):  # a later seed: its actor seeded from `local`, given-up answers and all
            assert unit.caller.budget.used_up() == local.used_up()
    finally:
        engine.close()
        ray.shutdown()
