"""`--engine ray`: what a worker says of its waits (before a retry, for --requests-per-minute) is printed by the
driver on stderr, naming the page, as the local engine says it (Ray keeps a worker's own stderr in its session
folder); and a Ctrl+C met while Ray starts is held until `ray.init` has returned, then met as the command meets
it (part way through, Ray's C++ callbacks dropped it, or left Ray half started for a segmentation fault); a local
instance starts without Ray's notice that token authentication is on (its other lines are said).

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where it is not
installed (`make test-ray` installs it).
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.runner import run_extractor
from tests.core.ray_helpers import KEY, engine_on_the_instance, module_ray_instance, require_ray, small_copy
from tests.ctrl_c import ctrl_c_raises
from tests.fake_gemini import FakeGemini, answer, status

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages


# Fixtures: one local instance of 2 workers for the module, and a RayEngine joined to it for a test
ray_instance = module_ray_instance
engine = engine_on_the_instance


def test_a_workers_wait_to_retry_is_said_on_the_drivers_stderr_naming_its_page(
        engine: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pages = small_copy(tmp_path / "data", 2) / "html"
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    # The first request fails (HTTP 500): its page waits 2 × (0.5 + the caller's first random draw) = 2.7 s.
    with FakeGemini([status(500)], default=answer('[["/body[1]"]]')) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, max_attempts=2, backoff_s=2.0)
        summary = run_extractor(extractor, pages, tmp_path / "run", engine=engine)

    assert len(summary.extracted) == 2 and not summary.failed, summary
    said = capsys.readouterr().err
    names = "|".join(sorted(path.stem for path in pages.glob("*.html")))
    assert re.search(rf"^page ({names}): HTTP 500: waiting 3 s before attempt 2 of 2$", said, re.MULTILINE), said


class _WaitsOnce:
    """A shared budget's limiter that asks the first reservation to wait `seconds` (as --requests-per-minute
    does once its minute is full), then lets every request go."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.waited = seconds, False

    def reserve(self) -> tuple[str, float]:
        if self.waited:
            return "ok", 0.0
        self.waited = True
        return "wait", self.seconds


def _reserve(caller: object, name: str) -> str:
    caller.budget.reserve_request()  # type: ignore[attr-defined] - as the caller's attempt does first
    return name


