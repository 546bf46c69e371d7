"""A training killed outright (`kill -9`, out of memory) takes its fit workers with it, even mid-fit. A worker
reads its pipe only between fits, so it used to go on with its fit (half a minute of a core, re-parented to init)
after its caller was gone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# A caller fitting four fits of two minutes each in two workers: time.sleep stands in for a long fit (it holds
# the worker as a fit does, without taking a core from the other tests)
CALLER = ("from recordlens.core.extract.fit_pool import map_fits\n"
          "import time\n"
          "map_fits(time.sleep, [120.0] * 4, workers=2)\n")
WORKER = "recordlens.core.extract.fit_worker"
LIMIT_S = 10.0  # generous, on a busy machine: the kernel ends them at once


def _alive(pid: int) -> bool:
    """Whether the process runs (a zombie no one has reaped yet has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _workers_of(parent: int) -> list[int]:
    """The fit workers whose parent is `parent`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == parent and WORKER.encode() in command:
            found.append(int(entry.name))
    return found


def _wait_for(condition, limit_s: float) -> bool:  # noqa: ANN001 - a callable without arguments
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


@pytest.fixture
def workers_left() -> Iterator[list[int]]:
    """The workers the test found, killed at its end if they are still there (as they were before the fix)."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.timeout(120)
def test_the_workers_of_a_caller_killed_mid_fit_end_with_it(workers_left: list[int]) -> None:
    caller = subprocess.Popen([sys.executable, "-c", CALLER])
    try:
        assert _wait_for(lambda: len(_workers_of(caller.pid)) == 2, 60), "the two workers did not start"
        workers_left.extend(_workers_of(caller.pid))
        time.sleep(2.0)  # each has its fit by now (it was written to its pipe as it started)
        assert all(map(_alive, workers_left))
    finally:
        caller.send_signal(signal.SIGKILL)
        caller.wait()
    assert _wait_for(lambda: not any(map(_alive, workers_left)), LIMIT_S), \
        f"fit workers {[pid for pid in workers_left if _alive(pid)]} outlived their caller by {LIMIT_S:.0f} s"


def test_a_worker_whose_caller_died_before_it_started_ends_at_once() -> None:
    """The caller gone before the worker could ask to end with it: seen as the worker starts."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    worker = subprocess.Popen([sys.executable, "-m", WORKER, str(gone.pid)], stdin=subprocess.PIPE)
    try:
        assert worker.wait(timeout=60) == 0  # without reading its pipe, which stays open
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        worker.stdin.close()
