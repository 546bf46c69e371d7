"""`--engine ray` stopped: SIGTERM stops a run on a local Ray instance as it does a local run (Ray's own SIGTERM
handler, which `ray.init` puts in, would end the process at once without a word), and the shared model budget
of a run whose actor is gone is said in seconds rather than waited on (Ray's 60 s) or raised as Ray's traceback.

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where Ray is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import re
import signal
import time
from pathlib import Path

import pytest

from recordlens.core.llm.gemini import Budget
from tests.core.ray_helpers import KEY, require_ray, slow_answer, small_copy
from tests.fake_gemini import FakeGemini, answer_with
from tests.ray_cluster import cluster_environment, recordlens_started


def test_sigterm_stops_a_run_on_a_local_ray_instance_as_it_stops_a_local_run(tmp_path: Path) -> None:
    require_ray()
    data = small_copy(tmp_path / "data", 24)
    out = tmp_path / "run"
    env = {**cluster_environment(), "GEMINI_API_KEY": KEY}
    with FakeGemini(default=answer_with(slow_answer)) as server:
        running = recordlens_started(["extract", "-m", "gemini", "-f", "flat", "--pages", str(data / "html"), "--out",
                                      str(out), "--base-url", server.url, "-q", "--engine", "ray", "--workers", "1"],
                                     env=env)
        try:
            deadline = time.monotonic() + 240
            while len(list(out.glob("*.json"))) < 2 and running.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
            assert running.poll() is None, running.communicate()
            running.send_signal(signal.SIGTERM)
            _, err = running.communicate(timeout=120)
        finally:
            running.kill()
    assert running.returncode == 128 + signal.SIGTERM, err[-3000:]
    # the page under way when the signal came is named, as a local run names it (none when it came between pages)
    cut = r"(, stopped on page \d+ \(its paid calls kept in _run/\d+\.json\))?"
    assert re.search(f"pages extracted{cut}; run the same command again for the rest", err), err[-3000:]
    assert err.rstrip().endswith("recordlens: interrupted (SIGTERM)"), err[-3000:]


def test_the_shared_budget_of_a_dead_actor_is_said_in_seconds(tmp_path: Path) -> None:
    ray = require_ray()
    from recordlens.core.runs.engines import EngineError
    from recordlens.core.runs.ray_engine import RayEngine

    if ray.is_initialized():
        pytest.skip("needs a Ray instance of its own")
    handler = signal.getsignal(signal.SIGTERM)
    engine = RayEngine.connect(workers=1)
    try:
        assert signal.getsignal(signal.SIGTERM) is handler  # ray.init's own handler is not left in its place

        class Unit:
            caller = type("Caller", (), {})()

        unit = Unit()
        unit.caller.budget = Budget(requests=1, tokens=10)
        local = unit.caller.budget
        with engine.shipping(unit):
            shared = unit.caller.budget
            assert shared.counts() == (1, 10, 0, 0)  # one question
            ray.kill(shared._actor)
            started = time.monotonic()
            with pytest.raises(EngineError, match="does not answer"):
                while time.monotonic() - started < 30:  # ray.kill is asynchronous: the actor may answer once more
                    shared.counts()
            assert time.monotonic() - started < 30
        assert (local.requests, local.tokens) == (1, 10)  # nothing copied back, and no Ray traceback
    finally:
        engine.close()
        ray.shutdown()
