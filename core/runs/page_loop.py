"""The loop that asks an extractor for pages one by one, the rules that stop it early, and the words that say why:
a budget used up (no further page is asked: it would meet the same limit), or a model endpoint that failed for
good on ENDPOINT_FAILURES_IN_A_ROW pages in a row (each such page costs every retry: a wrong address or a server
that is down would fail the whole run slowly).

`recordlens extract` (`run_files.extract_pages`) and the app's Propose session run this same loop, each
keeping a page's outcome its own way (a run folder's files, a run of the project), so that both stop alike and
say so in the same words; `bench` counts its methods' endpoint failures with the same `EndpointRow`. What a page
spends while it is asked is told as its budget counts it (`spending_told`), for either to keep as it goes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import astuple, dataclass, replace
from typing import TypeVar

from ..extract.base import ExtractionFailedError
from ..llm.gemini import COMMAND_LINE, Budget, BudgetExceededError, GeminiCaller

ENDPOINT_FAILURES_IN_A_ROW = 3

T = TypeVar("T")


@dataclass(frozen=True)
class LoopEnd:
    """How a loop over pages ended: the page it stopped on and why (`reason`, in the words both the command line
    and the app say), or None when it went through every page."""

    stopped_on: str | None = None
    reason: str = ""
    endpoint_failed: bool = False  # it stopped because the model endpoint kept failing (else: its budget)
    endpoint_failures: int = 0  # the last pages, in a row, whose model endpoint failed for good


@dataclass
class EndpointRow:
    """The pages in a row whose model endpoint failed for good (a page's own failure, or an answer, breaks the
    row), and whether the row is long enough to ask that endpoint no more."""

    failures: int = 0
    reason: str = ""  # why the last page of the row failed

    def failed(self, error: BaseException) -> bool:
        """Count a page that failed; True when the endpoint is to be asked no more."""
        return self.count(failed_for_the_endpoint(error), str(error))

    def count(self, endpoint_failed: bool, reason: str = "") -> bool:
        """Count a page that ended, its endpoint failed for good (for `reason`) or not; True when the endpoint is
        to be asked no more."""
        if endpoint_failed:
            self.failures, self.reason = self.failures + 1, reason
        else:
            self.failures = 0
        return self.failures >= ENDPOINT_FAILURES_IN_A_ROW

    def answered(self) -> None:
        self.failures = 0

    def stop(self, setting: str = COMMAND_LINE.endpoint) -> str:
        return endpoint_stop(self.failures, self.reason, setting)


def run_pages(names: Iterable[str], extract: Callable[[str], T], *, answered: Callable[[str, T], None],
              failed: Callable[[str, Exception], None], stopped: Callable[[str, BudgetExceededError], None],
              check: Callable[[], None] = lambda: None, setting: str = COMMAND_LINE.endpoint) -> LoopEnd:
    """`extract(name)` for each of `names` in order, its answer handed to `answered`, its failure to `failed`
    (the loop goes on), a spent budget to `stopped` (the loop ends there: calls on that page may have been paid
    for, so it is handed over first). `check` is asked before each page and after a budget stop, and raises to end
    the loop at once (the app's Cancel, which the model's caller meets as a spent budget); an error a handler
    raises ends it too. `setting` names where the endpoint is set, in the words of an endpoint's stop."""
    row = EndpointRow()
    for name in names:
        check()
        try:
            answer = extract(name)
        except BudgetExceededError as error:
            stopped(name, error)
            check()  # a stop that came of a cancel is the cancel's
            return LoopEnd(name, str(error), endpoint_failures=row.failures)
        except Exception as error:  # noqa: BLE001 - one page's failure (a timeout, bad bytes, a bug) is the page's
            failed(name, error)
            if row.failed(error):
                return LoopEnd(name, row.stop(setting), endpoint_failed=True, endpoint_failures=row.failures)
            continue
        row.answered()
        answered(name, answer)
    return LoopEnd(endpoint_failures=row.failures)


