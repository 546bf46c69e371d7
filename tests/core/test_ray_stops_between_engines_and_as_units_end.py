"""`--engine ray` stopped, where a stop meets what outlives a map or comes as a unit ends:

- a Ray job's worker processes live on from one engine to the next (a notebook's, an embedding program's two
  commands), and each engine numbers its maps from 1: a second engine's map 1 runs on workers that saw the first
  engine's map 1 stopped, and runs (its units were skipped as stopped, their results None);
- a second Ctrl+C during the wait for the units under way ends the wait, and the caller is still told of the units
  that finished meanwhile (their pages, an agent run's episodes, kept);
- a unit whose result the driver had read, but not yet handed on, when the stop came is told to the caller;
- a stop that reaches a worker as its unit ends (its work done, its result had) leaves the unit its result;
- an engine joined through Ray Client (`ray://`) watches no raylet: the node Ray names as this process's is the
  head's, whose raylet's address (the cluster's inside) a laptop behind a tunnel never reaches, and a healthy run was
  stopped as lost.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.core.ray_helpers import KEY, engine_on_the_instance, module_ray_instance

ray = pytest.importorskip("ray")

from recordlens.core.llm.gemini import GeminiCaller  # noqa: E402 - after Ray is known to be there
from recordlens.core.runs import ray_engine  # noqa: E402
from recordlens.core.runs.ray_engine import RayEngine  # noqa: E402

# Fixtures: one local instance of 2 workers for the module, and a RayEngine joined to it for a test
ray_instance = module_ray_instance
engine = engine_on_the_instance

SLOW_S = 60.0  # a unit that runs until it is stopped


class _Unit:
    """A unit of work with a Gemini caller (so that its map stops its units under way), which calls nothing: a
    "slow" item runs until it is stopped; any other returns its name and the worker's process id."""

    def __init__(self) -> None:
        self.caller = GeminiCaller(api_key=KEY)

    def __call__(self, name: str) -> tuple[str, int]:
        if name.startswith("slow"):
            time.sleep(SLOW_S)
        return name, os.getpid()


def test_a_second_engines_units_run_on_workers_that_saw_the_first_engines_map_stopped(ray_instance: Path) -> None:
    first = RayEngine.connect()  # joins the module's instance: its workers live on after the engine
    try:
        with first.shipping(_Unit()) as unit:
            results = first.map(unit, ["quick", "slow-1", "slow-2", "slow-3"])
            _, (name, quick_worker) = next(results)
            assert name == "quick"
            results.close()  # the caller stops reading: the slow units are stopped where they are
    finally:
        first.close()
    second = RayEngine.connect()
    try:
        with second.shipping(_Unit()) as unit:
            ran = dict(second.map(unit, ["a", "b", "c", "d"]))
    finally:
        second.close()
    assert {name: result if result is None else result[0] for name, result in ran.items()} == \
        {name: name for name in "abcd"}
    assert quick_worker in {worker for _, worker in ran.values()}  # a worker of the first engine's stopped map


def _never_back() -> None:
    time.sleep(SLOW_S)


def test_a_second_ctrl_c_during_the_wait_for_the_units_under_way_still_tells_those_that_finished(
        engine: RayEngine) -> None:
    told: list[tuple[object, object]] = []
    completions = ray_engine._Completions(engine, str, [], str, {}, lambda result: False,
                                          lambda item, reason, requests: None,
                                          lambda item, kept: told.append((item, kept)))
    completions._stop_signal = engine.stop_signal()
    cut = ray.remote(num_cpus=1)(_never_back).remote()
    completions.pending = {cut: "cut", ray.put("its episode"): "finished"}
    second_ctrl_c = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))  # the wait is STOP_GRACE_S long
    second_ctrl_c.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            completions.stop_the_rest()
    finally:
        second_ctrl_c.cancel()
        ray.cancel(cut, force=True)
    assert told == [("finished", "its episode")]


def test_a_result_read_but_not_yet_handed_on_when_the_stop_comes_is_told(engine: RayEngine) -> None:
    told: list[tuple[object, object]] = []
    read = {"page-1": ("page-1", "its result")}  # the driver's hands: out of Ray's, not yet the caller's
    completions = ray_engine._Completions(engine, str, [], str, read, lambda result: False,
                                          lambda item, reason, requests: None,
                                          lambda item, kept: told.append((item, kept)))
    completions.stop_the_rest()
    assert told == [("page-1", "its result")]


def _finishes_as_its_map_stops(stopped: tuple[object, int]) -> str:
    """A unit's work that is done as its map is stopped: the stop reaches its worker (held back here until the
    work has returned, then let in as the unit ends)."""
    stop_signal, map_number = stopped
    signal.pthread_sigmask(signal.SIG_BLOCK, {ray_engine.STOP_SIGNAL})
    ray.get(stop_signal.stop.remote(map_number))  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while ray_engine.STOP_SIGNAL not in signal.sigpending() and time.monotonic() < deadline:
        time.sleep(0.01)  # the worker's watch has signalled the unit
    return "its result"


@pytest.fixture
def stop_let_in_as_the_unit_ends(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The stop held back by `_finishes_as_its_map_stops` let in as the unit ends, after its work returned; this
    process's handler of the signal as it was, after."""
    handler = signal.getsignal(ray_engine.STOP_SIGNAL)
    ended = ray_engine._STOP_WATCH.ended

    def let_in_then_ended() -> None:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {ray_engine.STOP_SIGNAL})
        ended()

    monkeypatch.setattr(ray_engine._STOP_WATCH, "ended", let_in_then_ended)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {ray_engine.STOP_SIGNAL})
        signal.signal(ray_engine.STOP_SIGNAL, handler)


def test_a_stop_that_comes_as_a_unit_ends_leaves_it_its_result(engine: RayEngine,
                                                                stop_let_in_as_the_unit_ends: None) -> None:
    """The unit run as a worker runs it (here, in this process's main thread, as a task runs in its worker's)."""
    stop_signal, map_number = engine.stop_signal(), engine.next_map()
    work = [ray.put(ray_engine._unit_as_bytes(_finishes_as_its_map_stops))]
    result = ray_engine._run_unit(work, ray_engine._Keys(()), None, stop_signal, os.getcwd(), (map_number, "p1"),
                                  (stop_signal, map_number))
    assert result == "its result"


def test_an_engine_joined_through_ray_client_watches_no_raylet(ray_instance: Path) -> None:
    gcs = ray.get_runtime_context().gcs_address
    for address, watches_a_raylet in ((gcs, True), ("ray://127.0.0.1:10001", False)):
        joined = RayEngine(owns_instance=True, watches_head=address)  # as `connect` makes it, once joined
        joined._owns_instance = False  # the module's instance goes on after the test
        try:
            assert joined.head_address == address.removeprefix("ray://")
            assert (joined._raylet is not None) == watches_a_raylet, (address, joined._raylet)
        finally:
            joined.close()
