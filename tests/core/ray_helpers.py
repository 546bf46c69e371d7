"""What the tests of `--engine ray` share: Ray itself, or the test skipped where the optional extra is not
installed; one local instance for a module, and an engine joined to it for a test; the key the workers are given;
a small copy of the development pages; a model answer that takes a while; and an extraction whose joined cluster
is lost part way, run again on a new cluster."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from subprocess import CompletedProcess
from types import ModuleType

import pytest

from tests.conftest import SHARED_DATA, require_shared
from tests.fake_gemini import FakeGemini, answer_with
from tests.ray_cluster import (
    Cluster,
    cluster_environment,
    ray_cluster,
    recordlens,
    recordlens_running,
    wait_while_running,
)

KEY = "fake-key-ray-7f3a9c"  # what the workers inherit from the environment; must appear in no file of Ray's
FOLDERS = ("nexteval-synth-dev", "nexteval-synth-more")


def require_ray():  # noqa: ANN201 - the ray module
    """The ray module; the test skipped where Ray is not installed."""
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is an optional extra: `make test-ray` installs it and runs these tests")
    return ray


@contextmanager
def local_ray_instance(prefix: str, by_value: ModuleType, environment: Mapping[str, str] | None = None
                       ) -> Iterator[Path]:
    """One local instance of 2 workers, small object store, no dashboard, no usage statistics, shut down after;
    yields Ray's temp folder (its logs and session files). `by_value`: the test module whose units the workers
    run, which they cannot import (the tests package is not theirs). `environment`: variables the job starts its
    workers with, set only while Ray starts."""
    ray = require_ray()
    ray.cloudpickle.register_pickle_by_value(by_value)
    temp = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))  # short: Ray's socket paths have a length limit
    setting = {"RAY_USAGE_STATS_ENABLED": "0", **(environment or {})}
    saved = {name: os.environ.get(name) for name in setting}
    os.environ.update(setting)
    try:
        ray.init(address="local", num_cpus=2, object_store_memory=200 * 1024 * 1024, include_dashboard=False,
                 log_to_driver=False, logging_level="WARNING", _temp_dir=str(temp))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    try:
        yield temp
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


# The two fixtures below are a module's own once it names them (`ray_instance = module_ray_instance`, `engine =
# engine_on_the_instance`): pytest finds a fixture by the name a test module gives it.
@pytest.fixture(scope="module")
def module_ray_instance(request: pytest.FixtureRequest) -> Iterator[Path]:
    """One local instance (`local_ray_instance`) for the test module, whose units its workers run; shut down after
    the module. Ray's temp folder."""
    with local_ray_instance("rlmod-", request.module) as temp:
        yield temp


@pytest.fixture
def engine_on_the_instance(ray_instance: Path):  # noqa: ANN201 - a RayEngine
    """A RayEngine joined to the module's `ray_instance`, closed after the test (the instance goes on)."""
    from recordlens.core.runs.ray_engine import RayEngine

    engine = RayEngine.connect()  # joins the module's instance, and leaves it running on close()
    yield engine
    engine.close()


def small_copy(folder: Path, count: int = 4) -> Path:
    """The first `count` pages of the development set and their ground truth, under `folder` (returned)."""
    data = require_shared(SHARED_DATA / FOLDERS[0])
    for kind in ("html", "gt"):
        (folder / kind).mkdir(parents=True)
    for page in sorted((data / "html").glob("*.html"))[:count]:
        shutil.copy(page, folder / "html" / page.name)
        shutil.copy(data / "gt" / f"{page.stem}.json", folder / "gt" / f"{page.stem}.json")
    return folder


def slow_answer(body: dict[str, object]) -> str:
    """The fake model's answer to a page, half a second after it is asked."""
    time.sleep(0.5)  # a page takes a while: the head dies with pages written and pages still to do
    return '[["/body[1]"]]'


LOST_PAGES = 24  # the extraction whose cluster is lost: it is lost once 3 are written, and a page takes 0.5 s


@dataclass(frozen=True)
class LostCluster:
    """A gemini extract on a joined cluster lost part way, and the same command run again on a new cluster."""

    address: str  # the cluster lost
    returncode: int
    err: str  # what the command said
    said_after_s: float  # from the loss to the command's end
    kept: dict[str, bytes]  # the pages it had written, by file name, as it left them
    out: Path
    again: CompletedProcess[str]  # the same command on a new cluster


def extract_on_a_cluster_lost_part_way(folder: Path, cluster: Callable[[], AbstractContextManager[Cluster]],
                                       lose: Callable[[Cluster], list[int]]) -> LostCluster:
    """`extract --engine ray` of LOST_PAGES pages (under `folder`) joined to `cluster()`, `lose` done to it once 3
    pages are written (the ids of what it killed); then the same command on a new cluster."""
    data = small_copy(folder / "data", LOST_PAGES)
    out = folder / "run"
    env = {**cluster_environment(), "GEMINI_API_KEY": KEY}
    with FakeGemini(default=answer_with(slow_answer)) as server:
        command = ["extract", "-m", "gemini", "-f", "flat", "--pages", str(data / "html"), "--out", str(out),
                   "--base-url", server.url, "-q", "--engine", "ray"]
        with cluster() as first, recordlens_running([*command, "--ray-address", first.address], env=env) as running:
            wait_while_running(running, lambda: len(list(out.glob("*.json"))) >= 3, poll_s=0.2)
            lost_at = time.monotonic()
            assert lose(first), "nothing of the cluster was killed"
            _, err = running.communicate(timeout=120)
            said_after = time.monotonic() - lost_at
        kept = {page.name: page.read_bytes() for page in out.glob("*.json")}
        with ray_cluster() as second:
            again = recordlens([*command, "--ray-address", second.address], env=env)
    return LostCluster(first.address, running.returncode, err, said_after, kept, out, again)


def assert_said_lost_and_resumed(lost: LostCluster) -> None:
    """What a lost cluster comes to, however it was lost: within 30 s (Ray's own end, exit 1 and its lines only, comes
    after 60 s) exit 4 and one RecordLens line that names the cluster lost, no page said to run again (no node is
    left to run it); the pages written kept; the same command on a new cluster does the rest only."""
    said = lost.err[-3000:]
    assert lost.returncode == 4, said  # not Ray's own end (exit 1), nor a wait for ever
    assert f"recordlens: error: the Ray cluster at {lost.address} was lost" in lost.err, said
    assert "running it again" not in lost.err, said
    assert lost.said_after_s < 30, lost.said_after_s
    assert 3 <= len(lost.kept) < LOST_PAGES, sorted(lost.kept)
    assert all(json.loads(text) == [["/body[1]"]] for text in lost.kept.values()), lost.kept
    assert lost.again.returncode == 0, lost.again.stderr[-3000:]
    done = f"{LOST_PAGES - len(lost.kept)} extracted, {len(lost.kept)} already there, 0 failed"
    assert done in lost.again.stdout, lost.again.stdout
    assert {name: (lost.out / name).read_bytes() for name in lost.kept} == lost.kept
    assert len(list(lost.out.glob("*.json"))) == LOST_PAGES
