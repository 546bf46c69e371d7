"""`--engine ray` stopped by Ctrl+C twice as a map begins, its engine's actors still starting: the first stops the
map's units (`_Completions.stop_the_rest`), the second ends the wait for those under way. Ray's own wait for an
answer meets a signal once a second only, and Python runs a signal's handler once however many came meanwhile: two
Ctrl+C within that second were one, and the stopped map waited its whole grace for a unit that does not end. The
driver now waits on Ray in short slices, between which each is met apart.

The Ctrl+C come from another process (a thread of this one's would wait for Python's lock, which Ray's wait may
hold), timed from the moment the driver begins to wait.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.core.ray_helpers import engine_on_the_instance, module_ray_instance
from tests.ctrl_c import ctrl_c_raises

ray = pytest.importorskip("ray")

from recordlens.core.runs import ray_engine  # noqa: E402 - after Ray is known to be there
from recordlens.core.runs.ray_engine import RayEngine  # noqa: E402

# Fixtures: one local instance of 2 workers for the module, and a RayEngine joined to it for a test
ray_instance = module_ray_instance
engine = engine_on_the_instance

STARTING_S = 3.0  # how long the engine's actors take to start here (a busy machine's first map)
SLOW_S = 60.0  # a unit under way that does not end when its map stops
APART_S = 0.3  # the second Ctrl+C after the first, as a person presses it again


class _NoticesStarting(ray_engine._Notices):
    def __init__(self) -> None:
        time.sleep(STARTING_S)
        super().__init__()


class _StopSignalStarting(ray_engine._StopSignal):
    def __init__(self) -> None:
        time.sleep(STARTING_S)
        super().__init__()


def _never_back() -> None:
    time.sleep(SLOW_S)


@contextmanager
def _ctrl_c_twice(first_s: float) -> Iterator[None]:
    """Ctrl+C to this process `first_s` into the block, and again APART_S after, each raising KeyboardInterrupt; the
    block's end waits for both to have come (one the block did not meet is not the suite's)."""
    me = os.getpid()
    with ctrl_c_raises():
        pressed = subprocess.Popen(["sh", "-c", f"sleep {first_s}; kill -INT {me}; sleep {APART_S}; kill -INT {me}"])
        try:
            yield
        finally:
            while pressed.poll() is None:
                with suppress(KeyboardInterrupt):
                    pressed.wait(timeout=30)


def test_a_second_ctrl_c_soon_after_the_first_ends_the_wait_while_the_stop_signal_starts(engine: RayEngine) -> None:
    engine._notices = ray.remote(num_cpus=0)(_NoticesStarting).remote()
    completions = ray_engine._Completions(engine, str, [], str, {}, lambda result: False,
                                          lambda item, reason, requests: None, lambda item, kept: None)
    completions._stop_signal = ray.remote(num_cpus=0)(_StopSignalStarting).remote()
    cut = ray.remote(num_cpus=1)(_never_back).remote()
    completions.pending = {cut: "cut"}
    try:
        with _ctrl_c_twice(0.2):
            began = time.monotonic()
            with pytest.raises(KeyboardInterrupt):  # the second, out of the stop's wait
                try:
                    engine.say_notices()  # the map's wait asks its workers' notices, the actor not yet there
                except KeyboardInterrupt:  # the first: the map stops its units (`RayEngine.map`)
                    completions.stop_the_rest()
            ended = time.monotonic() - began
    finally:
        ray.cancel(cut, force=True)
        for actor in (engine._notices, completions._stop_signal):
            ray.kill(actor)
    # not the stop's grace (STOP_GRACE_S, after the stop signal started): the second Ctrl+C was met
    assert ended < 0.2 + APART_S + 1.5, ended


def test_each_of_two_ctrl_c_a_moment_apart_is_met_during_a_wait_on_ray(ray_instance: Path) -> None:
    starting = ray.remote(num_cpus=0)(_NoticesStarting).remote()
    met = []
    try:
        with _ctrl_c_twice(0.2):
            for _ in range(2):
                try:
                    ray_engine._got(starting.take.remote(), STARTING_S * 3)
                except KeyboardInterrupt:
                    met.append(time.monotonic())
    finally:
        ray.kill(starting)
    assert len(met) == 2 and met[1] - met[0] >= APART_S / 2, met  # each met as it came, not the second dropped
