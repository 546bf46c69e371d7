"""The one loop over pages with its stop rules (`core.runs.page_loop`), which `extract` and the app's Propose session
both run: a model endpoint failing for good on 3 pages in a row stops it (a page's own failure or an answer breaks
the row), a spent budget stops it after its page is handed over, a check hook ends it at once (Cancel), and the
stop is said in one set of words, naming where the caller sets its endpoint."""

from __future__ import annotations

import pytest

from recordlens.core.extract.base import ExtractionFailedError
from recordlens.core.llm import BudgetExceededError
from recordlens.core.runs.page_loop import ENDPOINT_FAILURES_IN_A_ROW, endpoint_stop, run_pages


def endpoint_down(name: str) -> ExtractionFailedError:
    return ExtractionFailedError(f"HTTP 503 on page {name}", {"endpoint_failed": True})


class Pages:
    """What each page does when asked (an answer, or an error raised), and what the loop handed back."""

    def __init__(self, outcomes: dict[str, object]) -> None:
        self.outcomes = outcomes
        self.asked: list[str] = []
        self.seen: list[tuple[str, str]] = []

    def extract(self, name: str) -> object:
        self.asked.append(name)
        outcome = self.outcomes.get(name, f"records of {name}")
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def run(self, **options: object):  # noqa: ANN201 - the loop's end
        return run_pages(list(self.outcomes), self.extract, answered=lambda n, a: self.seen.append(("answered", n)),
                         failed=lambda n, e: self.seen.append(("failed", n)),
                         stopped=lambda n, e: self.seen.append(("stopped", n)), **options)


def test_an_endpoint_failing_on_pages_in_a_row_stops_the_loop_in_extracts_words():
    pages = Pages({"1": endpoint_down("1"), "2": "answer", "3": endpoint_down("3"), "4": endpoint_down("4"),
                   "5": endpoint_down("5"), "6": "never asked"})
    end = pages.run()
    assert pages.asked == ["1", "2", "3", "4", "5"]  # the answer on page 2 broke the first row
    assert (end.stopped_on, end.endpoint_failed, end.endpoint_failures) == ("5", True, ENDPOINT_FAILURES_IN_A_ROW)
    assert end.reason == ("the model endpoint failed on 3 pages in a row (HTTP 503 on page 5); check the endpoint "
                          "(--base-url, the network)")
    said_in_the_app = Pages({n: endpoint_down(n) for n in "123"}).run(setting="the Gemini endpoint in Settings")
    assert said_in_the_app.reason == endpoint_stop(3, "HTTP 503 on page 3", "the Gemini endpoint in Settings")
    assert "(the Gemini endpoint in Settings, the network)" in said_in_the_app.reason


def test_a_pages_own_failure_breaks_the_row_and_the_loop_goes_on():
    pages = Pages({"1": endpoint_down("1"), "2": endpoint_down("2"), "3": ValueError("bad bytes"),
                   "4": endpoint_down("4"), "5": "answer"})
    end = pages.run()
    assert end.stopped_on is None and end.reason == "" and pages.asked == ["1", "2", "3", "4", "5"]
    assert [kind for kind, _ in pages.seen] == ["failed", "failed", "failed", "failed", "answered"]


def test_a_spent_budget_hands_its_page_over_then_stops_and_a_check_ends_the_loop_as_it_came():
    pages = Pages({"1": "answer", "2": BudgetExceededError("request budget used up (1 of 1)"), "3": "answer"})
    end = pages.run()
    assert (end.stopped_on, end.reason, end.endpoint_failed) == ("2", "request budget used up (1 of 1)", False)
    assert pages.seen == [("answered", "1"), ("stopped", "2")] and pages.asked == ["1", "2"]

    class Cancelled(Exception):
        pass

    cancelled = False

    def check() -> None:
        if cancelled:
            raise Cancelled

    def cancel_then_stop(name: str) -> object:
        nonlocal cancelled
        cancelled = True  # Cancel came: the model's caller ends its call as a spent budget
        raise BudgetExceededError("cancelled")

    paid: list[str] = []
    with pytest.raises(Cancelled):
        run_pages(["1", "2"], cancel_then_stop, answered=lambda n, a: None, failed=lambda n, e: None,
                  stopped=lambda n, e: paid.append(n), check=check)
    assert paid == ["1"]  # what the page's calls cost is kept before the loop ends
