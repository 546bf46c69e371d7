"""A joined Ray cluster lost mid-run is said as the README says it, every time: "the Ray cluster at … was lost",
exit 4, the pages written kept, the same command resumable. Two ways it was not:

- Ray's core worker ended the command itself (exit 1, no word of RecordLens: "The connection to the plasma store is
  failed. Terminate the process.") in about 1 of 3 head losses: the unit of work the command had put in the object
  store was lost with the head's node, Ray tried to recover it, and writing that it could not into the dead node's
  store ended the process from C++, where no Python code runs. A process that owns no such object recovers none:
  the unit is put there by an actor of the engine's (`ray_engine._Keeper`), the command only borrows it.
- With only the head's raylet gone (its GCS still up), each page under way was said to "run again" on a cluster
  where no node was left, and none ever ran.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from tests.core.ray_helpers import assert_said_lost_and_resumed, extract_on_a_cluster_lost_part_way, require_ray
from tests.ray_cluster import (
    START_TIMEOUT_S,
    Cluster,
    cluster_environment,
    free_port,
    head_start,
    processes_of,
    ray_cluster,
)


@contextmanager
def _cluster_that_outlives_its_raylet() -> Iterator[Cluster]:
    """A cluster of one node as `ray start --head` leaves it without --block (the way one is run by hand): nothing
    watches its processes, so its GCS goes on when its raylet dies (`ray start --block` would stop them all). Stopped
    by its own processes' ids, found by its folder."""
    folder = Path(tempfile.mkdtemp(prefix="rlu-", dir="/tmp"))  # short: Ray's socket paths have a length limit
    port = free_port()
    started = subprocess.run(head_start(port, folder), env=cluster_environment(), cwd=folder, capture_output=True,
                             text=True, timeout=START_TIMEOUT_S)
    try:
        assert started.returncode == 0, started.stdout[-3000:] + started.stderr[-3000:]
        yield Cluster(f"127.0.0.1:{port}", folder, None)  # type: ignore[arg-type] - no `ray start` process stays
    finally:
        for _ in range(2):  # its processes, then any their end left behind
            for pid in processes_of(folder):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(1.0)
        shutil.rmtree(folder, ignore_errors=True)


def _running(cluster: Cluster, program: bytes) -> list[int]:
    """The cluster's processes whose command line names `program`."""
    found = []
    for pid in processes_of(cluster.folder):
        with suppress(OSError):
            if program in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
    return found


def _kill_the_raylet(cluster: Cluster) -> list[int]:
    """SIGKILL to the cluster's raylet alone (its GCS goes on, and tells its clients the node died); its id."""
    killed = _running(cluster, b"/raylet")
    for pid in killed:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return killed


def _lose_the_raylet_alone(cluster: Cluster) -> list[int]:
    """The cluster's raylet killed, its GCS still up a second later; the raylet's id."""
    killed = _kill_the_raylet(cluster)
    time.sleep(1.0)
    assert _running(cluster, b"gcs_server")  # the head's GCS goes on
    return killed


def test_a_cluster_whose_only_node_dies_is_said_lost_at_once_and_never_ends_the_command_silently(
        tmp_path: Path) -> None:
    require_ray()
    lost = extract_on_a_cluster_lost_part_way(tmp_path, _cluster_that_outlives_its_raylet, _lose_the_raylet_alone)
    assert_said_lost_and_resumed(lost)
    assert "plasma store" not in lost.err and "Attempting to recover" not in lost.err, lost.err[-3000:]
    assert "Unhandled error" not in lost.err, lost.err[-3000:]  # Ray's own words of the units lost, after RecordLens's


# In a process of its own: Ray reads its authentication mode once per process, and the test cluster asks for none
_OWNER_CHECK = """
import sys, ray
from recordlens.core.runs.ray_engine import RayEngine
engine = RayEngine.connect(address=sys.argv[1])
[unit] = engine.ship(len)
own = ray.put(b"the command's own").owner_address()  # this process's address, as an owner's
results = sorted(result for _, result in engine.map(len, ["ab", "abc"]))
print("borrowed" if unit.owner_address() != own else "owned", results)
engine.close()
"""


def test_the_unit_of_work_a_joined_cluster_runs_is_owned_by_the_engines_keeper_not_the_command() -> None:
    """What the command puts in the object store of a joined cluster, Ray's core worker would try to recover, and end
    the process for, when the node that holds it dies: the unit goes there through the engine's keeper."""
    require_ray()
    with ray_cluster() as cluster:
        done = subprocess.run([sys.executable, "-c", _OWNER_CHECK, cluster.address], env=cluster_environment(),
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.splitlines()[-1] == "borrowed [2, 3]", done.stdout
