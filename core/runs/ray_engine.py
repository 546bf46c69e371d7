"""The Ray engine: units of work (pages) as Ray tasks on a local instance or an existing cluster.

Imported only for `--engine ray` (Ray is the optional extra `recordlens[ray]`). Contracts:

- **Same results.** A task runs the very function the local engine runs (one page of the runner's loop, one
  page's score), which writes its files through `core/atomic.py` before it returns; the driver only folds the
  small results. A task whose worker dies is retried once (`max_retries`); a page whose retry dies too is
  reported as failed, by page and with the worker's death, and the finished pages stay as written.
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
- **The command's files.** A path travels absolute, made so in the command's folder (a serializer registered
  here, for every unit of every command): a worker runs in the folder its instance or node was started from.
- **Stdout is the command's.** Ray's own error reports (a worker that died, a task to retry), which it prints on
  stdout, are off while the engine is open: RecordLens reports each unit's failure itself.
- **Own instance, own shutdown.** A Ray already initialised in this process (a test fixture, a notebook) is
  used as it is and left running; one this engine started is shut down by `close()`.
- **A lost cluster is said.** When a joined cluster's head dies, Ray's C++ code waits 60 s for its GCS and then
  ends the process itself, before any Python `finally` runs. So while no task finishes the driver asks the GCS's
  port every few seconds, and after `LOST_AFTER` refusals in a row raises `ClusterLostError` (what finished is
  written and kept); `close()` then leaves Ray's shutdown to its exit handler, after the command has said it.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

from ..errors import RecordLensError
from ..llm.gemini import Budget, GeminiCaller
from ..llm.shared_budget import CountsAsked, SharedBudget, copy_counts, start_shared_budget
from .engines import ClusterLostError, CompletedNames, EngineError, Progress, UnitFailedError, absolute_path

T = TypeVar("T")
R = TypeVar("R")
CONNECT_TIMEOUT_S = 5.0  # a cluster's port answers at once; a wrong host or a firewall would not
WAIT_S = 2.0  # how long the driver waits for a task before it asks whether the cluster's head still answers
PROBE_TIMEOUT_S = 2.0  # a head that is up accepts a connection at once (its kernel does, however busy it is)
LOST_AFTER = 2  # refusals in a row that mean the head is gone, well before Ray's own 60 s (one may be a blip)
COUNTS_TIMEOUT_S = 10.0  # a live actor answers in milliseconds; one gone would keep the driver waiting 60 s
OBJECT_STORE_BYTES = 200 * 1024 * 1024  # results are small; Ray's default (30% of RAM) would be wasted here


class RayEngine:
    name = "ray"

    def __init__(self, *, owns_instance: bool, max_retries: int = 1, requests_per_minute: int | None = None,
                 ships_content: bool = False, watches_head: str | None = None) -> None:
        import ray

        self._owns_instance = owns_instance
        self.max_retries = max_retries
        self.requests_per_minute = requests_per_minute
        self._shared: dict[int, tuple[_DriverBudget, int]] = {}  # id(local Budget) -> its actor, its users
        self.ships_content = ships_content  # no shared storage: pages and their files travel as bytes
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        # A cluster joined (not an instance of this process's own) is watched: its head may die under the run.
        self.head_address = _head_address(watches_head) if owns_instance and watches_head else None
        self.lost = False  # its head stopped answering: Ray must not be asked anything more (it would hang)
        _register_serializers()
        self._ray_prints = _quiet_ray_prints(True)

    @classmethod
    def connect(cls, *, address: str | None = None, workers: int | None = None, **options: object) -> RayEngine:
        """Join the cluster at `address`, or start a local instance of `workers` CPUs (default: all)."""
        import ray

        if ray.is_initialized():
            return cls(owns_instance=False, **options)  # type: ignore[arg-type]
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage report leaves the machine
        if address:
            _check_reachable(address)  # Ray itself retries an unreachable address for many minutes
        try:
            with _sigterm_kept():
                if address:
                    ray.init(address=address, log_to_driver=False, logging_level="WARNING")  # no runtime_env: the key
                else:
                    ray.init(address="local", num_cpus=workers or os.cpu_count() or 1,
                             object_store_memory=OBJECT_STORE_BYTES, include_dashboard=False, log_to_driver=False,
                             logging_level="WARNING")
        except Exception as error:  # noqa: BLE001 - Ray raises many kinds; the person needs one line
            if not address:
                raise EngineError(f"could not start a local Ray instance: {type(error).__name__}: {error}") \
                    from None
            raise EngineError(f"could not connect to Ray at {address}: {type(error).__name__}: {error}"
                              f"{_connection_hint(address, error)}") from None
        return cls(owns_instance=True, watches_head=address, **options)  # type: ignore[arg-type]

    def map(self, fn: Callable[[T], R], items: Sequence[T], *, key: Callable[[T], str] = str,
            progress: Progress = lambda names: names,
            stop_when: Callable[[R], bool] = lambda result: False) -> Iterator[tuple[T, R | UnitFailedError]]:
        done: dict[str, tuple[T, R | UnitFailedError]] = {}
        finished = _Completions(self, fn, items, key, done, stop_when)
        # The caller may stop reading (an error, Ctrl+C): the tasks in flight are left, not cancelled. Ray's cancel
        # races a task that is finishing and can end this process with a check failure of Ray's own; the tasks
        # left end with the job (`close()`: Ray kills a finished job's workers; with a Ray this process did not
        # start, at most 2 × workers of them run to their end), and a page one of them finishes meanwhile is
        # written whole (`core/atomic.py`), so the next run skips it.
        for name in progress(CompletedNames(iter(finished), len(items))):
            yield done.pop(name)

    @contextmanager
    def shipping(self, extractor: T) -> Iterator[T]:
        """Swap a Gemini extractor's budget for one actor that every worker shares, for the time of a run.
        Extractors that share a budget locally (bench's Gemini formats) share one actor."""
        caller = getattr(extractor, "caller", None)
        budget = getattr(caller, "budget", None)
        if not isinstance(budget, Budget):
            yield extractor
            return
        shared, users = self._shared.get(id(budget), (None, 0))
        if shared is None:
            shared = _DriverBudget(start_shared_budget(budget, self.requests_per_minute))
        self._shared[id(budget)] = (shared, users + 1)
        caller.budget = shared  # type: ignore[union-attr]
        try:
            yield extractor
        finally:
            caller.budget = budget  # type: ignore[union-attr]
            shared, users = self._shared.pop(id(budget))
            if users > 1:
                self._shared[id(budget)] = (shared, users - 1)
            elif not self.lost:  # the actor died with the head: asking it would wait for Ray's 60 s
                try:
                    copy_counts(shared, budget)
                except EngineError as error:  # the driver's budget keeps what it held: the command says so
                    print(f"warning: {error}; the model calls of this run are not counted back", file=sys.stderr)

    def head_answers(self) -> bool:
        """Whether the joined cluster's head still accepts a connection (always so for an instance not watched)."""
        host, port = _host_and_port(self.head_address or "")
        if host is None:
            return True
        try:
            socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S).close()
        except OSError:
            return False
        return True

    def close(self) -> None:
        import ray

        # A lost head: shutting down waits some seconds on it (Ray's exit handler does so once the command
        # has said why it stopped, and the process then exits as the command says, long before Ray's 60 s).
        if self._owns_instance and ray.is_initialized() and not self.lost:
            ray.shutdown()
        _quiet_ray_prints(not self._ray_prints)


