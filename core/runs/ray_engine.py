"""The Ray engine: units of work (pages) as Ray tasks on a local instance or an existing cluster.

Imported only for `--engine ray` (Ray is the optional extra `ray`: `pip install -e '.[ray]'`). Contracts:

- **Same results.** A task runs the very function the local engine runs (one page of the runner's loop, one
  page's score), which writes its files through `core/atomic.py` before it returns; the driver only folds the
  small results. A task whose worker dies is run again once (`max_retries`), said on stderr, and the caller
  told first (`retried`) of the model requests the dead worker had reserved for it (paid for, their answers lost
  with it: a run keeps them in the page's record, and the shared budget counts them as answers without token
  counts); a page whose second run dies too is reported as failed, by page and with the worker's death, and the
  finished pages stay as written.
- **Bounded.** At most `2 × workers` tasks are in flight (so the object store holds a few small results, not
  the run). By default a task gets a page *path* (the storage is shared: one machine, or a cluster's shared
  folder) and parses the page itself, so no page travels through the object store; with `ships_content`
  (`--ship-content`, a cluster without shared storage) the page's bytes go with its task, read as the task
  is submitted, and the files it wrote come back as bytes for the driver to write. Either way a page is
  parsed once, by the task that extracts it.
- **The key** travels in memory only, and never in a `runtime_env` (Ray's runtime env agent writes a job's
  environment variables in its log, on every node). A `GeminiCaller` is shipped as its settings, its shared
  budget and a slot (a serializer registered here); the keys themselves are a small argument of each task,
  inlined in the task as Ray sends it (never in the object store, which may spill to disk), and the worker
  rebuilds the caller with its key as it reads the unit of work. A cluster's workers need no key of their own.
- **The command's files, named as given.** A worker runs in the folder its instance or node was started from;
  each unit runs in the command's folder instead, where the worker's node has it (one machine, or the same path
  on a cluster's node), and a path travels as the command was given it (a serializer registered here, for every
  unit of every command): it names the command's file, and what the unit says of it, or writes, is what the
  local engine says or writes. Where the node has no such folder, a relative path travels absolute, made so in
  the command's folder.
- **Read once per worker.** A map's unit of work (the extractor, with its model: megabytes) goes to the object
  store once, as bytes pickled as Ray would send it (`_unit_as_bytes`), and each worker process reads it once per
  map, not once per page (`_unit_of_work`). On a joined cluster it is put there by an actor of the engine's on this
  node (`_Keeper`), which owns it: see **A lost cluster is said**.
- **Stdout is the command's.** Ray's own error reports (a worker that died, a task to retry), which it prints on
  stdout, are off while the engine is open: RecordLens reports each unit's failure itself.
- **Waits are said.** Ray's workers' stderr stays in its session folder (`log_to_driver=False`: Ray's own lines
  would come with it), so what a worker says of its waits (before a retry, for `--requests-per-minute`) goes to
  a small actor of the engine's, and the driver prints it on stderr as the local engine does, naming the page.
- **Own instance, own shutdown.** A Ray already initialised in this process (a test fixture, a notebook) is
  used as it is and left running; one this engine started is shut down by `close()`. Starting one, Ray's notice
  that token authentication is on is left off stderr (`_token_notice_left_out`): nothing to act on for the
  command's own instance.
- **A lost cluster is said.** When a joined cluster's head dies, Ray's C++ code waits 60 s for its GCS and then
  ends the process itself, before any Python `finally` runs. So while no task finishes the driver asks the GCS's
  port, and the port of the raylet of the node it joined through (without which no task runs, whatever other node
  lives), every few seconds, and after `LOST_AFTER` refusals in a row raises `ClusterLostError`, naming which of the
  two stopped answering (what finished is written and kept); a unit whose worker died meanwhile is not said to run
  again. `close()` then leaves Ray's shutdown to its exit handler, after the command has said it. Ray's core worker
  would also end the process at once (exit 1, its words only: "The connection to the plasma store is failed") on
  recovering an object this process owns that was lost with the dead node's store, which it writes to: this process
  owns none there (the unit of work is the keeper's; results are small, and taken as they come).
- **A stop is a stop.** Ctrl+C, SIGTERM or an error in the driver stops the map's units (`stop_the_rest`): the
  driver meets it at once (Ray's wait raises it) and tells a small actor of the engine's (`_StopSignal`); a unit
  not begun does nothing, and one under way is interrupted where it is (`_StopWatch`: a KeyboardInterrupt in its
  worker, as Ctrl+C in a local run), keeps what it paid for in its page's record ("not finished", its calls) and
  makes no further request. The driver waits for them, at most STOP_GRACE_S, before Ray is shut down or left, and
  tells the caller of each (map's `interrupted`: what its interrupt carried, an episode as it stood), as a local stop
  does.
- **Requests per minute as the server counts them.** One limiter for every worker (`shared_budget.Limiter`), whose
  minute for a request begins when the request leaves for the server (`Budget.request_sent`), not when it was
  reserved: a fresh worker's first request leaves a second or more after its reservation.
- **A lost shared budget stops the run.** Its actor dead (killed, its node lost), a worker that asks it for a
  request stops its page as a spent budget does (`SharedBudgetLostError`: no page fails for it), no further page
  starts, and an extraction ends as on a lost cluster (`BudgetLostError`, exit 4), said once; an agent run ends
  likewise (exit 4, `budget_lost`), its episodes kept; a bench meets it as a spent budget.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from ..errors import RecordLensError
from ..llm.gemini import LOST_WITH_A_WORKER, WAIT_NOTICE_S, Answer, Budget, GeminiCaller, paid_carried
from ..llm.shared_budget import (
    WINDOW_S,
    Counts,
    CountsAsked,
    SharedBudget,
    copy_counts,
    start_shared_budget,
    told_uncounted,
)
from ..signals_held import signals_held
from ..wording import counted, shortened
from .engines import (
    HEAD_LOST,
    ClusterLostError,
    CompletedNames,
    CutShort,
    EngineError,
    Interrupted,
    Progress,
    Recorded,
    Retried,
    UnitFailedError,
    absolute_path,
    shared_budget_died,
)

T = TypeVar("T")
R = TypeVar("R")
# What a unit's model requests are counted by: the number of its map (`RayEngine.next_map`) and its name, as one
# engine runs the same pages in several maps (each seed of `extract --seeds N`)
Tally = tuple[int, str]
CONNECT_TIMEOUT_S = 5.0  # a cluster's port answers at once; a wrong host or a firewall would not
WAIT_S = 2.0  # how long the driver waits for a task before it asks whether the cluster's head still answers
PROBE_TIMEOUT_S = 2.0  # a head that is up accepts a connection at once (its kernel does, however busy it is)
LOST_AFTER = 2  # refusals in a row that mean the head is gone, well before Ray's own 60 s (one may be a blip)
COUNTS_TIMEOUT_S = 10.0  # a live actor answers in milliseconds; one gone would keep the driver waiting 60 s
OBJECT_STORE_BYTES = 200 * 1024 * 1024  # results are small; Ray's default (30% of RAM) would be wasted here
NOTICES_EVERY_S = 0.5  # how often the driver asks for what the workers said: a wait is said as it begins
# How long the driver waits on Ray at a time (for a task, an actor's answer), between which a Ctrl+C or SIGTERM is
# met as it comes, so the units are told to stop at once (`_Completions.stop_the_rest`). Ray's own wait meets a
# signal once a second only, and Python runs a signal's handler once however many came meanwhile: two Ctrl+C within
# that second were one, and the second, which ends a stopped map's wait for its units, was lost (`_waited`)
WAIT_SLICE_S = 0.1
NOTICE_TIMEOUT_S = 5.0  # the notices' actor answers in milliseconds; a run never waits on it longer
DEATH_WORDS = 300  # a worker's death said in at most so many characters of Ray's own words (its line is long)
STOP_WAIT_S = 5.0  # how long a worker's watch waits on the stop signal at a time (it answers at once on a stop)
STOP_GRACE_S = 15.0  # how long a stopped map waits for its units under way to keep what they paid for
# The signal a worker's watch interrupts the unit under way with: Ray's workers block SIGINT, and this one is theirs
# to take (Ray handles neither it nor SIGUSR1)
STOP_SIGNAL = signal.SIGUSR2


class RayEngine:
    name = "ray"
    tells_lost_calls = True  # map's `retried` and shipping's `recorded` are heeded (`engines.Engine`)
    tells_cut_units = True  # and map's `interrupted`
    rate_window_s = WINDOW_S  # the window --requests-per-minute counts in: a minute (a test's may be shorter)

    def __init__(self, *, owns_instance: bool, max_retries: int = 1, requests_per_minute: int | None = None,
                 ships_content: bool = False, watches_head: str | None = None) -> None:
        import ray

        self._owns_instance = owns_instance
        self.max_retries = max_retries
        self.requests_per_minute = requests_per_minute
        self._shared: dict[int, tuple[_DriverBudget, int]] = {}  # id(local Budget) -> its actor, its users
        self.ships_content = ships_content  # no shared storage: pages and their files travel as bytes
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # A cluster joined (not an instance of this process's own) is watched: its head may die under the run, and
        # so may the node this process joined it through (its raylet), without which no task runs
        self.head_address = _head_address(watches_head) if owns_instance and watches_head else None
        # Through Ray Client (ray://) this process is on no node of the cluster: the node Ray names as its own is the
        # head's, whose raylet's address is the cluster's inside (a laptop behind a tunnel never reaches it)
        on_a_node = self.head_address is not None and not str(watches_head).startswith("ray://")
        self._raylet = _this_nodes_raylet() if on_a_node else None
        # the units of work put in the object store are owned by an actor of the engine's on this node
        # (`ship`), not by this process: see `_Keeper`
        self._keeper: object | None = None
        self._keeps = on_a_node
        # what of the joined cluster stopped answering (its head, this node's raylet: `not_answering`), once it has:
        # Ray must not be asked anything more (it would hang)
        self.lost_as: str | None = None
        self._notices: object | None = None  # the actor the workers tell their waits to, started with a first map
        self._stop_signal: object | None = None  # the actor a stopped map's units are told by (`_StopSignal`)
        self._notices_asked = 0.0  # when the driver last asked it
        # (map, unit) -> its requests told lost with a worker, so far: an engine lives for every map of a command
        # (each seed of `extract --seeds N`), and a page of one map is no page of another
        self._requests_told: dict[Tally, int] = {}
        self._maps = 0  # the maps begun, which number them
        self.stops = 0  # the maps that stopped early (a result met `stop_when`): a shipping asks whether one did
        # a shared budget's actor died part way and units stopped on it: the run ends as on a lost cluster, an
        # extraction by `BudgetLostError` out of its shipping, an agent run by this (`run_agent_on_engine`)
        self.budget_lost = False
        _register_serializers()
        self._ray_prints = _quiet_ray_prints(True)

    @classmethod
    def connect(cls, *, address: str | None = None, workers: int | None = None, **options: object) -> RayEngine:
        """Join the cluster at `address`, or start a local instance of `workers` CPUs (default: all)."""
        import ray

        if ray.is_initialized():
            return cls(owns_instance=False, **options)  # type: ignore[arg-type]
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report leaves the machine
        # a unit's failure RecordLens said (a worker's death, a lost cluster) is not said again by Ray, in its own
        # words, as the command ends and its task's reference goes (Ray reads this as it would say it)
        os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")
        if address:
            _check_reachable(address)  # Ray itself retries an unreachable address for many minutes
            _check_token_accepted(address)  # and a cluster that refuses this process's token for 20 s
        try:
            with _signals_held():
                if address:
                    ray.init(address=address, log_to_driver=False, logging_level="WARNING")  # no runtime_env: the key
                else:
                    with _token_notice_left_out():
                        ray.init(address="local", num_cpus=workers or os.cpu_count() or 1,
                                 object_store_memory=OBJECT_STORE_BYTES, include_dashboard=False,
                                 log_to_driver=False, logging_level="WARNING")
        except Exception as error:  # noqa: BLE001 - Ray raises many kinds; the person needs one line
            if not address:
                raise EngineError(f"could not start a local Ray instance: {type(error).__name__}: {error}") \
                    from None
            raise EngineError(f"could not connect to Ray at {address}: {type(error).__name__}: {_as_said_here(error)}"
                              f"{_connection_hint(address, error)}") from None
        except BaseException:  # Ctrl+C or SIGTERM, held until Ray had started: no instance outlives the command
            if ray.is_initialized():
                ray.shutdown()
            raise
        return cls(owns_instance=True, watches_head=address, **options)  # type: ignore[arg-type]

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, key: Callable[[T], str] = str,
            progress: Progress = lambda names: names,
            stop_when: Callable[[R], bool] = lambda result: False,
            retried: Retried = lambda item, reason, requests: None,
            interrupted: Interrupted = lambda item, kept: None) -> Iterator[tuple[T, R | UnitFailedError]]:
        done: dict[str, tuple[T, R | UnitFailedError]] = {}
        finished = _Completions(self, fn, items, key, done, stop_when, retried, interrupted)
        # The caller may stop reading (an error, Ctrl+C): the tasks in flight are not cancelled (Ray's cancel races a
        # task that is finishing and can end this process with a check failure of Ray's own), but told to stop
        # (`stop_the_rest`): those not begun do nothing, those under way are interrupted where they are and keep what
        # they paid for, as a local run's page does, and the caller is told of each (`interrupted`). The rest end with
        # the job (`close()`: Ray kills a finished job's workers), and a page one of them finishes meanwhile is written
        # whole (`core/atomic.py`), so the next run skips it.
        try:
            for name in progress(CompletedNames(iter(finished), len(items))):
                yield done.pop(name)
        except BaseException:  # Ctrl+C, SIGTERM, an error, a caller that stopped reading: no unit goes on paying
            finished.stop_the_rest()
            raise

    @contextmanager
    def shipping(self, extractor: T, recorded: Recorded | None = None) -> Iterator[T]:
        """Swap a Gemini extractor's budget for one actor that every worker shares, for the time of a run.
        Extractors that share a budget locally (bench's Gemini formats) share one actor. When the actor's counts
        cannot be had at the end (its node or the cluster's head died), what the units `recorded` is counted."""
        caller = getattr(extractor, "caller", None)
        budget = getattr(caller, "budget", None)
        if not isinstance(budget, Budget):
            yield extractor
            return
        shared, users = self._shared.get(id(budget), (None, 0))
        if shared is None:
            shared = _DriverBudget(start_shared_budget(budget, self.requests_per_minute, self.rate_window_s))
        self._shared[id(budget)] = (shared, users + 1)
        caller.budget = shared  # type: ignore[union-attr]
        stops_before, died = self.stops, False
        try:
            yield extractor
        finally:
            caller.budget = budget  # type: ignore[union-attr]
            shared, users = self._shared.pop(id(budget))
            if users > 1:
                self._shared[id(budget)] = (shared, users - 1)
            else:
                # an extraction stopped by the budget's death says so as it ends (below), not as a warning first
                died = _count_back(shared, budget, recorded, asked=not self.lost,
                                   said=recorded is None or self.stops == stops_before)
        if died and self.stops > stops_before:  # its workers met it dead and stopped their units
            self.budget_lost = True
            if recorded is not None:  # an extraction: it ends as on a lost cluster, its pages kept
                raise BudgetLostError()

    def next_map(self) -> int:
        """A number for a map begun, that its units' requests are counted by (`Tally`)."""
        self._maps += 1
        return self._maps

    def count_unread_as_uncounted(self, unit: Tally) -> None:
        """Count the requests `unit`'s dead worker still had open (sent, their attempts not over: no answer read)
        in the shared budget they were reserved on, as answers without token counts: each was paid for, its tokens
        never read, so a token cap is no longer held by counting (`Budget.add_uncounted`) and the run's counts say
        them unknown. A request whose answer was read before the worker died is counted already. A budget not
        found, or not answering, costs the count only."""
        if self._notices is None:
            return
        try:
            name, unread = _got(self._notices.unread_of.remote(unit), NOTICE_TIMEOUT_S)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a count not had costs the count, never a Ray traceback
            return
        shared = next((shared for shared, _ in self._shared.values() if shared.name == name), None)
        for _ in range(unread if shared is not None else 0):
            # ordered before the counts the driver reads back
            shared.add_uncounted(why=LOST_WITH_A_WORKER)  # type: ignore[union-attr]

    def requests_lost_with(self, unit: Tally) -> int | None:
        """The model requests the workers reserved for `unit` (a map's number and a unit's name) that no result has
        come back with (a worker that died on it paid for them): what they told the notices' actor, less what was
        told lost before; None when it does not answer."""
        if self._notices is None:  # no unit with a Gemini caller was shipped: no request was made
            return 0
        try:
            reserved = int(_got(self._notices.requests_of.remote(unit), NOTICE_TIMEOUT_S))  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a count not had is said as unknown, never a Ray traceback
            return None
        lost = reserved - self._requests_told.get(unit, 0)
        self._requests_told[unit] = reserved
        return lost

    def notices(self) -> object:
        """The actor the workers tell what they say of their waits (`_say_to_the_driver`), started the first time a
        unit that calls Gemini is shipped (a process of Ray's: a run without a model call starts none)."""
        import ray

        if self._notices is None:
            self._notices = ray.remote(num_cpus=0)(_Notices).remote()
        return self._notices

    def stop_signal(self) -> object:
        """The actor a map's units are told by that it stopped (`_StopSignal`), started with the notices' actor (a
        unit that calls Gemini pays for what it does: one stopped part way keeps what it paid for)."""
        import ray

        if self._stop_signal is None:
            self._stop_signal = ray.remote(num_cpus=0)(_StopSignal).remote()
        return self._stop_signal

    def say_notices(self, *, now: bool = True) -> None:
        """Print on stderr what the workers said since last asked (all of it when `now`, else at most every
        NOTICES_EVERY_S), as the local engine says it. An actor that does not answer costs a notice, never the
        run."""
        if self._notices is None or self.lost or (not now and time.monotonic() - self._notices_asked
                                                   < NOTICES_EVERY_S):
            return
        self._notices_asked = time.monotonic()
        try:
            said = _got(self._notices.take.remote(), NOTICE_TIMEOUT_S)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a notice is not worth a Ray traceback (a head gone is watched apart)
            return
        for message in said:
            _say_on_stderr(message)

    @property
    def lost(self) -> bool:
        """Whether the joined cluster was lost (`lost_as`): Ray is then asked nothing more."""
        return self.lost_as is not None

    def not_answering(self) -> str | None:
        """What of the joined cluster no longer accepts a connection, said as a lost cluster says it: its head, or
        the raylet of the node this process joined it through (without it no task runs, whatever other node lives:
        a unit whose worker died with it would be said to run again, and wait forever); None while both do, and
        always for an instance not watched."""
        host, port = _host_and_port(self.head_address or "")
        if host is None:
            return None
        if not _answers(host, port):
            return HEAD_LOST
        if self._raylet is not None and not _answers(*self._raylet):
            raylet_host, raylet_port = self._raylet
            return (f"the raylet of the node this process joined it through, at {raylet_host}:{raylet_port}, no "
                    "longer answers, though its head still does")
        return None

    def cluster_lost(self, stopped: str, finished: int) -> ClusterLostError:
        """The joined cluster taken for lost, `stopped` answering (`not_answering`), with `finished` units done."""
        self.lost_as = stopped
        return ClusterLostError(self.head_address or "?", finished, stopped)

    def ship(self, unit: object) -> list[object]:
        """A map's unit of work in the object store, for its tasks to read (`_unit_of_work`), as its reference in a
        box: its bytes (`_unit_as_bytes`), put there by this process, or on a watched cluster by the engine's keeper
        on this node (`_Keeper`), which then owns them. Waited for: the bytes this process hands the keeper are
        let go once it has put them."""
        import ray

        shipped = _unit_as_bytes(unit)
        if not self._keeps:
            return [ray.put(shipped)]
        if self._keeper is None:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
            self._keeper = ray.remote(num_cpus=0, scheduling_strategy=here)(_Keeper).remote()
        return list(_got(self._keeper.keep.remote(shipped)))  # type: ignore[attr-defined]

    def close(self) -> None:
        import ray

        # A lost head: shutting down waits some seconds on it (Ray's exit handler does so once the command
        # has said why it stopped, and the process then exits as the command says, long before Ray's 60 s).
        for actor in (self._notices, self._stop_signal, self._keeper):
            if actor is not None and ray.is_initialized() and not self.lost:
                with suppress(Exception):  # a Ray this engine joined (a notebook's) keeps no idle actor of the run's
                    ray.kill(actor)
        self._notices = self._stop_signal = self._keeper = None
        if self._owns_instance and ray.is_initialized() and not self.lost:
            ray.shutdown()
        _quiet_ray_prints(not self._ray_prints)


class _Completions:
    """Submits `fn(item)` tasks, at most `2 × workers` at a time, and yields each item's key as it finishes
    (its result is put in `done`); after a result that meets `stop_when`, only drains the tasks in flight."""

    def __init__(self, engine: RayEngine, fn: Callable[[T], R], items: Sequence[T], key: Callable[[T], str],
                 done: dict[str, tuple[T, R | UnitFailedError]], stop_when: Callable[[R], bool],
                 retried: Retried, interrupted: Interrupted) -> None:
        self._engine, self._items, self._key, self._done = engine, items, key, done  # read lazily
        self._fn, self._stop_when, self._retried, self._interrupted = fn, stop_when, retried, interrupted
        self.pending: dict[object, T] = {}
        self._runs: dict[str, int] = {}  # unit -> the times it was run again after its worker died
        self._map = engine.next_map()  # its units' requests counted apart from another map's of the same pages
        self._stop_signal: object | None = None  # set as the first units are submitted, for a map that has one

    def __iter__(self) -> Iterator[str]:
        import ray

        if self._engine.lost_as is not None:  # a later map of the command (bench's next method): Ray would wait 60 s
            raise self._engine.cluster_lost(self._engine.lost_as, 0)
        engine = self._engine
        # A worker's death is met here, not by Ray's own retry (which is silent, and would run the unit again before
        # the requests its dead worker paid for are told): said, told to the caller, then run again
        task = ray.remote(num_cpus=1, max_retries=0)(_run_unit)
        with _keys_of_callers() as keys:
            fn_box = engine.ship(self._fn)  # shipped once, not once per page; boxed: the task reads it with the keys
        keys_arg = _Keys(tuple(keys))
        notices = engine.notices() if keys else None  # only a unit with a Gemini caller has waits to say
        # and what it pays for to keep when the map stops part way
        self._stop_signal = stop_signal = engine.stop_signal() if keys else None
        folder = os.getcwd()  # where the command's relative paths are, and where each unit runs if its node has it

        def submit(item: T) -> None:
            tally = (self._map, self._key(item))
            self.pending[task.remote(fn_box, keys_arg, notices, stop_signal, folder, tally, item)] = item

        queue = iter(self._items)
        limit = 2 * engine.workers
        for item in queue:
            submit(item)
            if len(self.pending) >= limit:
                break
        stopping = False
        finished = refusals = 0
        idle_since = time.monotonic()
        while self.pending:
            ready = _waited(list(self.pending), 1, NOTICES_EVERY_S)  # the workers' notices asked between
            if not ready:  # nothing finished meanwhile: a slow page (its waits said), or a head gone
                if time.monotonic() - idle_since >= WAIT_S:
                    idle_since = time.monotonic()
                    stopped = engine.not_answering()
                    refusals = 0 if stopped is None else refusals + 1
                    if stopped is not None and refusals >= LOST_AFTER:
                        raise engine.cluster_lost(stopped, finished)
                if not refusals:  # a head that does not answer is asked nothing else
                    engine.say_notices(now=False)
                continue
            refusals, idle_since = 0, time.monotonic()
            # The unit stays among those pending until its result is in `done`: a stop meanwhile tells the caller of
            # it from one or the other (`_tell_the_interrupted`), and its result is never lost between them
            ref = ready[0]
            item = self.pending[ref]
            result = _result_of(ref)
            stopped = self._cluster_lost() if isinstance(result, UnitFailedError) else None
            if stopped is not None:  # no unit runs again on it
                raise engine.cluster_lost(stopped, finished)
            if isinstance(result, UnitFailedError) and self._run_again(item, result):
                del self.pending[ref]
                submit(item)
                continue
            finished += not isinstance(result, UnitFailedError)  # a unit whose worker died wrote nothing
            self._done[self._key(item)] = (item, result)
            del self.pending[ref]
            if not stopping and not isinstance(result, UnitFailedError) and self._stop_when(result):
                stopping = True
                engine.stops += 1
            following = None if stopping else next(queue, None)
            if following is not None:
                submit(following)
            engine.say_notices(now=not self.pending)  # the last unit's waits before its result is read
            yield self._key(item)

    def stop_the_rest(self) -> None:
        """The map stopped early (Ctrl+C, SIGTERM, an error, a caller that stopped reading): its units not begun do
        nothing, and those under way are interrupted where they are (`_StopWatch`) and keep what they paid for in
        their records, as a local run's page does; waited for at most STOP_GRACE_S (a second Ctrl+C ends the wait),
        then told to the caller (`_tell_the_interrupted`), even when a second Ctrl+C ends the wait. A map without a
        stop signal (no unit calls Gemini: none pays) or whose cluster is lost is not waited for."""
        try:
            if self.pending and self._stop_signal is not None and not self._engine.lost:
                with suppress(Exception):  # a signal not told, or a wait that fails, costs the wait only
                    _got(self._stop_signal.stop.remote(self._map), NOTICE_TIMEOUT_S)  # type: ignore[attr-defined]
                    _waited(list(self.pending), len(self.pending), STOP_GRACE_S, fetch_local=False)
        finally:
            self._tell_the_interrupted()

    def _tell_the_interrupted(self) -> None:
        """Each unit that was under way as the map stopped, told to the caller (`interrupted`) with what it kept: its
        result, when it finished meanwhile (read already, not yet handed on: in `done`; or back since), else what
        its interrupt carried (`CutShort`), as a local run's stop hands it on. A unit that had not begun, whose
        worker died, that raised, or that is not back yet, is told nothing; nor, for a map without a stop signal or
        whose cluster is lost, one not read yet."""
        import ray

        for item, result in list(self._done.values()):
            if not isinstance(result, UnitFailedError):
                self._interrupted(item, result)
        refs = [ref for ref, item in self.pending.items() if self._key(item) not in self._done]
        if not refs or self._stop_signal is None or self._engine.lost:
            return
        with suppress(Exception):  # nothing back: nothing to tell
            refs, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        for ref in refs:
            try:
                kept = ray.get(ref, timeout=NOTICE_TIMEOUT_S)
            except Exception:  # noqa: BLE001 - a unit that failed kept nothing to hand on
                continue
            if kept is not None:
                self._interrupted(self.pending[ref], kept)

    def _cluster_lost(self) -> str | None:
        """What of the joined cluster no longer answers (`RayEngine.not_answering`), asked as a unit's worker died
        (its node may have been the head's): LOST_AFTER refusals in a row, WAIT_S apart, as the wait for a task
        asks; None when it answers. A unit is not said to run again, nor are its lost requests asked of an actor
        that died with the head (a wait of Ray's). Never lost for an instance that is not watched."""
        stopped: str | None = None
        for asked in range(LOST_AFTER):
            stopped = self._engine.not_answering()
            if stopped is None:
                return None
            if asked + 1 < LOST_AFTER:
                time.sleep(WAIT_S)
        return stopped

    def _run_again(self, item: T, death: UnitFailedError) -> bool:
        """Whether `item`, whose worker died, is to run again (once, as `max_retries` says); if so it is said on
        stderr, with the requests its dead worker paid for, and the caller told (`retried`) before it does. A unit
        whose death is final is told too (its requests are lost either way)."""
        name = self._key(item)
        lost = self._engine.requests_lost_with((self._map, name))
        again = self._runs.get(name, 0) < self._engine.max_retries
        self._engine.count_unread_as_uncounted((self._map, name))
        self._retried(item, str(death), lost)
        if not again:
            return False
        self._runs[name] = self._runs.get(name, 0) + 1
        paid = f"; the worker had made {counted(lost, 'model request')} on it (paid for, lost with it)" if lost else ""
        _say_on_stderr(f"{_unit_said(name)}: {death}{paid}; running it again")
        return True


def _unit_said(name: str) -> str:
    """A unit as a notice names it: a page by its name alone (extract, score, bench), said as the local engine
    names pages; an agent's episode key says what it is ("task-3 (run 0)")."""
    return name if " " in name else f"page {name}"


def _count_back(shared: _DriverBudget, budget: Budget, recorded: Recorded | None, *, asked: bool,
                said: bool = True) -> bool:
    """What the workers counted, into the driver's `budget`. When the shared budget's actor does not answer, what
    the units `recorded` instead (their records hold no request of a worker that died), said (unless not `said`:
    the caller says why); without records, said as not counted. An actor not `asked` (it died with the cluster's
    head: asking would keep the driver waiting Ray's 60 s) is not said: the command says the cluster was lost.
    Whether the actor was found dead."""
    died = False
    if asked:
        try:
            copy_counts(shared, budget)
            return False
        except EngineError as error:  # the driver's budget keeps what it held, or takes the records'
            lost, died = str(error), bool(getattr(error, "died", False))
    said = said and asked
    if recorded is None:
        if said:
            print(f"warning: {lost}; the model calls of this run are not counted back", file=sys.stderr)
        return died
    requests, tokens, uncounted, given_up = recorded()
    budget.requests += requests
    budget.tokens += tokens
    budget.uncounted += uncounted
    budget.given_up += given_up
    if said:
        print(f"warning: {lost}; the model calls of this run are counted from its pages' records "
              f"({counted(requests, 'request')}; a call of a Ray worker that died is in no record)", file=sys.stderr)
    return died


class _NotAnswering(EngineError):
    """The shared budget's actor did not answer for its counts: `died` (killed, lost with its node), or silent."""

    def __init__(self, error: Exception) -> None:
        from ray import exceptions

        self.died = isinstance(error, exceptions.RayActorError)
        super().__init__(f"the run's shared model budget (a Ray actor) does not answer: {type(error).__name__}")


class BudgetLostError(ClusterLostError):
    """An extraction's shared budget's actor died part way (killed, lost with its node): its workers stopped the
    pages that asked it for a request, and no further page started. Something the run depends on failed, as a lost
    cluster's head, and the run ends as one does (exit 4), to be run again."""

    def __init__(self) -> None:
        self.address = "the run's shared budget"
        self.stopped = "its Ray actor died"
        EngineError.__init__(  # not ClusterLostError's: its words are of a cluster's head
            self, f"{shared_budget_died('page')}: the pages finished before are kept, with what the pages it stopped "
                  "had paid for; run the same command again to go on")

    def with_finished(self, finished: int) -> ClusterLostError:
        return self  # its words count no pages


class _DriverBudget(CountsAsked):
    """The shared budget as the driver holds it: its counts come back in one question to the actor, and an actor
    that is dead, or does not answer in COUNTS_TIMEOUT_S (its node or the cluster's head is gone), is an
    `EngineError` at once rather than a wait of Ray's 60 s or a Ray traceback. It travels to the workers as the
    plain `SharedBudget` it wraps (`__reduce__`)."""

    def __init__(self, shared: SharedBudget) -> None:
        self._shared = shared
        # what the workers' requests name it by (`_Notices`), so that those a dead worker paid for are counted here
        self.name = uuid.uuid4().hex

    def __getattr__(self, name: str) -> object:  # reserve_request, add_tokens, used_up: the shared budget's own
        return getattr(self._shared, name)

    def __reduce__(self) -> tuple[object, ...]:
        _, args = self._shared.__reduce__()[:2]
        return _budget_on_a_worker, (*args, self.name)

    def counts(self) -> Counts:
        return self._answered(self._shared.counts)

    def uncounted_by_kind(self) -> dict[str, int]:
        return self._answered(self._shared.uncounted_by_kind)

    @staticmethod
    def _answered(question: Callable[..., T]) -> T:
        """The actor's answer to `question` (asked with COUNTS_TIMEOUT_S), or `_NotAnswering`."""
        from ray import exceptions

        try:
            return question(timeout=COUNTS_TIMEOUT_S)
        except (exceptions.RayError, TimeoutError) as error:  # GetTimeoutError is both
            raise _NotAnswering(error) from None


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl+C and SIGTERM held while `ray.init` starts or joins Ray, and met as the command handles them once it
    has (`signals_held`). Met part way through, a Ctrl+C could be raised inside one of Ray's C++ callbacks, which
    prints it and drops it (the run then went on to its end, exit 0) or leaves Ray half started for its exit handler
    to shut down (a segmentation fault, once). SIGTERM stays the command's (a clean stop that keeps and says what was
    done, `core/cli/command.py`): Ray's own handler, an exit at once, is not put in."""
    with signals_held(), _ray_sigterm_handler_left_out():
        yield


# Ray's logger of its authentication token's set-up, and the function of it that says, as Ray starts a local instance,
# that token authentication is on (as it is by default) and how to opt out (both private)
_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"
_TOKEN_NOTICE = "_warn_token_auth_enabled"


@contextmanager
def _token_notice_left_out() -> Iterator[None]:
    """Ray's notice that token authentication is on left off stderr while `ray.init` starts a local instance: said on
    every local run, it is nothing to act on for an instance of this command's own, on this machine, for the time
    of the command. Every other line of Ray's, its errors and its other warnings of tokens, is said as before (and
    the notice too, should Ray's private names change)."""
    def not_the_notice(record: logging.LogRecord) -> bool:
        return record.funcName != _TOKEN_NOTICE

    logger = logging.getLogger(_TOKEN_LOGGER)
    logger.addFilter(not_the_notice)
    try:
        yield
    finally:
        logger.removeFilter(not_the_notice)


@contextmanager
def _ray_sigterm_handler_left_out() -> Iterator[None]:
    """`ray.init` without the SIGTERM handler it puts in (an exit at once, even half started). (Ray's hook for it
    is private: without it, a SIGTERM is still held until Ray puts its handler in.)"""
    import ray._private.utils as ray_utils

    put_in = getattr(ray_utils, "set_sigterm_handler", None)
    if put_in is None:
        yield
        return
    ray_utils.set_sigterm_handler = lambda handler: None
    try:
        yield
    finally:
        ray_utils.set_sigterm_handler = put_in


def _waited(refs: list[Any], num_returns: int, timeout_s: float | None, *, fetch_local: bool = True) -> list[Any]:
    """`ray.wait(refs, num_returns=num_returns, timeout=timeout_s)` (None: as long as it takes) in slices of
    WAIT_SLICE_S, between which a Ctrl+C or SIGTERM is met as it comes, each apart from the next."""
    import ray

    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    while True:
        left = WAIT_SLICE_S if deadline is None else max(0.0, min(WAIT_SLICE_S, deadline - time.monotonic()))
        ready, _ = ray.wait(refs, num_returns=num_returns, timeout=left, fetch_local=fetch_local)
        if len(ready) >= num_returns or (deadline is not None and time.monotonic() >= deadline):
            return ready


def _got(ref: Any, timeout_s: float | None = None) -> Any:  # noqa: ANN401 - whatever the task or actor answers
    """`ray.get(ref, timeout=timeout_s)`, waited for in slices (`_waited`): Ray's GetTimeoutError when it is not
    there in time."""
    import ray

    _waited([ref], 1, timeout_s)
    return ray.get(ref, timeout=0)


def _result_of(ref: object) -> object:
    """The task's result; a worker's death becomes this item's `UnitFailedError`; `fn`'s own errors raise."""
    import ray
    from ray import exceptions

    died = (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError,
            exceptions.TaskCancelledError, exceptions.OutOfMemoryError, exceptions.LocalRayletDiedError)
    try:
        return ray.get(ref)
    except died as error:
        return worker_death(error)
    except exceptions.RayTaskError as error:
        if isinstance(error.cause, RecordLensError):  # the local engine's one line, not Ray's traceback
            raise error.cause from None
        raise error.as_instanceof_cause() from None


def worker_death(error: BaseException) -> UnitFailedError:
    """A unit's worker death (`error`: Ray's), said in one line: the first line of Ray's words, cut after a whole
    word when long."""
    said = str(error).strip()
    first_line = shortened(said.splitlines()[0], DEATH_WORDS) if said else ""
    return UnitFailedError(f"its Ray worker died ({type(error).__name__}{': ' + first_line if first_line else ''})")


def _quiet_ray_prints(quiet: bool) -> bool:
    """Whether Ray printed its error reports on this process's stdout before; now it does so if not `quiet`.
    Ray prints what its raylet reports (a worker that died, a task to retry) on stdout, where a command's
    `--json` document goes; RecordLens reports each unit's failure itself, and Ray keeps its logs in its session
    folder. (Ray's switch for this is private: without it, nothing changes.)"""
    import ray._private.worker as ray_worker

    before = getattr(ray_worker, "_worker_logs_enabled", True)
    if hasattr(ray_worker, "_worker_logs_enabled"):
        ray_worker._worker_logs_enabled = not quiet
    return bool(before)


class _Keeper:
    """The owner of what a run puts in a joined cluster's object store (the units of work), an actor on the node
    this process joined through. Owned by this process, such an object lost with a node (its head's, say) is
    one Ray's core worker tries to recover, and failing (an object put cannot be made again) it writes the error
    into this node's object store: with that node's raylet gone, the write fails and Ray ends this process at once
    (exit 1, "The connection to the plasma store is failed", no word of RecordLens). An object owned elsewhere is
    only borrowed here, and a borrower recovers nothing. (Ray has no other way: `ray.put`'s `_owner` is gone since
    2.56.) What it is handed is bytes (`_unit_as_bytes`), which it puts as they are: it never reads a unit, nor
    holds a Gemini key."""

    def keep(self, shipped: bytes) -> list[object]:
        """`shipped` put in the object store, owned here: its reference, boxed (a reference in a box is lent to the
        caller, not its own)."""
        import ray

        return [ray.put(shipped)]


def _answers(host: str, port: int) -> bool:
    """Whether `host:port` accepts a connection within PROBE_TIMEOUT_S."""
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S).close()
    except OSError:
        return False
    return True


