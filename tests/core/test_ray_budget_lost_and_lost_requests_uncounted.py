"""`--engine ray`: a model request lost with a worker that died was sent, so paid for, and its tokens are unknown:
the run's shared budget counts it as an answer without token counts (a token cap is no longer held by counting it
as 0). The shared budget's actor killed part way: the pages that ask it for a request stop, as for a spent budget
(none fails for it, with a Ray report of a dozen lines each), no further page starts, and the run ends once, as on a
lost cluster (exit 4), to be run again.

Needs Ray (the optional extra `ray`); skipped where it is not installed."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.cli.extraction import end_of_run_line
from recordlens.core.extract import create
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.llm.gemini import UNCOUNTED, Budget, lost_with_a_worker_said
from recordlens.core.llm.shared_budget import SharedBudgetLostError
from recordlens.core.page.dom import Page
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.engines import ClusterLostError
from recordlens.core.runs.runner import run_extractor
from tests import ray_units
from tests.core.ray_helpers import KEY, local_ray_instance
from tests.fake_gemini import FakeGemini, answer, answer_with

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages
RECORDS = '[["/body[1]"]]'
ANSWER_AFTER_S = 10.0  # how long the fake model takes to answer a page (long beside DIES_AFTER_S: a busy machine)
DIES_AFTER_S = 3.0  # when the victim's worker dies, its request out (sent within it, on a busy machine too)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local instance of 2 workers for the module, shut down after; this module's units go by value."""
    ray = pytest.importorskip("ray")
    with local_ray_instance("rlbudlost-", ray_units):
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        yield


