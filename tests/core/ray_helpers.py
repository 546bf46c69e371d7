"""What the tests of `--engine ray` share: Ray itself, or the test skipped where the optional extra is not
installed; the key the workers are given; a small copy of the development pages; and a model answer that takes a
while."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

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