def _this_nodes_raylet() -> tuple[str, int] | None:
    """The host and port of the raylet of the node this process joined the cluster through, as the cluster's
    head lists it; None when it cannot be told (that raylet is then not watched)."""
    import ray

    try:
        here = ray.get_runtime_context().get_node_id()
        node = next(node for node in ray.nodes() if node.get("NodeID") == here)
        return str(node["NodeManagerAddress"]), int(node["NodeManagerPort"])
    except Exception:  # noqa: BLE001 - Ray's private shapes: unwatched, as before
        return None


def _head_address(given: str) -> str | None:
    """The host:port of the joined cluster's head that answers while it lives: the address given (the GCS, or a
    Ray Client server), or for `auto` the GCS Ray found."""
    import ray

    if _host_and_port(given)[0] is not None:
        return given.removeprefix("ray://")
    try:
        return str(ray.get_runtime_context().gcs_address)
    except Exception:  # noqa: BLE001 - no GCS address known: the head is not watched, as before
        return None


def _check_reachable(address: str) -> None:
    """Fail at once, rather than after Ray's many minutes of retries (during which no Ctrl+C nor SIGTERM is met),
    when nothing answers at `address`'s host:port, or something that is not Ray does (a web server, the
    dashboard's port: Ray's GCS and its Ray Client server speak gRPC). `auto` and other forms are Ray's to read."""
    problem = _form_problem(address)
    if problem is not None:
        raise EngineError(f"--ray-address {address}: {problem}; give the cluster head's host:port (its GCS port, "
                          "6379 unless ray start --port gave another), ray://host:10001 for Ray Client, or auto on a "
                          "machine of the cluster")
    host, port = _host_and_port(address)
    if address.startswith("ray://") and not _has_ray_client():
        raise EngineError(f"{address} is a Ray Client address, which needs pip install 'ray[client]'; or give "
                          "--ray-address auto (or the cluster's host:port) on a machine of the cluster")
    if host is None:
        return
    if not 0 < port <= MAX_PORT:
        raise EngineError(f"cannot reach Ray at {address}: {port} is not a port number (they go from 1 to "
                          f"{MAX_PORT}): check the address")
    try:
        connection = socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        if isinstance(error, TimeoutError):
            reason = f"no answer in {CONNECT_TIMEOUT_S:g} s"
        raise EngineError(f"cannot reach Ray at {host}:{port} ({reason}): check the address and that the "
                          "cluster is running (ray status on one of its machines)") from None
    with connection:
        answered = None if _tls_asked() else _not_grpc(connection)  # TLS: Ray's own check below meets it
    if answered is not None:
        raise EngineError(f"cannot reach Ray at {host}:{port}: something else answers there ({answered}): "
                          f"{_PORT_ADVICE}")


