"""A joined cluster lost because the raylet of the node the command joined it through died, its head still up, is
said so: the error named the head ("its head no longer answers") whichever of the two had stopped answering.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): this test skips where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.child_lines import first_line
from tests.ray_cluster import cluster_environment

pytest.importorskip("ray")

# In a process of its own (Ray reads its authentication mode once per process, and the test cluster asks for none):
# naps on the joined cluster, a line for each; the lost cluster's words when it is lost
_NAPPING = """
import sys, time
from recordlens.core.runs.engines import ClusterLostError
from recordlens.core.runs.ray_engine import RayEngine

def nap(seconds):
    time.sleep(seconds)
    return seconds

engine = RayEngine.connect(address=sys.argv[1])
try:
    for _ in engine.map(nap, [0.5 + n / 1000 for n in range(400)]):
        print("napped", flush=True)
    print("never lost", flush=True)
except ClusterLostError as lost:
    print(f"lost: {lost}", flush=True)
finally:
    engine.close()
"""


def test_a_cluster_lost_with_the_joined_nodes_raylet_names_the_raylet_not_the_head() -> None:
    from tests.core.test_ray_cluster_lost_said import (  # one home for a cluster that outlives its raylet
        _cluster_that_outlives_its_raylet,
        _kill_the_raylet,
        _running,
    )

    with _cluster_that_outlives_its_raylet() as cluster:
        napping = subprocess.Popen([sys.executable, "-c", _NAPPING, cluster.address], env=cluster_environment(),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert first_line(napping, 240) == "napped\n"
            assert _kill_the_raylet(cluster)
            line = first_line(napping, 120)
            while line == "napped\n":  # a nap that finished as the raylet died
                line = first_line(napping, 120)
            assert _running(cluster, b"gcs_server")  # the head's GCS still up, all the while
        finally:
            napping.kill()
            napping.wait(timeout=60)
    raylet = "the raylet of the node this process joined it through, at "
    assert line.startswith(f"lost: the Ray cluster at {cluster.address} was lost ({raylet}"), line
    assert ", no longer answers, though its head still does); " in line and "its head no longer answers" not in line, \
        line