class _Completions:
    """Submits `fn(item)` tasks, at most `2 × workers` at a time, and yields each item's key as it finishes
    (its result is put in `done`); after a result that meets `stop_when`, only drains the tasks in flight."""

    def __init__(self, engine: RayEngine, fn: Callable[[T], R], items: Sequence[T], key: Callable[[T], str],
                 done: dict[str, tuple[T, R | UnitFailedError]], stop_when: Callable[[R], bool]) -> None:
        self._engine, self._items, self._key, self._done = engine, items, key, done  # read lazily
        self._fn, self._stop_when = fn, stop_when
        self.pending: dict[object, T] = {}

    def __iter__(self) -> Iterator[str]:
        import ray

        if self._engine.lost:  # a later map of the command (bench's next method): Ray would wait for its 60 s
            raise ClusterLostError(self._engine.head_address or "?", 0)
        task = ray.remote(num_cpus=1, max_retries=self._engine.max_retries)(_run_unit)
        with _keys_of_callers() as keys:
            fn_box = [ray.put(self._fn)]  # shipped once, not once per page; boxed: the task reads it with the keys
        keys_arg = _Keys(tuple(keys))
        queue = iter(self._items)
        limit = 2 * self._engine.workers
        for item in queue:
            self.pending[task.remote(fn_box, keys_arg, item)] = item
            if len(self.pending) >= limit:
                break
        stopping = False
        finished = refusals = 0
        while self.pending:
            ready, _ = ray.wait(list(self.pending), num_returns=1, timeout=WAIT_S)
            if not ready:  # nothing finished meanwhile: a slow page, or a head gone
                refusals = 0 if self._engine.head_answers() else refusals + 1
                if refusals >= LOST_AFTER:
                    self._engine.lost = True
                    raise ClusterLostError(self._engine.head_address or "?", finished)
                continue
            refusals = 0
            item = self.pending.pop(ready[0])
            result = _result_of(ready[0])
            finished += not isinstance(result, UnitFailedError)  # a unit whose worker died wrote nothing
            self._done[self._key(item)] = (item, result)
            stopping = stopping or (not isinstance(result, UnitFailedError) and self._stop_when(result))
            following = None if stopping else next(queue, None)
            if following is not None:
                self.pending[task.remote(fn_box, keys_arg, following)] = following
            yield self._key(item)