def _not_grpc(connection: socket.socket) -> str | None:
    """What the server at the other end of `connection` does instead of answering as gRPC's servers do (Ray's GCS
    and its Ray Client server: HTTP/2, its SETTINGS frame first), said for the person; None when it answers so."""
    connection.settimeout(PROBE_TIMEOUT_S)
    try:
        connection.sendall(_GRPC_GREETING)
        first = b""
        while len(first) < _FRAME_HEADER_BYTES:
            more = connection.recv(64)
            if not more:
                break
            first += more
    except TimeoutError:
        return f"no answer to a gRPC greeting in {PROBE_TIMEOUT_S:g} s"
    except OSError as error:
        return f"it closed the connection ({error.strerror or type(error).__name__})"
    if len(first) >= _FRAME_HEADER_BYTES and first[3] == _SETTINGS_FRAME:
        return None
    if not first:
        return "it closed the connection at a gRPC greeting"
    line = first.split(b"\n", 1)[0].strip()
    if line.isascii() and line.decode().isprintable():
        return f"it answered {line.decode()[:40]!r}"
    return "its answer is not gRPC's"


def _tls_asked() -> bool:
    """Whether Ray speaks TLS here (`RAY_USE_TLS`, as Ray reads it): a plain gRPC greeting would then be refused."""
    return os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true")


