"""Where a batch's units of work (pages) run: here, in order (`local`), or on a Ray cluster (`ray`).

An `Engine` maps a picklable function over items and hands back each item's result as it completes; callers
(the runner, `score`, `bench`) keep the results in their own order, so figures never depend on the engine.
Files are written by the unit of work itself through `core/atomic.py`, exactly as the local loop writes them,
so a run stopped on one engine resumes on the other.

Ray is an optional extra (`pip install -e '.[ray]'` in the checkout): `ray_engine` is imported only by
`engine_choice.make_engine` when `--engine ray` is asked for, and without Ray that says how to install it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Protocol, TypeVar

from ..errors import RecordLensError
from ..llm.gemini import paid_carried
from ..wording import counted

T = TypeVar("T")
R = TypeVar("R")
ENGINES = ("local", "ray")
Progress = Callable[[Iterable[str]], Iterable[str]]
# Told of a unit whose worker died, before it runs again: the item, why, and the model requests the dead worker
# reserved for it (paid for, their answers lost with it; None when they cannot be told)
Retried = Callable[[T, str, int | None], None]


@dataclass(frozen=True)
class CutShort:
    """A unit a stop (Ctrl+C, SIGTERM) cut short part way, and what its interrupt carried of the work it had paid
    for (`llm.gemini.carry_paid`: a page's calls, an episode as it stood), or None."""

    carried: object | None = None


# Told, as a map stops (Ctrl+C, SIGTERM, an error, a caller that stopped reading), of each unit that was under way:
# the item, and its result when it finished meanwhile, else `CutShort` (what it kept)
Interrupted = Callable[[T, object], None]
# What a run's units recorded of their model calls: requests, tokens, answers without token counts, and of them the
# answers given up at --timeout-s (as a shared budget counts them: `shared_budget.Counts`)
Recorded = Callable[[], tuple[int, int, int, int]]


@dataclass
class LostWithWorkers:
    """The model requests paid for on units whose worker died (their answers lost with it), by unit, as an engine
    that tells them (`Engine.tells_lost_calls`: Ray's) tells them to `retried` (`told_of_lost_calls`): what a
    command that keeps no page record of them (bench, agent run) counts them by, said apart as lost, as an
    extraction keeps them in the page's record (`run_files.write_unfinished_record`). A unit whose count could not
    be had is named as unknown. Both commands write it in one JSON shape (`as_dict`, read back by `from_dict`)."""

    requests: dict[str, int] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)

    def told(self, unit: str, requests: int | None) -> None:
        if requests is None:
            self.unknown += [unit] if unit not in self.unknown else []
        elif requests:
            self.requests[unit] = self.requests.get(unit, 0) + requests

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    def __bool__(self) -> bool:
        return bool(self.requests or self.unknown)

    def said(self, unit: Callable[[str], str] = str) -> str:
        """"2 model requests paid for on pages whose Ray worker died, lost with it (page 2: 1; page 4: 1)", each
        unit named by `unit`; those whose count is unknown said after."""
        parts = [f"{counted(self.total, 'model request')} paid for and lost with Ray workers that died ("
                 + "; ".join(f"{unit(name)}: {requests}" for name, requests in self.requests.items()) + ")"
                 ] if self.requests else []
        if self.unknown:
            parts.append(f"an unknown number lost with the workers that died on {', '.join(map(unit, self.unknown))}")
        return "; ".join(parts)

    def only(self, unit: str) -> LostWithWorkers:
        """What was lost on `unit` alone."""
        return LostWithWorkers({u: n for u, n in self.requests.items() if u == unit},
                               [u for u in self.unknown if u == unit])

    def without(self, unit: str) -> LostWithWorkers:
        """What was lost on the units but `unit`."""
        return LostWithWorkers({u: n for u, n in self.requests.items() if u != unit},
                               [u for u in self.unknown if u != unit])

    def as_dict(self) -> dict[str, object]:
        """The JSON shape of lost requests, wherever they are written (bench's `lost_with_workers`, an agent run's
        sessions'): how many in all, by unit (a page's name, an episode's key), and the units whose count is
        unknown."""
        return {"requests": self.total, "units": dict(self.requests), "unknown": list(self.unknown)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> LostWithWorkers:
        """Read `as_dict`'s shape back (what is not of it is left out)."""
        units, unknown = data.get("units"), data.get("unknown")
        lost = cls()
        for unit, requests in (units.items() if isinstance(units, Mapping) else ()):
            if isinstance(requests, int):
                lost.told(str(unit), requests)
        for unit in (unknown if isinstance(unknown, list) else ()):
            lost.told(str(unit), None)
        return lost

    @classmethod
    def summed(cls, said: Iterable[LostWithWorkers]) -> LostWithWorkers:
        """All of `said` as one (a resumed run's sessions'): a unit's requests added up, an unknown one named once."""
        lost = cls()
        for part in said:
            for unit, requests in part.requests.items():
                lost.told(unit, requests)
            for unit in part.unknown:
                lost.told(unit, None)
        return lost


def told_of_lost_calls(engine: object, retried: Retried) -> dict[str, Retried]:
    """`retried` as `Engine.map`'s keyword, for an engine that tells of the calls lost with a unit's worker
    (`tells_lost_calls`: Ray's); {} for one that does not (an engine of a test's may not take it)."""
    return {"retried": retried} if getattr(engine, "tells_lost_calls", False) else {}


def told_of_cut_units(engine: object, interrupted: Interrupted) -> dict[str, Interrupted]:
    """`interrupted` as `Engine.map`'s keyword, for an engine that tells of the units a stop cut short
    (`tells_cut_units`); {} for one that does not (an engine of a test's may not take it)."""
    return {"interrupted": interrupted} if getattr(engine, "tells_cut_units", False) else {}


class EngineError(RecordLensError):
    """An engine could not start, or is missing (Ray not installed)."""


HEAD_LOST = "its head no longer answers"  # what a lost cluster says stopped answering, unless told otherwise


class ClusterLostError(EngineError):
    """The joined Ray cluster stopped answering while a run waited on it: its head, or the raylet of the node this
    process joined it through, without which no task runs (`stopped` says which, as the error words it). What
    finished is written and kept, and the same command goes on from there: as a model endpoint that failed for
    good, something the run depends on failed, and the run stops early to be run again (not the budget's 3, which
    no repair changes)."""

    exit_status = 4

    def __init__(self, address: str, finished: int, stopped: str = HEAD_LOST) -> None:
        self.address = address
        self.stopped = stopped
        super().__init__(
            f"the Ray cluster at {address} was lost ({stopped}); {finished} page(s) finished before are kept: run "
            "the same command again once the cluster is back to go on (or drop --ray-address to run here)")

    def with_finished(self, finished: int) -> ClusterLostError:
        """The same loss, said with `finished` pages kept (a caller that counts them itself: the pages written)."""
        return ClusterLostError(self.address, finished, self.stopped)


def shared_budget_died(unit: str) -> str:
    """How a run says that its shared model budget's Ray actor died part way (killed, lost with its node), its
    workers stopping the `unit`s (page, episode) that asked it for a request."""
    return ("the run's shared model budget (the Ray actor that counts every worker's model requests against the "
            f"run's caps) died part way through the run, so no further {unit} was started")


class UnitFailedError(RecordLensError):
    """One unit of work died where it ran (its worker was killed, ran out of memory...): that item only."""


@dataclass(frozen=True)
class EngineOptions:
    """`--engine`, `--ray-address`, `--workers` as given on the command line."""

    name: str = "local"
    address: str | None = None  # an existing Ray cluster; None starts a local instance
    workers: int | None = None  # CPUs of the local instance (default: the machine's)
    requests_per_minute: int | None = None  # Gemini requests per minute, shared by every worker (ray only)
    ship_content: bool = False  # ray without shared storage: pages and their results travel as bytes


class Engine(Protocol):
    """`retried` and `recorded` are heeded by an engine whose units may die alone (Ray's), which says so with
    `tells_lost_calls = True`; a caller passes them only to such an engine (an engine of a test's may not take them).
    Likewise `interrupted`, with `tells_cut_units = True` (`told_of_cut_units`)."""

    name: str

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, key: Callable[[T], str] = str,
            progress: Progress = lambda names: names,
            stop_when: Callable[[R], bool] = lambda result: False,
            retried: Retried = lambda item, reason, requests: None,
            interrupted: Interrupted = lambda item, kept: None) -> Iterator[tuple[T, R | UnitFailedError]]:
        """Yield `(item, fn(item))` for every item, in completion order; `progress` sees `key(item)` as each
        completes. A unit that died where it ran is run again (once, on Ray: said on stderr), `retried` told first
        (`Retried`); one that dies again yields a `UnitFailedError` instead of its result; an exception `fn`
        raises is raised here. Once a result meets `stop_when` (a used-up budget), no further item is started,
        and the units already running are waited for and yielded (their work, and the requests it paid for, are
        kept). Stopped (Ctrl+C, SIGTERM, an error), each unit under way is told to `interrupted` (`Interrupted`)
        before the stop goes on, so that the caller keeps what it paid for, as it keeps what finished."""
        ...

    def shipping(self, extractor: T, recorded: Recorded | None = None) -> AbstractContextManager[T]:
        """The extractor as the units of work get it, for the time of a run: on Ray its Gemini budget is
        swapped for one that every worker shares, and the counts come back into the local budget after; when
        they cannot (the shared budget's actor was lost with the cluster's head), `recorded` counts them from
        what the units recorded."""
        ...

    def close(self) -> None: ...


