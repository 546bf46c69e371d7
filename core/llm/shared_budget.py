"""One Gemini limiter for every worker of a distributed run: requests per minute, a request cap, a token cap.

`Limiter` is the plain state (testable without Ray); on Ray it lives in one actor, and `SharedBudget` is the
handle each worker's `GeminiCaller` uses in place of its local `Budget` (the same calls, `reserve_request`,
`release_request` and `add_tokens`). Calls from one handle reach the actor in order, so a worker's tokens are
counted before its next reservation. Retries and backoff stay in `GeminiCaller`: every attempt reserves, as
locally (an attempt whose connection was refused gives its reservation back). `--requests-per-minute` is held as the
server counts: a request's minute begins when it leaves for the server (`request_sent`), not when it was reserved (a
fresh worker's first request leaves a second or more after its reservation). An actor that died (killed, its
node lost) allows no further request: asked for one, it is a stop of the run (`SharedBudgetLostError`), not a
failure of each page that would ask.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from .gemini import Budget, BudgetExceededError, budget_used_up, count_uncounted

WINDOW_S = 60.0
# What a shared budget counted, read in one question: requests, tokens, answers without token counts, and of them the
# answers given up at --timeout-s (`Budget`'s fields of the same names)
Counts = tuple[int, int, int, int]


class SharedBudgetLostError(BudgetExceededError):
    """The run's shared budget's actor is gone (killed, or lost with its node): a request can no longer be counted
    against the run's caps, nor spaced to its rate, so none is made; the run stops there, as for a spent budget,
    and the same command goes on from there."""

    def __init__(self, error: Exception) -> None:
        super().__init__(f"the run's shared model budget (a Ray actor) is gone ({type(error).__name__}): no "
                         "further model request is made, since none could be counted against the run's caps")


class Limiter:
    """Counts requests and tokens against their caps, and spaces requests to `requests_per_minute`.

    `reserve(now)` answers `("ok", 0.0)`, `("wait", seconds)` (try again then; nothing was counted) or
    `("exceeded", message)` (the run must stop: the same message a local `Budget` gives). A request reserved holds
    its place in the window (`window_s`, a minute) from its reservation until it is told sent (`sent`), and from then
    for the window: so the server never sees more than `requests_per_minute` within one, however long a request took
    to leave. One never told sent (its worker died first) leaves the window a window after its reservation."""

    def __init__(self, max_requests: int | None = None, max_tokens: int | None = None, *, requests: int = 0,
                 tokens: int = 0, uncounted: int = 0, given_up: int = 0,
                 uncounted_kinds: Mapping[str, int] | None = None, requests_per_minute: int | None = None,
                 window_s: float = WINDOW_S) -> None:
        self.max_requests = max_requests
        self.max_tokens = max_tokens
        self.requests = requests
        self.tokens = tokens
        self.requests_per_minute = requests_per_minute
        self.window_s = window_s
        self.uncounted = uncounted
        self.given_up = given_up  # of them, answers given up at --timeout-s (the stop line says which is which)
        self.uncounted_kinds = dict(uncounted_kinds or {})  # of the others, how many of each kind (`Budget`'s)
        self._sent: deque[float] = deque()  # when the requests of the window left for the server, oldest first
        self._unsent: deque[float] = deque()  # when the requests reserved but not yet told sent were reserved

    def reserve(self, now: float | None = None) -> tuple[str, float | str]:
        now = time.monotonic() if now is None else now
        spent = self.used_up()
        if spent:
            return "exceeded", spent
        if self.requests_per_minute:
            for times in (self._sent, self._unsent):
                while times and now - times[0] >= self.window_s:
                    times.popleft()
            if len(self._sent) + len(self._unsent) >= self.requests_per_minute:
                oldest = min(times[0] for times in (self._sent, self._unsent) if times)
                return "wait", self.window_s - (now - oldest)
            self._unsent.append(now)
        self.requests += 1
        return "ok", 0.0

    def sent(self, now: float | None = None) -> None:
        """A request reserved has left for the server (`now`): its place in the window counts from here. Which
        reservation it was does not matter (all are alike): the oldest is taken, whose place would leave first."""
        now = time.monotonic() if now is None else now
        if self._unsent:
            self._unsent.popleft()
            self._sent.append(now)

    def release(self) -> None:
        """A request reserved that never reached a server (`Budget.release_request`)."""
        self.requests -= 1

    def add_tokens(self, count: int) -> None:
        self.tokens += count

    def add_uncounted(self, given_up: bool = False, why: str | None = None) -> None:
        self.uncounted += 1
        self.given_up += int(given_up)
        count_uncounted(self.uncounted_kinds, given_up, why)

    def used_up(self) -> str | None:
        return budget_used_up(self.max_requests, self.requests, self.max_tokens, self.tokens, self.uncounted,
                              self.given_up, self.uncounted_kinds)

    def counts(self) -> Counts:
        """Requests, tokens, answers without token counts, and of them those given up at --timeout-s: all four,
        since a token cap is held by each and its stop says which answers it could not count (`budget_used_up`)."""
        return self.requests, self.tokens, self.uncounted, self.given_up

    def uncounted_by_kind(self) -> dict[str, int]:
        """Of the answers without token counts not given up, how many of each kind (`Budget.uncounted_kinds`)."""
        return dict(self.uncounted_kinds)


class CountsAsked:
    """A budget whose counts are asked for (of an actor, in one question): `requests` and `tokens` read `counts`."""

    def counts(self) -> Counts:
        raise NotImplementedError

    def uncounted_by_kind(self) -> dict[str, int]:
        """`Limiter.uncounted_by_kind`, where the budget asked knows it; none known here (its answers without token
        counts are then said as such, of no kind)."""
        return {}

    @property
    def requests(self) -> int:
        return self.counts()[0]

    @property
    def tokens(self) -> int:
        return self.counts()[1]


class SharedBudget(CountsAsked):
    """A `Budget` look-alike over a Ray actor holding a `Limiter`; picklable, so it travels to the workers. It says
    the caps its actor holds (`max_requests`, `max_tokens`) as a `Budget` does: a run records them with its calls'
    settings (`GeminiExtractor.settings`), on a worker as on the driver."""

    def __init__(self, actor: object, sleep: Callable[[float], None] = time.sleep, *,
                 max_requests: int | None = None, max_tokens: int | None = None) -> None:
        self._actor = actor
        self._sleep = sleep
        self.max_requests = max_requests
        self.max_tokens = max_tokens

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # the sleep function stays behind (a test's fake may not pickle)
        return shared_budget_of, (self._actor, self.max_requests, self.max_tokens)

    def reserve_request(self) -> None:
        while True:
            verdict, value = self._asked(lambda actor: actor.reserve.remote())
            if verdict == "ok":
                return
            if verdict == "exceeded":
                raise BudgetExceededError(str(value))
            self._sleep(float(value))

    def release_request(self) -> None:
        self._actor.release.remote()  # type: ignore[attr-defined] - ordered after this handle's reservation

    def request_sent(self) -> None:
        """The request reserved last leaves for the server now (`Limiter.sent`): not waited for, as the request is
        not; it reaches the actor after the reservation, and within milliseconds of the request leaving."""
        self._actor.sent.remote()  # type: ignore[attr-defined] - ordered after this handle's reservation

    def add_tokens(self, count: int) -> None:
        self._actor.add_tokens.remote(count)  # type: ignore[attr-defined] - ordered after this handle's calls

    def add_uncounted(self, given_up: bool = False, why: str | None = None) -> None:
        told_uncounted(self._actor, given_up, why)  # ordered as add_tokens is

    def used_up(self) -> str | None:
        return self._asked(lambda actor: actor.used_up.remote())  # type: ignore[no-any-return]

    def _asked(self, question: Callable[[object], object]) -> Any:  # noqa: ANN401 - the actor's answer
        """The actor's answer to `question` (a remote call of it); an actor that died is `SharedBudgetLostError`,
        said in one line rather than a Ray report of a dozen, on every page that asks."""
        import ray
        from ray import exceptions

        try:
            return ray.get(question(self._actor))
        except exceptions.RayActorError as error:  # ActorDiedError, ActorUnavailableError
            raise SharedBudgetLostError(error) from None

    def counts(self, timeout: float | None = None) -> Counts:
        """What the workers counted so far (`Limiter.counts`); with `timeout`, an actor that does not answer within
        it raises Ray's GetTimeoutError (a TimeoutError) instead of being waited for."""
        import ray

        requests, tokens, uncounted, given_up = ray.get(self._actor.counts.remote(),  # type: ignore[attr-defined]
                                                        timeout=timeout)
        return int(requests), int(tokens), int(uncounted), int(given_up)

    def uncounted_by_kind(self, timeout: float | None = None) -> dict[str, int]:
        """`Limiter.uncounted_by_kind`, asked as `counts` is."""
        import ray

        return dict(ray.get(self._actor.uncounted_by_kind.remote(), timeout=timeout))  # type: ignore[attr-defined]