MAX_PORT = 65535
# HTTP/2's client preface, then an empty SETTINGS frame: a gRPC server answers with its own SETTINGS frame first
_GRPC_GREETING = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes((0, 0, 0, 4, 0, 0, 0, 0, 0))
_FRAME_HEADER_BYTES = 9  # length (3), type (1), flags (1), stream (4)
_SETTINGS_FRAME = 4
_GRPC_UNIMPLEMENTED = 12  # gRPC's status for a service the server does not have
# What to check when the port answers but not as Ray
_PORT_ADVICE = ("check the port: --ray-address takes the cluster head's GCS port (6379, unless ray start --port gave "
                "another), or ray://host:10001 for Ray Client; 8265 is the dashboard's")


def _check_token_accepted(address: str) -> None:
    """Fail at once when the cluster at `address` (host:port) asks for Ray's authentication token and refuses
    this process's (none set, or another one): `ray.init` would ask again every second for about 20 s, each time
    printing a warning of Ray's C++ code; or when no Ray GCS answers there in time (a gRPC server that is not
    Ray's, one of TLS not asked for): `ray.init` would retry for many minutes. One question to the cluster's GCS,
    with Ray's own client, whose warnings are kept off the terminal; any other answer is `ray.init`'s to meet, as
    before. (Ray's client for this is private: without it, nothing changes.)"""
    if _host_and_port(address)[0] is None or address.startswith("ray://"):
        return
    import ray._raylet as raylet
    from ray import exceptions

    refused = getattr(exceptions, "AuthenticationError", None)
    ask = getattr(getattr(raylet, "InnerGcsClient", None), "standalone", None)
    if refused is None or ask is None:
        return
    _check_token_set(refused, address)
    try:
        with _native_stderr_muted():
            ask(address, None, int(CONNECT_TIMEOUT_S * 1000))
    except refused:
        raise EngineError(f"could not connect to Ray at {address}: the cluster asks for its authentication token"
                          f"{_token_advice(refused=True)}") from None
    except exceptions.RpcError as error:
        timed_out = "timed out" in str(error).lower()
        if not timed_out and getattr(error, "rpc_code", None) != _GRPC_UNIMPLEMENTED:
            return  # neither no answer nor another gRPC service (a node's raylet): ray.init says what it is
        said = "no answer" if timed_out else "a gRPC server without Ray's GCS service, a node's raylet maybe"
        raise EngineError(f"cannot reach Ray at {address}: its port answers, but no Ray GCS does ({said}): "
                          f"{_PORT_ADVICE}") from None
    except Exception:  # noqa: BLE001 - not a refused token: ray.init says what it is
        return