def test_a_wait_for_requests_per_minute_is_said_naming_the_unit(engine: object,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    import functools

    import ray

    from recordlens.core.llm.gemini import CallSettings, GeminiCaller
    from recordlens.core.llm.shared_budget import SharedBudget
    from recordlens.core.runs.ray_engine import _DriverBudget

    limiter = ray.remote(num_cpus=0)(_WaitsOnce).remote(2.6)
    # A caller with the run's budget as the engine ships it to its workers (`RayEngine.shipping`)
    caller = GeminiCaller(CallSettings(base_url="http://127.0.0.1:9"), api_key=KEY,
                          budget=_DriverBudget(SharedBudget(limiter)))  # type: ignore[arg-type]
    started = time.monotonic()
    done = [name for name, _ in engine.map(functools.partial(_reserve, caller), ["7"])]  # type: ignore[attr-defined]

    assert done == ["7"] and time.monotonic() - started >= 2.6
    assert "7: waiting 3 s for --requests-per-minute (one limit for all workers)\n" in capsys.readouterr().err


def test_ctrl_c_while_ray_starts_is_met_once_ray_has_started(monkeypatch: pytest.MonkeyPatch) -> None:
    ray = require_ray()
    import ray._private.utils as ray_utils

    from recordlens.core.runs.ray_engine import RayEngine

    steps: list[str] = []
    command_sigterm = signal.getsignal(signal.SIGTERM)

    def init(**options: object) -> None:  # ray.init as it goes: its SIGTERM handler put in, then a Ctrl+C
        ray_utils.set_sigterm_handler(lambda number, frame: sys.exit(number))
        os.kill(os.getpid(), signal.SIGINT)  # a terminal's Ctrl+C reaches the command part way through
        time.sleep(0.2)
        steps.append("started")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # whether or not this module's instance is up
    monkeypatch.setattr(ray, "init", init)
    with ctrl_c_raises():  # also in a suite started in the background, which ignores SIGINT
        with pytest.raises(KeyboardInterrupt):
            RayEngine.connect(workers=1)

        assert steps == ["started"]  # not cut part way
        assert signal.getsignal(signal.SIGTERM) is command_sigterm  # Ray's exit at once never put in
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


TOKEN = "0123456789abcdef0123456789abcdef"  # the test cluster's own, given in its environment only


def test_a_cluster_that_refuses_the_token_is_said_at_once_without_rays_warnings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    require_ray()
    from tests import ray_cluster

    home = tmp_path / "home"  # no ~/.ray/auth_token of the machine's is read by either side
    home.mkdir()
    environment = {**ray_cluster.cluster_environment(), "HOME": str(home)}
    with_token = {**environment, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": TOKEN}
    monkeypatch.setattr(ray_cluster, "cluster_environment", lambda: with_token)
    pages = small_copy(tmp_path / "data", 2) / "html"
    with ray_cluster.ray_cluster() as cluster:
        command = ["extract", "--pages", str(pages), "--out", str(tmp_path / "run"), "--engine", "ray",
                   "--ray-address", cluster.address]
        started = time.monotonic()
        joined = ray_cluster.recordlens(command, env=environment)
        seconds = time.monotonic() - started
        made = (tmp_path / "run").exists()
        with_its_token = ray_cluster.recordlens(command, env=with_token)

    assert joined.returncode == 2, joined.stderr
    assert joined.stderr.splitlines()[-1] == (
        f"recordlens: error: could not connect to Ray at {cluster.address}: the cluster asks for its authentication "
        "token and refused this process's (none set, or another): run on a machine of the cluster with "
        "--ray-address auto, or set RAY_AUTH_MODE=token and the cluster's token (RAY_AUTH_TOKEN, or "
        "~/.ray/auth_token)")
    assert "gcs_client.cc" not in joined.stderr and seconds < 15  # Ray alone asks again for 20 s, a line a second
    assert not made  # refused before any folder is made
    assert with_its_token.returncode == 0, with_its_token.stderr  # the same cluster, joined with its token
    assert len(list((tmp_path / "run").glob("*.json"))) == 2


def test_a_local_run_does_not_say_rays_token_notice(tmp_path: Path) -> None:
    """Ray says on every local instance it starts that token authentication is on, and how to opt out: nothing to
    act on for an instance of the command's own. The run's stderr is the command's."""
    require_ray()
    from tests import ray_cluster

    home = tmp_path / "home"  # the token Ray makes for a local instance goes here, not to the machine's ~/.ray
    home.mkdir()
    environment = {name: value for name, value in ray_cluster.cluster_environment().items() if name != "RAY_AUTH_MODE"}
    done = ray_cluster.recordlens(["extract", "--method", "repeats", "--pages", str(DEMO_PAGES), "--out",
                                   str(tmp_path / "run"), "--engine", "ray", "--workers", "1", "-q"],
                                  env={**environment, "HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "run").glob("*.json"))) == 4
    assert "Token authentication" not in done.stderr and "RAY_AUTH_MODE" not in done.stderr, done.stderr


def test_only_the_token_notice_is_left_out_and_only_while_ray_starts() -> None:
    """Ray's other lines of the same logger (a warning that tokens are off, an error) are said, and the notice is
    said again once the local instance has started."""
    require_ray()
    import logging

    from ray._private.authentication import authentication_token_setup as token_setup

    from recordlens.core.runs.ray_engine import _token_notice_left_out

    said: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: said.append(record.funcName)  # type: ignore[method-assign]
    logger = logging.getLogger(token_setup.__name__)
    logger.addHandler(handler)
    try:
        with _token_notice_left_out():
            token_setup._warn_token_auth_enabled()
            token_setup._warn_token_auth_disabled()
            logger.error("an error of Ray's")
        token_setup._warn_token_auth_enabled()
    finally:
        logger.removeHandler(handler)
    assert said == ["_warn_token_auth_disabled", "test_only_the_token_notice_is_left_out_and_only_while_ray_starts",
                    "_warn_token_auth_enabled"]
