"""Fitting several learners at once, one per core: training the selector is some forty boosted-tree fits that do
not depend on each other within a stage, and each fit runs on one core only.

Each worker is a fresh `python -m recordlens.core.extract.fit_worker`: a fresh interpreter, not a fork and not
`multiprocessing`, because the caller may be a thread of a Qt program (where forking is unsafe) or a script
without a `__main__` guard (which multiprocessing's workers would run again), and the frozen program honours
`-m` (packaging/frozen_main.py). A worker is handed one fit at a time on its standard input and answers on its
standard output; the next fit goes to whichever worker is free, and a fit's inputs are built only as it is
handed out, so no more than one per worker is held at once. Each fit is deterministic given its inputs, so the
models are the very ones one process fits (a test compares the files). Where a worker cannot start or dies, the
fits run here instead, one by one, and a warning says so. Where this process dies (killed outright), its workers
end with it, mid-fit.
"""

from __future__ import annotations

import logging
import os
import pickle
import selectors
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import TypeVar

WORKERS_VARIABLE = "RECORDLENS_FIT_WORKERS"  # the number of worker processes to fit in (1: none)
WORKER_MODULE = "recordlens.core.extract.fit_worker"
CHECK_S = 0.2  # how often a caller's check runs while the workers fit

T = TypeVar("T")
R = TypeVar("R")
_log = logging.getLogger(__name__)


class WorkerFailed(Exception):
    """A worker process ended without its result (it could not start, was killed, ran out of memory)."""


def requested_workers() -> int | None:
    """The variable's number of workers; None when it is unset or not a whole number of at least 1 (said once)."""
    text = os.environ.get(WORKERS_VARIABLE, "").strip()
    if not text:
        return None
    value = _whole_number(text)
    if value < 1:
        say_workers_variable_problem(_log.warning)
        return None
    return value


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


_said_problems: set[str] = set()  # the variable's values said to be unusable: each is said once per process


def say_workers_variable_problem(say: Callable[[str], None]) -> None:
    """Say through `say`, once per process and value, that the variable's value is ignored: a command says it
    first as its other warnings (its `warning:` line), and the fits that read the variable do not say it again."""
    text = os.environ.get(WORKERS_VARIABLE, "").strip()
    if not text or _whole_number(text) >= 1 or text in _said_problems:
        return
    _said_problems.add(text)
    say(f"{WORKERS_VARIABLE}={text!r} is not a number of processes of at least 1; ignored")


def fit_workers(requested: int | None = None) -> int:
    """How many processes fit at once: `requested`, else the variable's value, else the cores this process may
    use."""
    if requested is None:
        requested = requested_workers()
    if requested is None:
        try:
            requested = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            requested = os.cpu_count() or 1
    return max(1, requested)


def map_fits(fit: Callable[[T], R], tasks: Sequence[T], workers: int | None = None,
             check: Callable[[int], None] | None = None) -> list[R]:
    """`[fit(task) for task in tasks]`, in order, spread over worker processes when there are several tasks and
    cores. `tasks[i]` is read once, as fit i starts (a sequence may build it then); `fit` must be a module-level
    function of an importable module, and the tasks picklable. An error a fit raises is raised here, as it would
    be without workers. `check(fits done)` is called between fits, and about every CHECK_S seconds while workers
    fit (progress); whatever it raises (a job's cancel) ends the work at once, the workers killed."""
    count = min(fit_workers(workers), len(tasks))
    if count > 1:
        try:
            return _in_workers(fit, tasks, count, check)
        except (WorkerFailed, OSError) as error:
            _say_fallback(error)
    results = []
    for i in range(len(tasks)):
        if check is not None:
            check(i)
        results.append(fit(tasks[i]))
    return results


def _say_fallback(error: Exception) -> None:
    """Say that the fits run here after all: through the log where the program set one up (the app's lines), else
    as a command's other warnings (`warning: ...`), where Python would print the bare message. The same model
    comes out, so this line alone tells that the workers did not run (packaging/smoke.py fails a build on it)."""
    said = f"fitting in worker processes failed ({error}); fitting in this process instead"
    if _log.hasHandlers():
        _log.warning("%s", said)
    else:
        print(f"warning: {said}", file=sys.stderr)


def _in_workers(fit: Callable[[T], R], tasks: Sequence[T], count: int, check: Callable[[int], None] | None
                ) -> list[R]:
    results: dict[int, R] = {}
    processes: list[subprocess.Popen[bytes]] = []
    waiting = iter(range(len(tasks)))
    selector = selectors.DefaultSelector()

    def hand_out(process: subprocess.Popen[bytes]) -> None:
        """The next fit to this worker, or the end of its work when none is left."""
        assert process.stdin is not None
        index = next(waiting, None)
        try:
            pickle.dump(None if index is None else (index, fit, tasks[index]), process.stdin,
                        protocol=pickle.HIGHEST_PROTOCOL)
            process.stdin.flush()
        except BrokenPipeError as error:
            raise WorkerFailed(f"a worker exited early ({process.wait()})") from error
        if index is None:
            process.stdin.close()
        else:
            selector.register(process.stdout, selectors.EVENT_READ, process)  # type: ignore[arg-type]

    try:
        for _ in range(count):
            # its caller's pid: a worker ends as this process dies, even mid-fit (`fit_worker.end_with_parent`)
            process = subprocess.Popen([sys.executable, "-m", WORKER_MODULE, str(os.getpid())],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            processes.append(process)
            hand_out(process)
        while len(results) < len(tasks):
            if check is not None:
                check(len(results))
            for key, _ in selector.select(CHECK_S):
                process = key.data
                selector.unregister(key.fileobj)
                index, outcome = _answer(process)
                if isinstance(outcome, BaseException):
                    raise outcome  # the fit's own error (bad training data), as in one process
                results[index] = outcome
                hand_out(process)
        for process in processes:
            process.wait()
        return [results[i] for i in range(len(tasks))]
    finally:
        selector.close()
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


def _answer(process: subprocess.Popen[bytes]) -> tuple[int, object]:
    """The worker's (task index, result or error); WorkerFailed when it ended without one."""
    assert process.stdout is not None
    try:
        return pickle.load(process.stdout)
    except Exception as error:  # noqa: BLE001 - an answer cut off or unreadable: the worker failed
        raise WorkerFailed(f"a worker ended without its result ({type(error).__name__}; exit "
                           f"{process.poll()})") from error
