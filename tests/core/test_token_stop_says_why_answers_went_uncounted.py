"""A run stopped under --max-tokens because answers came without their token counts says why, kind by kind, as the
pages' own warnings do: an answer cut off mid-body, one whose usageMetadata counts the prompt alone or is all zeros,
a request lost with a Ray worker that died (counted back from the workers' shared budget), not "no usageMetadata" for
every kind; and its advice follows the cause (an endpoint's way of answering is capped by requests; a request's
mishap is not the endpoint's). Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import (
    CUT_OFF_MID_ANSWER,
    INCOMPLETE_USAGE,
    LOST_WITH_A_WORKER,
    NO_USAGE_METADATA,
    ZEROED_USAGE,
    Budget,
    CallSettings,
    GeminiCaller,
    cut_off_said,
    lost_with_a_worker_said,
    uncounted_said,
)
from recordlens.core.llm.shared_budget import CountsAsked, Limiter, copy_counts
from tests.core.cli_runs import gemini_extract, run
from tests.core.test_gemini_answers_cut_partial_or_never_asked import CUT, RECORDS, _CutsMidBody
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-stop-kinds"
CAP = 100_000
ENDPOINT_ADVICE = "cap such an endpoint with --max-requests instead"
MISHAP_ADVICE = "a run that loses no answer holds the cap"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def test_extract_stopped_by_an_answer_cut_mid_body_says_it_was_cut_off(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with _CutsMidBody([CUT, answer(json.dumps(RECORDS), usage=(100, 20))]) as server:
        code, _, err = run(capsys, *gemini_extract(tmp_path / "run", server, "--max-tokens", str(CAP)))
    assert code == 3, err
    assert f"token budget cannot be held (0 of {CAP:,} counted): {cut_off_said(1)}, so no further request" in err, err
    assert NO_USAGE_METADATA not in err and ENDPOINT_ADVICE not in err and MISHAP_ADVICE in err, err


@pytest.mark.parametrize(("usage", "held"), [((100, 0), INCOMPLETE_USAGE), ((0, 0), ZEROED_USAGE)],
                         ids=["prompt-alone", "zeros"])
def test_an_answer_with_a_usage_block_short_of_its_counts_is_said_by_what_it_held(
        usage: tuple[int, int], held: str) -> None:
    budget = Budget(max_tokens=CAP)
    with FakeGemini([answer(json.dumps(RECORDS), usage=usage)]) as server:
        caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1), api_key=KEY, budget=budget,
                              sleep=lambda seconds: None, notify=lambda message: None)
        assert caller.generate("page").uncounted_why == held
    said = budget.used_up() or ""
    assert f"the endpoint answered 1 request with {held}, so no further request" in said, said
    assert NO_USAGE_METADATA not in said and ENDPOINT_ADVICE in said, said


class LimiterAsked(CountsAsked):
    """The workers' shared budget as `copy_counts` meets it, with the actor's `Limiter` asked in place of the actor."""

    def __init__(self, limiter: Limiter) -> None:
        self.limiter = limiter

    def counts(self) -> tuple[int, int, int, int]:
        return self.limiter.counts()

    def uncounted_by_kind(self) -> dict[str, int]:
        return self.limiter.uncounted_by_kind()


def test_requests_lost_with_a_worker_and_cut_off_come_back_from_the_shared_budget_each_said_as_such() -> None:
    budget = Budget(max_tokens=CAP)
    limiter = Limiter(budget.max_requests, budget.max_tokens)  # as start_shared_budget seeds the actor
    for _ in range(3):
        assert limiter.reserve(0.0)[0] == "ok"
    limiter.add_uncounted(why=LOST_WITH_A_WORKER)  # as the engine counts a dead worker's request out
    limiter.add_uncounted(why=LOST_WITH_A_WORKER)
    limiter.add_uncounted(why=CUT_OFF_MID_ANSWER)
    copy_counts(LimiterAsked(limiter), budget)  # type: ignore[arg-type] - the actor's answer, without the actor
    said = budget.used_up() or ""
    assert said == limiter.used_up(), (said, limiter.used_up())  # the driver's stop line is the workers'
    assert f"{cut_off_said(1)} and {lost_with_a_worker_said(2)}, so no further request" in said, said
    assert NO_USAGE_METADATA not in said and ENDPOINT_ADVICE not in said and MISHAP_ADVICE in said, said


def test_an_endpoint_s_answers_without_counts_are_said_apart_from_a_request_s_mishap() -> None:
    budget = Budget(max_tokens=CAP)
    budget.add_uncounted()  # no usage block
    budget.add_uncounted(why=CUT_OFF_MID_ANSWER)
    said = budget.used_up() or ""
    assert (f"the endpoint answered 1 request without token counts ({NO_USAGE_METADATA}) and {cut_off_said(1)}"
            in said), said
    assert ENDPOINT_ADVICE in said, said  # the endpoint's way decides: it will answer so again


def test_answers_of_no_known_kind_are_said_as_without_token_counts_not_as_no_usage_metadata() -> None:
    budget = Budget(max_tokens=CAP, uncounted=2)  # counted back from pages' records, which say no kind
    budget.add_uncounted(why=LOST_WITH_A_WORKER)
    said = budget.used_up() or ""
    assert f"{lost_with_a_worker_said(1)} and {uncounted_said(2)}, so no further request" in said, said
    assert NO_USAGE_METADATA not in said and ENDPOINT_ADVICE not in said, said