class LocalEngine:
    """In this process, in the items' order: what every command did before engines existed."""

    name = "local"
    tells_cut_units = True  # map's `interrupted` is heeded

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, key: Callable[[T], str] = str,
            progress: Progress = lambda names: names,
            stop_when: Callable[[R], bool] = lambda result: False,
            retried: Retried = lambda item, reason, requests: None,
            interrupted: Interrupted = lambda item, kept: None) -> Iterator[tuple[T, R | UnitFailedError]]:
        by_key = {key(item): item for item in items}  # in this process: no unit dies alone, none is run again
        for name in progress(list(by_key)):
            item = by_key[name]
            try:
                result = fn(item)
            except KeyboardInterrupt as stop:  # Ctrl+C, SIGTERM: the unit under way, with what it paid for
                interrupted(item, CutShort(paid_carried(stop)))
                raise
            yield item, result
            if stop_when(result):
                return

    def shipping(self, extractor: T, recorded: Recorded | None = None) -> AbstractContextManager[T]:
        return nullcontext(extractor)

    def close(self) -> None:
        return None


class CompletedNames:
    """The names of finished units, as they finish, with the total known in advance (so a progress bar can
    show `k/n` while the names arrive in completion order)."""

    def __init__(self, names: Iterator[str], total: int) -> None:
        self._names = names
        self._total = total

    def __len__(self) -> int:
        return self._total

    def __iter__(self) -> Iterator[str]:
        return self._names


def absolute_path(path: PurePath) -> str:
    """A path made absolute here, in the folder the command was given in: how a relative path reaches a unit of work
    that cannot run in that folder (a Ray worker on a node without it runs where the node was started), so that
    both engines read and write the same files."""
    return os.path.abspath(path)


def worker_name() -> str:
    """`host:pid` of the process a unit runs in, for failures reported by page and worker."""
    return f"{socket.gethostname()}:{os.getpid()}"