def endpoint_stop(failures: int, reason: str, setting: str = COMMAND_LINE.endpoint) -> str:
    """Why a run (or a bench's method, or a Propose session) asks its model no more: the endpoint failed for good
    on `failures` pages in a row, the last for `reason`."""
    return f"the model endpoint failed on {failures} pages in a row ({reason}); {check_the_endpoint(setting)}"


def check_the_endpoint(setting: str = COMMAND_LINE.endpoint) -> str:
    """What to do about an endpoint that failed for good: `setting` names where it is set."""
    return f"check the endpoint ({setting}, the network)"


def failed_for_the_endpoint(error: BaseException) -> bool:
    """Whether a page failed because the model endpoint failed for good (a page's own failure breaks the row)."""
    return isinstance(error, ExtractionFailedError) and bool(error.details.get("endpoint_failed"))


@dataclass(frozen=True)
class Spent:
    """What one page has spent so far, as its model budget counted it: the requests sent (each attempt, counted
    before it is sent), the tokens of the answers read, and the answers whose tokens are unknown (without token
    counts, or given up at --timeout-s: `given_up` of them); and of the requests, those sent whose answer has not
    been read yet (`awaited`: paid for, its tokens unknown until it is read, `run_files.spent_record`'s `unread`)."""

    requests: int = 0
    tokens: int = 0
    uncounted: int = 0
    given_up: int = 0
    awaited: int = 0


@contextlib.contextmanager
def spending_told(budget: object, told: Callable[[Spent], None], *, attempts: object = None) -> Iterator[None]:
    """For the time of one page, `told(spent)` each time `budget` counts (`Budget.on_change`): each request before
    it is sent (told awaited), again when one is given back unsent (its connection refused), and each answer as soon
    as its tokens are counted, with what the page has spent since it began (the loop asks one page at a time, so what
    its budget counted meanwhile is the page's). `attempts`: the caller making the requests (a `GeminiCaller`), whose
    attempts' ends are told too (`GeminiCaller.on_attempt_over`): one answered with an error (a 429, a 5xx) counts
    nothing, yet its request is no longer awaited. What keeps a page's outcome writes it then: a process killed
    (SIGKILL) part way through the page can write nothing after, and a request it was waiting for is paid for, its
    tokens unknown. A budget without the hook (a Ray worker's shared budget, which counts every worker's pages) tells
    nothing; a hook the budget or the caller had is still called, and put back after."""
    if not isinstance(budget, Budget):
        yield
        return
    start, before = _spent_so_far(budget), budget.on_change
    seen = Spent()  # the budget's counts as last read, and whether a request was awaited then

    def changed() -> None:
        nonlocal seen
        if before is not None:
            before()
        now, earlier = _since(start, budget), seen
        seen = replace(now, awaited=int(now.requests > earlier.requests))  # the change was a request reserved
        try:
            told(seen)
        except BaseException:
            if seen.awaited:  # not sent: the budget takes the request back, and the next one is awaited in its place
                seen = earlier
            raise

    def attempt_over() -> None:
        nonlocal seen
        if seen.awaited:
            seen = replace(_since(start, budget), awaited=0)
            told(seen)

    budget.on_change = changed
    try:
        with _attempts_ending(attempts, attempt_over):
            yield
    finally:
        budget.on_change = before


@contextlib.contextmanager
def _attempts_ending(caller: object, ended: Callable[[], None]) -> Iterator[None]:
    """For its time, `ended()` each time an attempt of `caller` ends (its `on_attempt_over`; a caller that is no
    `GeminiCaller`, or None, tells nothing), after the hook it had, which is put back after."""
    if not isinstance(caller, GeminiCaller):
        yield
        return
    had = caller.on_attempt_over

    def over() -> None:
        try:
            if had is not None:
                had()
        finally:
            ended()

    caller.on_attempt_over = over
    try:
        yield
    finally:
        caller.on_attempt_over = had


def _since(start: Spent, budget: Budget) -> Spent:
    """What `budget` counted since it counted `start`."""
    now = _spent_so_far(budget)
    return Spent(*(count - began for count, began in zip(astuple(now), astuple(start), strict=True)))


def _spent_so_far(budget: Budget) -> Spent:
    requests, tokens = budget.counts()
    return Spent(requests, tokens, budget.uncounted, budget.given_up)
