"""A run on an engine whose pages finish out of order (Ray: several in flight) says its budget stop as a local run
does: the page to resume from is the first of the run's order not done, whichever page met the cap first, and
the count is what the whole run spent once its pages in flight are back (their tokens came after the first stop).
An engine that finishes each window of pages last to first stands for Ray here, so no Ray is needed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

from recordlens.core.extract.base import Extraction
from recordlens.core.llm.gemini import Budget, QuotaWaitError
from recordlens.core.page.dom import Page
from recordlens.core.runs.engine_runs import extract_on_engine
from recordlens.core.runs.run_files import RunSummary, extract_pages

TOKENS = 120  # what each page's model call costs


class _Metered:
    """A model-calling method as the runner sees one: each page reserves a request of its budget, then pays."""

    name = "metered"
    version = "1"
    parameters: dict[str, object] = {}

    def __init__(self, budget: Budget) -> None:
        self.caller = SimpleNamespace(budget=budget)

    def extract(self, page: Page) -> Extraction:
        self.caller.budget.reserve_request()  # a spent budget raises BudgetExceededError: the run stops
        self.caller.budget.add_tokens(TOKENS)
        return Extraction(records=[], method=self.name, version=self.version, parameters={}, seconds=0.0,
                          tokens={"prompt": TOKENS - 20, "completion": 20, "total": TOKENS})


class _LastFirst:
    """An engine with `window` pages in flight that finish last to first; the tokens of pages still in flight
    when the run stopped (`late_tokens`, counted by other workers) come back into the budget as the run ends, as
    Ray's shared budget's counts do."""

    name = "last-first"

    def __init__(self, window: int, late_tokens: int = 0) -> None:
        self.window, self.late_tokens = window, late_tokens

    def map(self, fn: Callable[[object], object], items: Sequence[object], *, key: Callable[[object], str] = str,
            progress: Callable[[list[str]], object] = lambda names: names,
            stop_when: Callable[[object], bool] = lambda result: False) -> Iterator[tuple[object, object]]:
        items, stopping = list(items), False
        for start in range(0, len(items), self.window):
            if stopping:
                return
            for item in reversed(items[start:start + self.window]):
                result = fn(item)
                stopping = stopping or stop_when(result)
                yield item, result

    @contextmanager
    def shipping(self, extractor: _Metered) -> Iterator[_Metered]:
        yield extractor
        extractor.caller.budget.tokens += self.late_tokens

    def close(self) -> None:
        return None


def _pages(folder: Path, count: int) -> dict[str, Path]:
    folder.mkdir()
    files = {}
    for number in range(1, count + 1):
        files[str(number)] = folder / f"{number}.html"
        files[str(number)].write_text(f"<html><body><p>page {number}</p></body></html>", encoding="utf-8")
    return files


def test_the_page_to_resume_from_is_the_first_not_done_in_the_runs_order(tmp_path: Path) -> None:
    files = _pages(tmp_path / "html", 6)
    wanted = list(files)
    summary = RunSummary(tmp_path / "run")
    # Pages 1-4 in flight, finishing 4, 3, 2, 1: 4 and 3 take the two requests, 2 meets the cap first, then 1.
    extract_on_engine(_LastFirst(window=4), _Metered(Budget(max_requests=2)), files, wanted, tmp_path / "run",
                      summary, resume=True)

    assert sorted(summary.extracted) == ["3", "4"]
    assert summary.stopped == "request budget used up (2 of 2); run again to resume from page 1"
    local = RunSummary(tmp_path / "local")
    extract_pages(_Metered(Budget(max_requests=2)), files, wanted, tmp_path / "local", local, resume=True)
    assert local.stopped == "request budget used up (2 of 2); run again to resume from page 3"  # its own first


def test_the_stop_line_counts_what_the_run_spent_with_its_pages_in_flight(tmp_path: Path) -> None:
    files = _pages(tmp_path / "html", 6)
    budget = Budget(max_tokens=250)
    summary = RunSummary(tmp_path / "run")
    # 4, 3, 2 are paid (360 tokens when page 1 meets the cap); a page in flight elsewhere paid 120 more after.
    extract_on_engine(_LastFirst(window=4, late_tokens=TOKENS), _Metered(budget), files, list(files),
                      tmp_path / "run", summary, resume=True)

    assert budget.tokens == 480
    assert summary.stopped == "token budget used up (480 of 250); run again to resume from page 1"


QUOTA = ("HTTP 429: quota; the server asks to wait 3,600 s (Retry-After: a quota), more than the 300 s a call "
         "waits; run again after that wait")


class _QuotaOnPageOne(_Metered):
    """Page 1's call is paid for, then the server asks to wait out its quota: the run stops there."""

    def extract(self, page: Page) -> Extraction:
        if page.name == "1":
            self.caller.budget.reserve_request()
            raise QuotaWaitError(QUOTA)
        return super().extract(page)


def test_a_quota_stop_keeps_its_words_though_pages_in_flight_spent_the_budget(tmp_path: Path) -> None:
    files = _pages(tmp_path / "html", 6)
    budget = Budget(max_requests=4)
    summary = RunSummary(tmp_path / "run")
    # Pages 4, 3 and 2 are paid, then page 1 takes the last request and meets the quota: the budget is spent
    # as the run ends, but raising it (--max-requests) is not what resuming this run needs.
    extract_on_engine(_LastFirst(window=4), _QuotaOnPageOne(budget), files, list(files), tmp_path / "run",
                      summary, resume=True)

    assert budget.used_up() == "request budget used up (4 of 4)"
    assert summary.stopped == f"{QUOTA}; run again to resume from page 1"