class _DriverBudget(CountsAsked):
    """The shared budget as the driver holds it: its counts come back in one question to the actor, and an actor
    that is dead, or does not answer in COUNTS_TIMEOUT_S (its node or the cluster's head is gone), is an
    `EngineError` at once rather than a wait of Ray's 60 s or a Ray traceback. It travels to the workers as the
    plain `SharedBudget` it wraps (`__reduce__`)."""

    def __init__(self, shared: SharedBudget) -> None:
        self._shared = shared

    def __getattr__(self, name: str) -> object:  # reserve_request, add_tokens, used_up: the shared budget's own
        return getattr(self._shared, name)

    def __reduce__(self) -> tuple[object, ...]:
        return self._shared.__reduce__()

    def counts(self) -> tuple[int, int]:
        from ray import exceptions

        try:
            return self._shared.counts(timeout=COUNTS_TIMEOUT_S)
        except (exceptions.RayError, TimeoutError) as error:  # GetTimeoutError is both
            raise EngineError(f"the run's shared model budget (a Ray actor) does not answer: "
                              f"{type(error).__name__}") from None


@contextmanager
def _sigterm_kept() -> Iterator[None]:
    """SIGTERM handled as before `ray.init`, which puts in its own (an exit at once): the command's (a clean stop
    that keeps and says what was done, `core/cli/command.py`) stays."""
    try:
        before = signal.getsignal(signal.SIGTERM)
    except ValueError:
        before = None
    try:
        yield
    finally:
        if before is not None and signal.getsignal(signal.SIGTERM) is not before:
            with suppress(ValueError):  # not the main thread: Ray put in nothing there either
                signal.signal(signal.SIGTERM, before)


