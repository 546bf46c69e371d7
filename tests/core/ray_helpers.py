"""What the tests of `--engine ray` share: Ray itself, or the test skipped where the optional extra is not
installed; one local instance for a module; the key the workers are given; a small copy of the development pages;
and a model answer that takes a while."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import SHARED_DATA, require_shared

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
