"""`--engine ray` as the local engine: a page's record holds the settings its answer was made with (a worker's
shared budget says the run's caps, which `GeminiExtractor.settings` reads: without them every record lacked the
endpoint); Ctrl+C or SIGTERM starts no unit and sends no request after it, and the pages under way keep what
they paid for ("not finished", their calls), as a local run's page does; `--requests-per-minute` holds as the
server counts, from when each request leaves (a fresh worker's first request leaves a second or more after its
reservation, and the server saw 11 requests within 60 s under --requests-per-minute 10).

Ray is the optional extra `ray` (`pip install -e '.[ray]'` in the checkout): these tests skip where it is not
installed (`make test-ray` installs it)."""

from __future__ import annotations

import functools
import json
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import Budget
from recordlens.core.resource_files import resource_path
from tests.core.ray_helpers import KEY, engine_on_the_instance, module_ray_instance, require_ray, small_copy
from tests.fake_gemini import FakeGemini, Step, answer, answer_with
from tests.ray_cluster import cluster_environment, ray_cluster, recordlens_running, wait_while_running

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages
WINDOW_S = 3.0  # the rate's window in these tests: a minute's rule, seconds long


# Fixtures: one local instance of 2 workers for the module, and a RayEngine joined to it for a test
ray_instance = module_ray_instance
engine = engine_on_the_instance


def _records(run: Path) -> dict[str, dict[str, Any]]:
    return {path.stem: json.loads(path.read_text()) for path in sorted((run / "_run").glob("[0-9]*.json"))}