def _result_of(ref: object) -> object:
    """The task's result; a worker's death becomes this item's `UnitFailedError`; `fn`'s own errors raise."""
    import ray
    from ray import exceptions

    died = (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError,
            exceptions.TaskCancelledError, exceptions.OutOfMemoryError, exceptions.LocalRayletDiedError)
    try:
        return ray.get(ref)
    except died as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return UnitFailedError(f"its Ray worker died ({type(error).__name__}: {first_line[:300]})")
    except exceptions.RayTaskError as error:
        if isinstance(error.cause, RecordLensError):  # the local engine's one line, not Ray's traceback
            raise error.cause from None
        raise error.as_instanceof_cause() from None


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
    """Fail at once, rather than after Ray's many minutes of retries, when nothing answers at `address`'s
    host:port (`auto` and other forms are Ray's to read)."""
    host, port = _host_and_port(address)
    if address.startswith("ray://") and not _has_ray_client():
        raise EngineError(f"{address} is a Ray Client address, which needs pip install 'ray[client]'; or give "
                          "--ray-address auto (or the cluster's host:port) on a machine of the cluster")
    if host is None:
        return
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        if isinstance(error, TimeoutError):
            reason = f"no answer in {CONNECT_TIMEOUT_S:g} s"
        raise EngineError(f"cannot reach Ray at {host}:{port} ({reason}): check the address and that the "
                          "cluster is running (ray status on one of its machines)") from None


def _host_and_port(address: str) -> tuple[str | None, int]:
    """`host:port` of an address (`ray://` or not); (None, 0) for `auto`, `local` and forms Ray reads itself."""
    rest = address.removeprefix("ray://")
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit():
        return None, 0
    return host.strip("[]"), int(port)


def _has_ray_client() -> bool:
    """Whether Ray Client (`ray://`) can run here: it needs the `ray[client]` packages (gRPC, as Ray checks)."""
    try:
        import grpc  # noqa: F401
    except ImportError:
        return False
    return True


def _connection_hint(address: str, error: Exception) -> str:
    """What to try when the port answers but Ray would not let this process join."""
    if _host_and_port(address)[0] is None or not isinstance(error, ConnectionError):
        return ""
    return ("; the port answers, so the cluster may ask for its authentication token: "
            "run on a machine of the cluster with --ray-address auto, or set RAY_AUTH_MODE=token and the "
            "cluster's token (RAY_AUTH_TOKEN, or ~/.ray/auth_token)")


def _run_unit(fn_box: list[object], keys: _Keys, item: T) -> R:
    """One task: the unit of work read from the object store with the keys its callers need, then run on `item`."""
    import ray

    with _keys_for_callers(keys.values):
        fn: Callable[[T], R] = ray.get(fn_box[0])
    return fn(item)


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
    """What travels to a worker, for every unit of work of every command: a path as an absolute one (the
    worker's folder is not the command's); a GeminiCaller as (settings, shared budget, its key's slot in the
    task's keys), never its key, never its HTTP client."""
    global _registered
    if _registered:
        return
    import ray.util

    def to_parts(caller: GeminiCaller) -> tuple[object, object, int]:
        if not isinstance(caller.budget, (SharedBudget, _DriverBudget)):
            raise EngineError("a Gemini extractor reached Ray without its shared budget (use engine.shipping)")
        return caller.settings, caller.budget, _key_slot(caller)

    ray.util.register_serializer(GeminiCaller, serializer=to_parts, deserializer=_caller_from_parts)
    ray.util.register_serializer(type(Path()), serializer=absolute_path, deserializer=Path)
    _registered = True


def _caller_from_parts(parts: tuple[object, object, int]) -> GeminiCaller:
    settings, budget, slot = parts
    if _keys is None or slot >= len(_keys):
        raise EngineError("a Gemini caller arrived on a Ray worker without its key")
    return GeminiCaller(settings, api_key=_keys[slot], budget=budget)  # type: ignore[arg-type]