def _check_token_set(refused: type[Exception], address: str) -> None:
    """Fail at once when `RAY_AUTH_MODE=token` is set but no token is: Ray's client then ends this process from its
    C++ code (exit 1, its words only). Ray's own check, as `ray.init` makes it first (private: without it, nothing
    changes)."""
    try:
        from ray._private.authentication.authentication_token_setup import ensure_token_if_auth_enabled
    except ImportError:
        return
    try:
        ensure_token_if_auth_enabled(None, create_token_if_missing=False)
    except refused:
        raise EngineError(f"could not connect to Ray at {address}: RAY_AUTH_MODE=token asks for the cluster's "
                          "token, and none is set here: set RAY_AUTH_TOKEN to it, or put it in ~/.ray/auth_token (or "
                          "in a file RAY_AUTH_TOKEN_PATH names); or run on a machine of the cluster with --ray-address "
                          "auto") from None
    except Exception:  # noqa: BLE001 - anything else is ray.init's to meet
        return


@contextmanager
def _native_stderr_muted() -> Iterator[None]:
    """This process's file descriptor 2 sent to /dev/null for the time of a call whose C++ code writes its own
    warnings there (what the call meets is said by the caller, in one line)."""
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _host_and_port(address: str) -> tuple[str | None, int]:
    """`host:port` of an address (`ray://` or not); (None, 0) for `auto`, `local` and forms Ray reads itself."""
    rest = address.removeprefix("ray://")
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        return None, 0
    return host.strip("[]"), int(port)