def shared_budget_of(actor: object, max_requests: int | None, max_tokens: int | None) -> SharedBudget:
    """A `SharedBudget` over `actor`, whose caps are `max_requests` and `max_tokens` (as it travels)."""
    return SharedBudget(actor, max_requests=max_requests, max_tokens=max_tokens)


def told_uncounted(actor: object, given_up: bool, why: str | None) -> object:
    """The shared budget's `actor` told of an answer without token counts (`Limiter.add_uncounted`): its reference.
    `why` goes only when said, so that an actor class taking `given_up` alone (a test's) still counts the rest."""
    return actor.add_uncounted.remote(given_up, *(() if why is None else (why,)))  # type: ignore[attr-defined]


def start_shared_budget(budget: Budget, requests_per_minute: int | None = None,
                        window_s: float | None = None) -> SharedBudget:
    """An actor seeded with `budget`'s caps and what it has already counted (earlier seeds of the run), spacing the
    requests to `requests_per_minute` within `window_s` (a minute; a test's may be shorter)."""
    import ray

    actor_class = ray.remote(num_cpus=0)(Limiter)
    actor = actor_class.remote(budget.max_requests, budget.max_tokens, requests=budget.requests,
                               tokens=budget.tokens, uncounted=budget.uncounted, given_up=budget.given_up,
                               uncounted_kinds=budget.uncounted_kinds, requests_per_minute=requests_per_minute,
                               window_s=WINDOW_S if window_s is None else window_s)
    return SharedBudget(actor, max_requests=budget.max_requests, max_tokens=budget.max_tokens)


def copy_counts(shared: SharedBudget, budget: Budget) -> None:
    """What the workers counted, into the driver's `budget` (which the command reports and later seeds use).
    The answers without token counts come back too: a later shipping of `budget` seeds its actor with them, so
    under a token cap the run still stops after the first such answer, not the first of each shipping; and of them
    those given up at --timeout-s, and the others' kinds, so that the driver's stop line says each kind as a local
    run's does. Both asked before either is kept: an actor that answers one question only leaves `budget` as it
    was."""
    counts, kinds = shared.counts(), shared.uncounted_by_kind()
    budget.requests, budget.tokens, budget.uncounted, budget.given_up = counts
    budget.uncounted_kinds = kinds
