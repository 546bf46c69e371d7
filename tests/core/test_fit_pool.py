"""Fits spread over worker processes: results in order, a fit's own error raised as without workers (also one
that cannot be pickled), output a fit prints kept apart from the results, and a worker that cannot start or dies
leaves the fits to this process (same results, a warning in the log).

The fit functions below run in the workers, which import this module by name from the repository's root."""

from __future__ import annotations

import logging
import math
import os
import time

import pytest

from recordlens.core.extract import fit_pool
from recordlens.core.extract.fit_pool import WORKERS_VARIABLE, fit_workers, map_fits

FALLBACK = "fitting in this process instead"


class NeedsTwoArguments(Exception):
    def __init__(self, a: str, b: str) -> None:  # pickled, it comes back with one argument: it cannot load
        super().__init__(f"{a} and {b}")


def _raise_odd(_task: int) -> int:
    raise NeedsTwoArguments("this", "that")


def _chatty_square(task: int) -> int:
    print("a fit that prints", task)  # noqa: T201 - what the worker must keep out of its results
    os.write(1, b"and native output\n")
    return task * task


def _die_in_a_worker(task: tuple[int, int]) -> int:
    """Kills the process it runs in, unless that is the test's own (the fallback)."""
    parent, value = task
    if os.getpid() != parent:
        os._exit(9)
    return value


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.WARNING, logger=fit_pool.__name__)
    return caplog


def test_results_come_back_in_the_order_of_the_tasks(log) -> None:
    tasks = [float(n * n) for n in range(11)]
    assert map_fits(math.sqrt, tasks, workers=3) == [float(n) for n in range(11)]
    assert FALLBACK not in log.text  # the workers did the fits


def test_what_a_fit_prints_stays_out_of_the_results(log) -> None:
    assert map_fits(_chatty_square, list(range(6)), workers=2) == [n * n for n in range(6)]
    assert FALLBACK not in log.text


def test_an_error_a_fit_raises_in_a_worker_is_raised_here() -> None:
    with pytest.raises(ValueError, match="math domain error"):
        map_fits(math.sqrt, [4.0, -1.0, 9.0], workers=2)


def test_an_error_that_cannot_travel_is_raised_as_its_description() -> None:
    with pytest.raises(RuntimeError, match="NeedsTwoArguments: this and that"):
        map_fits(_raise_odd, [1, 2], workers=2)


def test_workers_that_cannot_start_leave_the_fits_to_this_process(monkeypatch, log) -> None:
    monkeypatch.setattr(fit_pool, "WORKER_MODULE", "recordlens.no_such_module")
    assert map_fits(math.sqrt, [1.0, 4.0, 9.0], workers=2) == [1.0, 2.0, 3.0]
    assert FALLBACK in log.text


def test_a_worker_killed_mid_way_leaves_the_fits_to_this_process(log) -> None:
    tasks = [(os.getpid(), n) for n in range(4)]
    assert map_fits(_die_in_a_worker, tasks, workers=2) == [0, 1, 2, 3]
    assert FALLBACK in log.text and "without its result" in log.text


def test_the_number_of_workers_follows_the_request_then_the_variable_then_the_cores(monkeypatch, log) -> None:
    monkeypatch.delenv(WORKERS_VARIABLE, raising=False)
    cores = fit_workers()
    monkeypatch.setenv(WORKERS_VARIABLE, "3")
    assert fit_workers(2) == 2 and fit_workers() == 3
    for odd in ("lots", "0", "-2", "²"):
        monkeypatch.setenv(WORKERS_VARIABLE, odd)
        assert fit_workers() == cores, odd
    assert "is not a number of processes" in log.text
    assert fit_workers(0) == 1


class _StopNow(Exception):
    pass


def test_a_check_that_raises_stops_the_workers_at_once(monkeypatch) -> None:
    started: list = []
    real_popen = fit_pool.subprocess.Popen

    def recording_popen(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - subprocess.Popen's own signature
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(fit_pool.subprocess, "Popen", recording_popen)
    deadline = time.monotonic() + 1.0

    def check(_done: int) -> None:
        if time.monotonic() > deadline:
            raise _StopNow

    with pytest.raises(_StopNow):
        map_fits(time.sleep, [60.0, 60.0, 60.0], workers=2, check=check)  # three fits of a minute each
    assert time.monotonic() < deadline + 20  # not a minute later
    assert len(started) == 2 and all(process.poll() is not None for process in started)  # killed, reaped


def test_a_check_runs_between_fits_in_this_process() -> None:
    calls: list[int] = []

    def check(done: int) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise _StopNow

    done: list[float] = []

    def fit(task: float) -> float:
        done.append(task)
        return task

    with pytest.raises(_StopNow):
        map_fits(fit, [1.0, 2.0, 3.0, 4.0], workers=1, check=check)
    assert done == [1.0, 2.0] and calls == [0, 1, 2]  # each call says how many fits are done


def test_ctrl_c_is_left_to_the_caller_and_a_worker_whose_caller_is_gone_ends_quietly() -> None:
    """Ctrl+C signals every process of the terminal's group: a worker printed a KeyboardInterrupt traceback."""
    import pickle
    import signal
    import subprocess
    import sys

    worker = subprocess.Popen([sys.executable, "-m", fit_pool.WORKER_MODULE], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        pickle.dump((0, math.sqrt, 16.0), worker.stdin)
        worker.stdin.flush()
        assert pickle.load(worker.stdout) == (0, 4.0)  # it is serving, past its start
        worker.send_signal(signal.SIGINT)
        time.sleep(0.5)
        assert worker.poll() is None  # still there: the caller ends it
        worker.stdin.close()  # the caller gone without its final None
        assert worker.wait(timeout=60) == 0
        assert worker.stderr.read() == b""
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