def _form_problem(address: str) -> str | None:
    """What is wrong with the form of `address` before Ray reads it (Ray's own words would name another host than
    the one given, its guess of this machine's), or None: `auto` and `local` are Ray's; otherwise host:port, whose
    port is a number, or ray://host[:port] (Ray Client's port has a default)."""
    if address in ("auto", "local"):
        return None
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon:
        return None if address.startswith("ray://") else "no port is given"
    if not host.strip("[]"):
        return "no host is given"
    if not port:
        return "no port is given"
    return None if port.isdigit() else f"{port} is not a port number"


def _has_ray_client() -> bool:
    """Whether Ray Client (`ray://`) can run here: it needs the `ray[client]` packages (gRPC, as Ray checks)."""
    try:
        import grpc  # noqa: F401
    except ImportError:
        return False
    return True


# Ray's words for its own tools' option of the address ("setting [the] `--address` flag"): this command's is another
_RAYS_ADDRESS_OPTION = re.compile(r"(?:the )?`--address` flag")


def _as_said_here(error: Exception) -> str:
    """Ray's words of why it could not connect, naming this command's option where they name Ray's own."""
    return _RAYS_ADDRESS_OPTION.sub("--ray-address", str(error))


def _connection_hint(address: str, error: Exception) -> str:
    """What to try when the port answers but Ray would not let this process join."""
    if _host_and_port(address)[0] is None or not isinstance(error, ConnectionError):
        return ""
    return f"; the port answers, so the cluster may ask for its authentication token{_token_advice()}"


def _token_advice(refused: bool = False) -> str:
    """What to do about a cluster that asks for Ray's authentication token; `refused`: it refused this process's
    (said as such). A token this machine holds is not sent unless RAY_AUTH_MODE=token is set (Ray reads one by
    itself only for a cluster it finds, `auto`, never for an address given): that is said, rather than to set a
    token that is there already."""
    held = _token_held()
    if held is not None and os.environ.get("RAY_AUTH_MODE", "").strip().lower() != "token":
        opening = ", and this process sent none" if refused else ""
        return (f"{opening}: {held} holds one, but Ray sends it to a cluster at an address given only when "
                "RAY_AUTH_MODE=token is set: set RAY_AUTH_MODE=token (or run on a machine of the cluster with "
                "--ray-address auto)")
    opening = " and refused this process's (none set, or another)" if refused else ""
    return (f"{opening}: run on a machine of the cluster with --ray-address auto, or set RAY_AUTH_MODE=token and the "
            "cluster's token (RAY_AUTH_TOKEN, or ~/.ray/auth_token)")


def _token_held() -> str | None:
    """Where this process would take Ray's authentication token from, as Ray looks for one (the variable
    RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH names, ~/.ray/auth_token), said as the person would name it; None
    when there is none."""
    if os.environ.get("RAY_AUTH_TOKEN", "").strip():
        return "RAY_AUTH_TOKEN"
    named = os.environ.get("RAY_AUTH_TOKEN_PATH", "").strip()
    if named:
        return named if _holds_something(Path(named).expanduser()) else None
    default = Path.home() / ".ray" / "auth_token"
    return "~/.ray/auth_token" if _holds_something(default) else None


def _holds_something(path: Path) -> bool:
    try:
        return path.is_file() and path.stat().st_size > 0
    except OSError:
        return False


def _run_unit(fn_box: list[object], keys: _Keys, notices: object, stop_signal: object, folder: str, unit: Tally,
              item: T) -> R | CutShort | None:
    """One task: the unit of work (`_unit_of_work`) run on `item` in the command's `folder`; what it says of its
    waits goes to `notices` (the driver prints it), and each request it reserves is told there as `unit`'s (its
    map's number and its name). Its map stopped (`stop_signal`, `_StopWatch`): nothing is done if it had not
    begun (None), and one interrupted part way has kept what it paid for, as a local run's page does, and hands on
    what its interrupt carried (`CutShort`: an episode as it stood), for the driver to tell its caller."""
    global _told
    if stop_signal is not None and _STOP_WATCH.stopped_before(stop_signal, unit[0]):
        return None
    fn: Callable[[T], R] = _unit_of_work(fn_box, keys)
    _told = _Told(notices, unit)
    result: list[R] = []  # the unit's result once it is had: a stop that comes after it does not take its place
    try:
        with _in_the_commands_folder(folder), _STOP_WATCH.watching(stop_signal, unit[0]):
            result.append(_STOP_WATCH.run(fn, item))
        return result[0]
    except KeyboardInterrupt as stop:
        if result:  # finished as the stop came: its result, which the driver hands on as a finished unit's
            return result[0]
        if _STOP_WATCH.stopped(stop_signal, unit[0]):  # the driver's stop, met part way: its record keeps what
            _STOP_WATCH.ended()  # was paid for
            return CutShort(paid_carried(stop))
        raise
    finally:
        _told = None


class _StopSignal:
    """The actor the driver tells that a map stopped (Ctrl+C, SIGTERM, an error: `_Completions.stop_the_rest`),
    and that its workers' watches ask (`_StopWatch`): an answer waits until the map stops, or `within_s` passes, so
    a stop is known at once with one question open per worker (an async actor: each waits apart)."""

    def __init__(self) -> None:
        self._stopped: dict[int, asyncio.Event] = {}

    def _of(self, map_number: int) -> asyncio.Event:
        return self._stopped.setdefault(map_number, asyncio.Event())

    async def stop(self, map_number: int) -> None:
        self._of(map_number).set()

    async def stopped(self, map_number: int, within_s: float = 0.0) -> bool:
        event = self._of(map_number)
        if not event.is_set() and within_s > 0:
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), within_s)
        return event.is_set()