def test_a_ray_runs_page_records_hold_the_settings_a_local_runs_do(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    local, on_ray = tmp_path / "local", tmp_path / "ray"
    with FakeGemini(default=answer('[["/body[1]"]]')) as server:
        for out, engine in ((local, []), (on_ray, ["--engine", "ray"])):
            assert main(["extract", "-m", "gemini", "-f", "flat", "--pages", str(DEMO_PAGES), "--out", str(out),
                         "--base-url", server.url, "--max-requests", "40", "-q", *engine]) == 0
    by_local, by_ray = _records(local), _records(on_ray)
    assert sorted(by_ray) == sorted(by_local) == ["1", "2", "3", "4"]
    for name, record in by_ray.items():
        assert record["settings"] == by_local[name]["settings"], name
        assert record["settings"]["base_url"] == server.url and record["settings"]["json_output"] is True
    described = json.loads((on_ray / "_run" / "run.json").read_text())["settings"]
    assert described["max_requests"] == 40  # the run's caps, as the driver's budget holds them


class _Unit:
    """A unit with a Gemini caller's budget (the attribute `RayEngine.shipping` gives the run's shared budget)."""

    def __init__(self) -> None:
        self.caller = type("Caller", (), {})()
        self.caller.budget = Budget()


def _reserve_then_leave(unit: _Unit, late: dict[str, float], name: str) -> float:
    """A model request as a worker makes it: reserved, then sent `late[name]` seconds later (a fresh worker's SDK
    at its first request); when it left."""
    unit.caller.budget.reserve_request()
    time.sleep(late.get(name, 0.0))
    unit.caller.budget.request_sent()
    return time.time()


def _most_within(times: list[float], window_s: float) -> int:
    return max(sum(1 for other in times if start <= other < start + window_s) for start in times)


def test_requests_per_minute_count_from_when_each_request_leaves_not_from_its_reservation(engine: object) -> None:
    engine.requests_per_minute = 2  # type: ignore[attr-defined]
    engine.rate_window_s = WINDOW_S  # type: ignore[attr-defined]
    unit = _Unit()
    late = {"a": 1.5}  # reserved with "b", it leaves 1.5 s after
    with engine.shipping(unit) as shipped:  # type: ignore[attr-defined]
        left = dict(engine.map(functools.partial(_reserve_then_leave, shipped, late),  # type: ignore[attr-defined]
                               ["a", "b", "c", "d", "e"]))
    assert len(left) == 5
    # counted from the reservations, "c" and "d" both left as "b"'s window ended, with "a" 1.5 s before them
    assert _most_within(sorted(left.values()), WINDOW_S) <= 2, sorted(t - min(left.values()) for t in left.values())


def test_requests_per_minute_hold_at_the_server_on_a_gemini_run(engine: object, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole way: each worker's caller tells its request as the HTTP client sends it."""
    from recordlens.core.extract import create
    from recordlens.core.runs.runner import run_extractor

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    engine.requests_per_minute = 2  # type: ignore[attr-defined]
    engine.rate_window_s = WINDOW_S  # type: ignore[attr-defined]
    arrived: list[float] = []

    def noted(body: dict[str, Any]) -> str:
        arrived.append(time.time())
        return '[["/body[1]"]]'

    pages = small_copy(tmp_path / "data", 6) / "html"
    with FakeGemini(default=answer_with(noted)) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url)
        summary = run_extractor(extractor, pages, tmp_path / "run", engine=engine)  # type: ignore[arg-type]
    assert len(summary.extracted) == 6 and len(arrived) == 6
    assert _most_within(sorted(arrived), WINDOW_S) <= 2, [round(t - arrived[0], 2) for t in sorted(arrived)]


FAST_ANSWERS = 6  # the first requests are answered in 0.3 s; then the 7th takes 6 s, and each later one 0.8 s


@pytest.mark.parametrize("where, stop", [("local", signal.SIGINT), ("local", signal.SIGTERM),
                                         ("cluster", signal.SIGINT)])
def test_a_stopped_ray_run_sends_nothing_after_the_stop_and_keeps_every_paid_request_in_a_record(
        where: str, stop: signal.Signals, tmp_path: Path) -> None:
    """A gemini extract on a local instance of 2 workers, or joined to a cluster of 1, stopped once the 7th page's
    request is under way (6 were answered at once, the 7th takes seconds): no request reaches the server
    after the stop (a joined cluster's workers ran the tasks left to them after the command had ended), and every
    request the server got is in a page's record (those under way were lost with the workers that Ray shut down),
    the pages under way "not finished" with their calls, as a local run keeps the page it was stopped on."""
    require_ray()
    data = small_copy(tmp_path / "data", 24)
    out = tmp_path / "run"
    arrived: list[float] = []
    lock = threading.Lock()

    def answered_in_turn(body: dict[str, Any]) -> Step:
        with lock:
            arrived.append(time.time())
            number = len(arrived)
        time.sleep(0.3 if number <= FAST_ANSWERS else 6.0 if number == FAST_ANSWERS + 1 else 0.8)
        return answer('[["/body[1]"]]')

    env = {**cluster_environment(), "GEMINI_API_KEY": KEY}
    with FakeGemini(default=answer_with(answered_in_turn)) as server, _engine_options(where) as engine:
        args = ["extract", "-m", "gemini", "-f", "flat", "--pages", str(data / "html"), "--out", str(out),
                "--base-url", server.url, "-q", "--engine", "ray", *engine]
        with recordlens_running(args, env=env) as running:
            wait_while_running(running, lambda: len(arrived) > FAST_ANSWERS)  # until the 7th request is under way
            stopped_at = time.time()
            running.send_signal(stop)
            _, err = running.communicate(timeout=120)
        time.sleep(8.0)  # a request the workers sent late, or a page they finished late, is in by now
        with lock:
            times = list(arrived)
    assert running.returncode == 128 + stop, err[-3000:]
    late = [round(at - stopped_at, 3) for at in times if at > stopped_at + 0.25]
    assert late == [], late  # the stop is told to the workers as the driver meets it: none sends a request after
    records = _records(out)
    paid = sum(call.get("attempts", 0) for record in records.values() for kept in [record, *record.get("earlier", [])]
               for call in kept.get("raw", {}).get("calls", []))
    assert paid == len(times), (paid, len(times), {name: r["status"] for name, r in records.items()})
    cut = [record for record in records.values() if record["status"] != "done"]
    for record in cut:
        assert record["status"] == "not finished" and record["reason"].startswith("interrupted"), record
    assert [1] in [[call["attempts"] for call in record["raw"]["calls"]] for record in cut], cut  # the 7th's


@contextmanager
def _engine_options(where: str) -> Iterator[list[str]]:
    """The options of a run on a local instance of 2 workers, or on a cluster of 1 node (started for it)."""
    if where == "local":
        yield ["--workers", "2"]
        return
    with ray_cluster() as cluster:
        yield ["--ray-address", cluster.address]