class DiesWhileAsking(GeminiExtractor):
    """Gemini's extractor, except that the worker process dies on page `victim` while its model request is out
    (sent, paid for, its answer never read), while `flag` exists; the flag goes first, so the page's second run
    lives."""

    def __init__(self, victim: str, flag: Path, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.victim = victim
        self.flag = flag

    def extract(self, page: Page) -> Any:  # noqa: ANN401 - an Extraction
        if page.name == self.victim and self.flag.exists():
            self.flag.unlink()
            threading.Timer(DIES_AFTER_S, os._exit, (17,)).start()  # no cleanup: the process is gone
        return super().extract(page)


def _slowly(body: dict[str, object]) -> str:
    time.sleep(ANSWER_AFTER_S)
    return RECORDS


def test_a_request_lost_with_a_dead_worker_is_counted_without_its_tokens(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag = tmp_path / "kill-once"
    flag.touch()
    engine = RayEngine.connect()  # joins the module's instance, and leaves it running on close()
    try:
        with FakeGemini(default=answer_with(_slowly)) as server:
            extractor = DiesWhileAsking("2", flag, input_format="flat", base_url=server.url, timeout_s=60.0,
                                        backoff_s=0.01)
            summary = run_extractor(extractor, DEMO_PAGES, tmp_path / "run", engine=engine)
            served = len(server.requests)
    finally:
        engine.close()
    assert not flag.exists() and served == summary.requests == 5, (served, summary)  # page 2 paid for twice
    assert "the worker had made 1 model request on it (paid for, lost with it)" in capsys.readouterr().err
    budget = extractor.caller.budget
    # 4 answers counted (100 + 20 tokens each), and the one lost with the worker, its tokens unknown, not 0
    assert (budget.requests, budget.tokens, budget.uncounted, budget.given_up) == (5, 480, 1, 0)
    budget.max_tokens = 100_000
    assert "token budget cannot be held (480 of 100,000 counted)" in (budget.used_up() or "")


def test_a_request_lost_with_a_dead_worker_is_kept_uncounted_and_said_by_the_closing_line(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its page's record keeps it among the answers without token counts (its tokens are in no record: unknown, not
    0), said there, and the run's closing line says it, as the server was paid for it."""
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag = tmp_path / "kill-once"
    flag.touch()
    out = tmp_path / "run"
    engine = RayEngine.connect()
    try:
        with FakeGemini(default=answer_with(_slowly)) as server:
            extractor = DiesWhileAsking("2", flag, input_format="flat", base_url=server.url, timeout_s=60.0,
                                        backoff_s=0.01)
            summary = run_extractor(extractor, DEMO_PAGES, out, engine=engine)
    finally:
        engine.close()
    [lost] = json.loads((out / "_run" / "2.json").read_text())["earlier"]
    assert lost["tokens"] == {UNCOUNTED: 1} and lost["warnings"] == [lost_with_a_worker_said(1)], lost
    assert summary.tokens[UNCOUNTED] == 1 and summary.tokens["total"] == 480, summary.tokens
    assert ("480 tokens (400 prompt, 80 completion) counted, and 1 answer without token counts (their tokens "
            "unknown, not 0)") in end_of_run_line(summary)


def test_a_request_whose_answer_was_read_before_its_worker_died_is_not_counted_twice(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag = tmp_path / "kill-once"
    flag.touch()
    engine = RayEngine.connect()
    try:
        with FakeGemini(default=answer(RECORDS, usage=(100, 20))) as server:
            extractor = ray_units.PaidThenKilledExtractor("2", flag, input_format="flat", base_url=server.url,
                                                          timeout_s=60.0, backoff_s=0.01)
            run_extractor(extractor, DEMO_PAGES, tmp_path / "run", engine=engine)
    finally:
        engine.close()
    budget = extractor.caller.budget
    assert (budget.requests, budget.tokens, budget.uncounted) == (5, 600, 0)  # its tokens were counted as read


def _killing_the_limiter(engine: Any) -> Any:  # noqa: ANN401 - the fake's answer
    """The fake model's answer to a page, given after the run's shared budget's actor has been killed (the first
    time only), as a lost node or an out-of-memory kill ends it."""
    import ray
    from ray import exceptions

    killed: list[bool] = []

    def respond(body: dict[str, object]) -> str:
        if not killed:
            killed.append(True)
            [(shared, _)] = engine._shared.values()  # noqa: SLF001 - the run's one shared budget
            actor = shared._shared._actor  # noqa: SLF001
            ray.kill(actor, no_restart=True)
            for _ in range(100):  # dead for every worker before this page's answer goes back
                try:
                    ray.get(actor.counts.remote(), timeout=1.0)
                except exceptions.RayActorError:
                    break
                except exceptions.GetTimeoutError:
                    continue
        return RECORDS

    return answer_with(respond)


def test_a_killed_shared_budget_stops_the_run_once_with_no_page_failed(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs.ray_engine import BudgetLostError, RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    out = tmp_path / "run"
    engine = RayEngine.connect()
    try:
        with FakeGemini() as server:
            server.script(default=_killing_the_limiter(engine))
            extractor = create("gemini", input_format="flat", base_url=server.url, timeout_s=60.0, backoff_s=0.01,
                               budget=Budget(max_requests=100))
            with pytest.raises(BudgetLostError) as lost:
                run_extractor(extractor, DEMO_PAGES, out, engine=engine)
            served = len(server.requests)
    finally:
        engine.close()
    assert isinstance(lost.value, ClusterLostError) and lost.value.exit_status == 4  # as a lost cluster ends
    said = str(lost.value)
    assert said.startswith("the run's shared model budget") and "run the same command again" in said, said
    assert "\n" not in said and "ActorDiedError" not in said
    records = {path.stem: json.loads(path.read_text()) for path in (out / "_run").glob("[0-9]*.json")}
    assert not [name for name, record in records.items() if record.get("status") == "failed"], records
    written = sorted(path.stem for path in out.glob("[0-9]*.json"))
    assert 1 <= len(written) == served < 4, (written, served)  # the pages answered kept, the others not reached
    err = capsys.readouterr().err
    assert "Limiter" not in err and "failed" not in err, err  # no Ray report, no page failed


def test_a_worker_that_meets_a_dead_budget_stops_its_page_as_a_spent_budget() -> None:
    pytest.importorskip("ray")  # (Ray's own exception is what a dead actor raises)

    class _Dead:
        def remote(self) -> None:
            from ray import exceptions

            raise exceptions.ActorDiedError()

    class _Actor:
        reserve = used_up = _Dead()

    from recordlens.core.llm.gemini import BudgetExceededError
    from recordlens.core.llm.shared_budget import SharedBudget

    with pytest.raises(SharedBudgetLostError) as stopped:
        SharedBudget(_Actor()).reserve_request()
    assert isinstance(stopped.value, BudgetExceededError)  # the page loop's stop, not a page's failure
    assert str(stopped.value).startswith("the run's shared model budget (a Ray actor) is gone (ActorDiedError)")
    with pytest.raises(SharedBudgetLostError):
        SharedBudget(_Actor()).used_up()