class _StopWatch:
    """A worker's watch over the unit it runs: one thread that asks the stop signal of the unit's map (waiting on
    it, `_StopSignal.stopped`) and, told the map stopped, interrupts the unit where it is, as Ctrl+C interrupts a
    local run: a KeyboardInterrupt in the worker's main thread (by STOP_SIGNAL, which wakes a wait there), once per
    unit and only while its work runs (`run`), so that its page keeps what it paid for in its record ("interrupted",
    its calls) and sends nothing more, and a unit that has finished keeps its result. A request the unit would
    reserve once its map is known stopped is not made (`interrupt_if_stopped`).

    A map is known by its stop signal (an actor of its engine's) with its number: a worker lives on in its Ray job
    from one engine to the next (a notebook's, an embedding program's), and each engine numbers its maps from 1."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._watched: tuple[object, int, int] | None = None  # the stop signal, map and number of the unit under way
        self._units = 0  # the units watched so far, which number them
        self._interrupted = 0  # the number of the unit last interrupted (the thread signals a unit once)
        self._raised = 0  # the number of the unit last raised in (the handler raises in a unit once)
        self._running = 0  # the number of the unit whose work runs now (`run`), else 0
        self._stopped: set[tuple[object, int]] = set()  # the maps known stopped: (stop signal, map number)
        self._thread: threading.Thread | None = None

    def stopped(self, stop_signal: object, map_number: int) -> bool:
        return (stop_signal, map_number) in self._stopped

    def stopped_before(self, stop_signal: object, map_number: int) -> bool:
        """Whether the unit's map stopped before the unit began (asked of the stop signal, not waited for)."""
        import ray

        if not self.stopped(stop_signal, map_number):
            with suppress(Exception):  # a signal that does not answer: the unit runs, as before
                if ray.get(stop_signal.stopped.remote(map_number),  # type: ignore[attr-defined]
                           timeout=NOTICE_TIMEOUT_S):
                    self._stopped.add((stop_signal, map_number))
        return self.stopped(stop_signal, map_number)

    @contextmanager
    def watching(self, stop_signal: object, map_number: int) -> Iterator[None]:
        """The unit under way watched (when its map has a stop signal, and it runs in the main thread, as a task
        does)."""
        if stop_signal is None or threading.current_thread() is not threading.main_thread():
            yield
            return
        signal.signal(STOP_SIGNAL, self._interrupt_here)
        with self._changed:
            self._units += 1
            self._watched = (stop_signal, map_number, self._units)
            self._changed.notify_all()
        if self._thread is None:
            self._thread = threading.Thread(target=self._watch, name="recordlens-stop-watch", daemon=True)
            self._thread.start()
        try:
            yield
        finally:
            self.ended()

    def run(self, fn: Callable[[T], R], item: T) -> R:
        """`fn(item)`, the unit's work, which alone a stop interrupts (`_interrupt_here`): one that comes as the
        unit ends (its result had, its folder left) interrupts nothing."""
        watched = self._watched
        self._running = watched[2] if watched is not None else 0
        try:
            self.interrupt_if_stopped()  # stopped as it began: a signal that came before its work ran
            return fn(item)
        finally:
            self._running = 0

    def ended(self) -> None:
        """No unit under way (again, after an interrupt that came as the unit ended: the handler raises once)."""
        with self._changed:
            self._watched = None
            self._changed.notify_all()

    def interrupt_if_stopped(self) -> None:
        """A request about to be reserved by the unit under way: none once its map is known stopped."""
        watched = self._watched
        if watched is not None and self.stopped(watched[0], watched[1]):
            raise KeyboardInterrupt

    def _watch(self) -> None:
        import ray

        while True:
            with self._changed:
                while self._watched is None or self._watched[2] == self._interrupted:
                    self._changed.wait()
                stop_signal, map_number, unit = self._watched
            try:
                stopped = ray.get(stop_signal.stopped.remote(map_number, STOP_WAIT_S),  # type: ignore[attr-defined]
                                  timeout=STOP_WAIT_S + NOTICE_TIMEOUT_S)
            except Exception:  # noqa: BLE001 - a signal that does not answer: asked again, a while later
                time.sleep(STOP_WAIT_S)
                continue
            if not stopped:
                continue
            self._stopped.add((stop_signal, map_number))
            with self._changed:
                if self._watched is not None and self._watched[2] == unit:
                    self._interrupted = unit
                    signal.pthread_kill(threading.main_thread().ident or 0, STOP_SIGNAL)

    def _interrupt_here(self, number: int, frame: object) -> None:
        """STOP_SIGNAL's handler, in the main thread: the unit under way interrupted, once, if it is the one the
        watch signalled and its work runs (a signal that comes once it has finished does nothing)."""
        watched = self._watched
        if watched is not None and watched[2] == self._interrupted == self._running != self._raised:
            self._raised = watched[2]
            raise KeyboardInterrupt


_STOP_WATCH = _StopWatch()  # a worker's, for every unit it runs


# The unit of work this worker process read last, by its object's id: every task of a map names the same object,
# which is read (unpickled: an extractor's model is megabytes, 0.1-0.3 s a page) once per worker, not per task. One
# only: a worker that goes on to another map (bench's next method) holds that one's instead.
_unit_read: tuple[bytes, Callable[..., object]] | None = None


def _unit_of_work(fn_box: list[object], keys: _Keys) -> Callable[..., R]:
    """The map's unit of work, read from the object store with the keys its callers need the first time this
    worker runs one of its tasks; the same object after (as the local engine runs one for every page). Its id is
    kept, not its reference: a worker holds no object of the store once its map is done."""
    import ray

    global _unit_read
    ref = fn_box[0]
    read_as = ref.binary()  # type: ignore[attr-defined]
    if _unit_read is None or _unit_read[0] != read_as:
        _unit_read = None  # the last map's unit let go before this one is read
        shipped = ray.get(ref)
        with _keys_for_callers(keys.values):
            _unit_read = (read_as, _unit_from_bytes(shipped))
    return _unit_read[1]  # type: ignore[return-value]


def _has_folder(folder: str) -> bool:
    """Whether this node has the command's `folder` to run a unit in (one machine, or the same path on a node)."""
    return os.path.isdir(folder) and os.access(folder, os.X_OK)


@contextmanager
def _in_the_commands_folder(folder: str) -> Iterator[None]:
    """The unit run in the command's folder, as the local engine runs it: its relative paths (`_path_arrived`) name
    the command's files and are said as given. Where this node has no such folder they arrived absolute, and the
    worker stays where it is."""
    if not _has_folder(folder):
        yield
        return
    here = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(here)  # the worker's own folder for Ray's code between tasks


class _Notices:
    """The actor a run's workers tell what they say of their waits, in the order said, until the driver takes it;
    and each model request they reserve, by map and unit (so that the requests of a worker that died are known)."""

    def __init__(self) -> None:
        self._said: list[str] = []
        self._requests: dict[Tally, int] = {}
        self._budgets: dict[Tally, str] = {}  # the name of the shared budget a unit's requests were reserved on
        self._open: dict[Tally, int] = {}  # a unit's requests reserved whose attempt is not over (no answer read)

    def reserved(self, unit: Tally, budget: str | None = None) -> None:
        self._requests[unit] = self._requests.get(unit, 0) + 1
        self._open[unit] = self._open.get(unit, 0) + 1
        if budget is not None:
            self._budgets[unit] = budget

    def over(self, unit: Tally) -> None:
        self._open[unit] = max(0, self._open.get(unit, 0) - 1)

    def unread_of(self, unit: Tally) -> tuple[str | None, int]:
        """The shared budget `unit`'s requests were reserved on, and those still open, told once (it runs again)."""
        return self._budgets.get(unit), self._open.pop(unit, 0)

    def released(self, unit: Tally) -> None:
        self._requests[unit] = self._requests.get(unit, 0) - 1

    def requests_of(self, unit: Tally) -> int:
        return self._requests.get(unit, 0)

    def say(self, message: str) -> None:
        self._said.append(message)

    def take(self) -> list[str]:
        said, self._said = self._said, []
        return said


class _Told:
    """Where a worker's notices go while it runs a unit (a worker runs one task at a time), the unit's name, and
    what its requests are counted as (`Tally`)."""

    def __init__(self, notices: object, tally: Tally) -> None:
        self.notices = notices
        self.tally = tally
        self.unit = tally[1]
        self.about: str | None = None  # what the model call under way is for ("page 12"), as its caller names it


_told: _Told | None = None


def _say_to_the_driver(message: str) -> None:
    """A worker's notice, printed by the driver on its stderr; here, when there is no driver to tell (a caller
    used outside a unit) or it cannot be told (the message then stays in Ray's log of the worker)."""
    told = _told
    if told is not None and told.notices is not None:
        import ray

        try:
            # waited for: the notice is the actor's before the unit's result is the driver's
            ray.get(told.notices.say.remote(message), timeout=NOTICE_TIMEOUT_S)  # type: ignore[attr-defined]
            return
        except Exception:  # noqa: BLE001 - a notice is not worth failing a page for
            pass
    _say_on_stderr(message)


def _say_on_stderr(message: str) -> None:
    """A notice on stderr; a stderr that is closed or cannot be written drops it, and the work goes on."""
    if sys.stderr is None:
        return
    with suppress(OSError, ValueError):
        print(message, file=sys.stderr, flush=True)


def _wait_for_the_rate_limit(seconds: float) -> None:
    """The wait `--requests-per-minute` asks of a worker, said as a wait to retry is when it is long, naming the
    page (the call's `about`, "page 12", else the unit's name: an `agent run` episode's)."""
    if seconds > WAIT_NOTICE_S:
        told = _told
        about = (told.about or told.unit) if told is not None else None
        _say_to_the_driver(f"{about + ': ' if about else ''}waiting {seconds:.0f} s for --requests-per-minute "
                           "(one limit for all workers)")
    time.sleep(seconds)


def _budget_on_a_worker(actor: object, max_requests: int | None, max_tokens: int | None,
                        name: str | None = None) -> SharedBudget:
    """The shared budget as a worker gets it, with the run's caps (`max_requests`, `max_tokens`): its waits for
    `--requests-per-minute` are said, and each request it reserves is told to the driver's notices' actor, by unit,
    with the `name` the driver knows the budget by."""
    return _BudgetOnAWorker(actor, name, sleep=_wait_for_the_rate_limit, max_requests=max_requests,
                            max_tokens=max_tokens)


class _BudgetOnAWorker(SharedBudget):
    """The shared budget whose every request reserved is told (`_tell_the_request`) before it is made; and what a
    unit gives back or adds (a reservation its refused attempt never used, an answer's tokens) is counted by the
    actor before the unit goes on (`_counted_now`), so before its result is the driver's: the driver reads the
    counts once the last unit's result is in (`_count_back`), and a call from another process is not ordered after
    this one's (sent without waiting, some 3 in 100 were not there yet: a refused attempt counted as a request, an
    answer's tokens left out)."""

    def __init__(self, actor: object, name: str | None = None, sleep: Callable[[float], None] = time.sleep, *,
                 max_requests: int | None = None, max_tokens: int | None = None) -> None:
        super().__init__(actor, sleep, max_requests=max_requests, max_tokens=max_tokens)
        self.name = name  # the driver's name for it (`_DriverBudget.name`)

    def reserve_request(self) -> None:
        _STOP_WATCH.interrupt_if_stopped()  # the map stopped: no request more, as after a local Ctrl+C
        super().reserve_request()
        _tell_the_request(budget=self.name)

    def release_request(self) -> None:
        _counted_now(self._actor.release.remote())  # type: ignore[attr-defined]
        _tell_the_request(released=True)

    def add_tokens(self, count: int) -> None:
        _counted_now(self._actor.add_tokens.remote(count))  # type: ignore[attr-defined]

    def add_uncounted(self, given_up: bool = False, why: str | None = None) -> None:
        _counted_now(told_uncounted(self._actor, given_up, why))


def _counted_now(told: object) -> None:
    """Wait for the shared budget's actor to have counted what it was `told` (its reference), at most
    COUNTS_TIMEOUT_S: an actor that does not answer (lost with its node) costs the count only, as before, which the
    driver then counts from the units' records (`_count_back`)."""
    import ray

    with suppress(Exception):
        ray.get(told, timeout=COUNTS_TIMEOUT_S)


def _tell_the_request(released: bool = False, budget: str | None = None, over: bool = False) -> None:
    """A request reserved for the unit this worker runs, told before it is made (waited for: a worker killed as it
    makes it has told it), so that a worker's death says what it had paid for; untold, it costs the count only.
    `released`: one reserved that never reached a server (its connection refused), told so that it is not counted
    among those a dead worker paid for. `budget`: the name of the shared budget it was reserved on. `over`: its
    attempt ended, what it cost counted (an answer read, or an error), so it is no longer open."""
    told = _told
    if told is None or told.notices is None:
        return
    import ray

    notices: Any = told.notices
    with suppress(Exception):
        if over:
            tell = notices.over.remote(told.tally)
        else:
            tell = notices.released.remote(told.tally) if released else notices.reserved.remote(told.tally, budget)
        ray.get(tell, timeout=NOTICE_TIMEOUT_S)


def _attempt_told_over() -> None:
    """A worker's caller's attempt ended, what it cost counted: its request is no longer open (`_tell_the_request`)."""
    _tell_the_request(over=True)


class _CallerOnAWorker(GeminiCaller):
    """A `GeminiCaller` as a worker rebuilds it: what it says of its waits goes to the driver, the call it makes is
    named (`about`) for a wait its shared budget asks, and each attempt over is told, as its request was told
    reserved (`_tell_the_request`): one still open when the worker dies was paid for, its tokens never read. That
    tell is its `on_attempt_over`, the hook every caller has: whoever keeps a page's spending (`spending_told`)
    calls it before its own and puts it back after."""

    def __init__(self, *args: Any, **options: Any) -> None:  # noqa: ANN401 - GeminiCaller's own
        super().__init__(*args, **options)
        self.on_attempt_over = _attempt_told_over

    def generate(self, prompt: str, *, about: str | None = None, **options: object) -> Answer:
        told = _told
        if told is not None:
            told.about = about
        try:
            return super().generate(prompt, about=about, **options)  # type: ignore[arg-type]
        finally:
            if told is not None:
                told.about = None


class _Keys:
    """The Gemini keys of a unit's callers, as a task's argument: in memory, inlined in the task; its repr (in
    a Ray error or a log line) says nothing of them."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values

    def __repr__(self) -> str:
        return f"<{len(self.values)} Gemini key(s)>"


_keys: list[str] | None = None  # the driver: the keys met while a unit is serialized; a worker: those of its task


@contextmanager
def _keys_of_callers() -> Iterator[list[str]]:
    """The keys of the callers serialized meanwhile, each once, in the order of the slots they were given."""
    global _keys
    _keys = []
    try:
        yield _keys
    finally:
        _keys = None


@contextmanager
def _keys_for_callers(values: tuple[str, ...]) -> Iterator[None]:
    global _keys
    _keys = list(values)
    try:
        yield
    finally:
        _keys = None


def _key_slot(caller: GeminiCaller) -> int:
    """The slot of `caller`'s key in the task's keys (added if new): the key goes with the task, not the unit."""
    if _keys is None:
        raise EngineError("a Gemini caller reached Ray outside an engine's map (its key would not go with it)")
    key = caller._api_key  # noqa: SLF001 - read only here, to hand it to the worker in memory
    if key not in _keys:
        _keys.append(key)
    return _keys.index(key)


_registered = False


def _register_serializers() -> None:
    """What travels to a worker, for every unit of work of every command: a path as given, with the command's
    folder (`_path_arrived`); a GeminiCaller as (settings, shared budget, its key's slot in the
    task's keys) and where that key came from (as advice about a refused key names it), never its key, never its
    HTTP client."""
    global _registered
    if _registered:
        return
    import ray.util

    ray.util.register_serializer(GeminiCaller, serializer=_caller_parts, deserializer=_caller_from_parts)
    ray.util.register_serializer(type(Path()), serializer=_path_shipped, deserializer=_path_arrived)
    _registered = True


def _unit_as_bytes(unit: object) -> bytes:
    """A map's unit of work as bytes, pickled as Ray would send it (its Gemini callers and paths as the serializers
    registered here make them travel: `_caller_parts`, `_path_shipped`), for whichever process puts it in the
    object store to put as it is; read back on a worker by `_unit_from_bytes`, with the task's keys."""
    import io

    from ray import cloudpickle

    class UnitPickler(cloudpickle.Pickler):  # type: ignore[misc, name-defined]
        def reducer_override(self, obj: object) -> object:
            if isinstance(obj, GeminiCaller):
                return _caller_from_parts, (_caller_parts(obj),)
            if isinstance(obj, type(Path())):
                return _path_arrived, (_path_shipped(obj),)
            return super().reducer_override(obj)

    written = io.BytesIO()
    UnitPickler(written, protocol=5).dump(unit)
    return written.getvalue()


def _unit_from_bytes(shipped: bytes) -> object:
    """A unit of work from its bytes (`_unit_as_bytes`); its Gemini callers take their keys from the task's
    (`_keys_for_callers`)."""
    from ray import cloudpickle

    return cloudpickle.loads(shipped)


def _caller_parts(caller: GeminiCaller) -> tuple[object, object, int, str | None]:
    """What a Gemini caller travels as: its settings, its shared budget, its key's slot in the task's keys and
    where that key came from (`_caller_from_parts` rebuilds it)."""
    if not isinstance(caller.budget, (SharedBudget, _DriverBudget)):
        raise EngineError("a Gemini extractor reached Ray without its shared budget (use engine.shipping)")
    return caller.settings, caller.budget, _key_slot(caller), caller.key_origin


def _path_shipped(path: Path) -> tuple[str, str | None, str]:
    """A path as it travels: as given; the command's folder, for a relative one; and made absolute there."""
    return str(path), None if path.is_absolute() else os.getcwd(), absolute_path(path)


def _path_arrived(parts: tuple[str, str | None, str]) -> Path:
    """A path as a unit gets it: as the command was given it, for the unit runs in the command's folder
    (`_in_the_commands_folder`); absolute where this node has no such folder."""
    given, folder, absolute = parts
    return Path(given if folder is None or _has_folder(folder) else absolute)


def _caller_from_parts(parts: tuple[object, object, int, str | None]) -> GeminiCaller:
    settings, budget, slot, key_origin = parts
    if _keys is None or slot >= len(_keys):
        raise EngineError("a Gemini caller arrived on a Ray worker without its key")
    return _CallerOnAWorker(settings, api_key=_keys[slot], budget=budget,  # type: ignore[arg-type]
                            notify=_say_to_the_driver, key_origin=key_origin)
