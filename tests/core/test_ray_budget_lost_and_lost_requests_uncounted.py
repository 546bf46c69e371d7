"""`--engine ray`: a model request lost with a worker that died was sent, so paid for, and its tokens are unknown:
the run's shared budget counts it as an answer without token counts (a token cap is no longer held by counting it
as 0). The shared budget's actor killed part way: the pages that ask it for a request stop, as for a spent budget
(none fails for it, with a Ray report of a dozen lines each), no further page starts, and the run ends once, as on a
lost cluster (exit 4), to be run again; an agent run's episodes likewise, its end said as the budget's death, not a
lost cluster's head.

Needs Ray (the optional extra `ray`); skipped where it is not installed."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recordlens.core.cli.command import main
from recordlens.core.cli.extraction import end_of_run_line
from recordlens.core.extract import create
from recordlens.core.extract.gemini import GeminiExtractor, build_prompt
from recordlens.core.llm.gemini import NO_USAGE_METADATA, UNCOUNTED, Budget, lost_with_a_worker_said
from recordlens.core.llm.shared_budget import SharedBudgetLostError
from recordlens.core.page.dataset import load_page
from recordlens.core.page.dom import Page
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.engines import ClusterLostError
from recordlens.core.runs.runner import run_extractor
from tests import ray_units
from tests.core.ray_helpers import KEY, local_ray_instance
from tests.fake_gemini import FakeGemini, Request, Step, answer, answer_with, hang

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages
RECORDS = '[["/body[1]"]]'
# How long the victim's worker waits for the server to have its request, and the server holds that request's answer:
# each wait ends as soon as what it waits for happens, so these are reached only when a test fails
ASKED_WITHIN_S = 120.0
HELD_S = 300.0


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local instance of 2 workers for the module, shut down after; this module's units go by value."""
    ray = pytest.importorskip("ray")
    with local_ray_instance("rlbudlost-", ray_units):
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
        yield


class DiesWhileAsking(GeminiExtractor):
    """Gemini's extractor, except that the worker process dies on page `victim` while its model request is out
    (sent, paid for, its answer never read), while `flag` exists: once the server has the request (`asked`, made by
    `_holding_the_victims_answer`). The flag goes first, so the page's second run lives."""

    def __init__(self, victim: str, flag: Path, asked: Path, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.victim = victim
        self.flag = flag
        self.asked = asked

    def extract(self, page: Page) -> Any:  # noqa: ANN401 - an Extraction
        if page.name == self.victim and self.flag.exists():
            self.flag.unlink()
            threading.Thread(target=_dies_once_there, args=(self.asked,), daemon=True).start()
        return super().extract(page)


def _dies_once_there(asked: Path) -> None:
    """This process ended at once (no cleanup) when `asked` appears: its request is with the server by then."""
    deadline = time.monotonic() + ASKED_WITHIN_S
    while not asked.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    if asked.exists():
        os._exit(17)


def _holding_the_victims_answer(victim: str, asked: Path) -> Step:
    """The fake model's answer to every page at once, but to the first request for page `victim`: that one makes
    `asked`, for its worker to die on, and is held (never answered while the test runs). Its request is known by its
    prompt, which is that page's own."""
    prompt = build_prompt(load_page(DEMO_PAGES / f"{victim}.html").page, "flat")[1]

    def respond(body: dict[str, Any]) -> str | Step:
        if Request("", body, None).prompt_text == prompt and not asked.exists():
            asked.touch()
            return hang(HELD_S)
        return RECORDS

    return answer_with(respond)


def test_a_request_lost_with_a_dead_worker_is_counted_without_its_tokens(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag, asked = tmp_path / "kill-once", tmp_path / "asked"
    flag.touch()
    engine = RayEngine.connect()  # joins the module's instance, and leaves it running on close()
    try:
        with FakeGemini(default=_holding_the_victims_answer("2", asked)) as server:
            extractor = DiesWhileAsking("2", flag, asked, input_format="flat", base_url=server.url,
                                        timeout_s=HELD_S, backoff_s=0.01)
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
    said = budget.used_up() or ""
    assert f"token budget cannot be held (480 of 100,000 counted): {lost_with_a_worker_said(1)}" in said, said
    assert NO_USAGE_METADATA not in said, said  # the endpoint counted every answer it gave


def test_a_request_lost_with_a_dead_worker_is_kept_uncounted_and_said_by_the_closing_line(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its page's record keeps it among the answers without token counts (its tokens are in no record: unknown, not
    0), said there, and the run's closing line says it, as the server was paid for it."""
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag, asked = tmp_path / "kill-once", tmp_path / "asked"
    flag.touch()
    out = tmp_path / "run"
    engine = RayEngine.connect()
    try:
        with FakeGemini(default=_holding_the_victims_answer("2", asked)) as server:
            extractor = DiesWhileAsking("2", flag, asked, input_format="flat", base_url=server.url,
                                        timeout_s=HELD_S, backoff_s=0.01)
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


def _killing_the_limiter(the_actor: Callable[[], Any], text: str = RECORDS) -> Any:  # noqa: ANN401 - the answer
    """The fake model's answer (`text`), given after the run's shared budget's actor (`the_actor()`) has been killed
    (the first time only), as a lost node or an out-of-memory kill ends it."""
    import ray
    from ray import exceptions

    killed: list[bool] = []

    def respond(body: dict[str, object]) -> str:
        if not killed:
            killed.append(True)
            actor = the_actor()
            ray.kill(actor, no_restart=True)
            for _ in range(100):  # dead for every worker before this page's answer goes back
                try:
                    ray.get(actor.counts.remote(), timeout=1.0)
                except exceptions.RayActorError:
                    break
                except exceptions.GetTimeoutError:
                    continue
        return text

    return answer_with(respond)


def _the_budget_actor_of(engine: Any) -> Any:  # noqa: ANN401 - a Ray actor
    """The actor of the run's one shared budget, as `engine` holds it."""
    [(shared, _)] = engine._shared.values()  # noqa: SLF001
    return shared._shared._actor  # noqa: SLF001


def test_a_killed_shared_budget_stops_the_run_once_with_no_page_failed(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs.ray_engine import BudgetLostError, RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    out = tmp_path / "run"
    engine = RayEngine.connect()
    try:
        with FakeGemini() as server:
            server.script(default=_killing_the_limiter(lambda: _the_budget_actor_of(engine)))
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


def test_agent_run_whose_shared_budget_is_killed_ends_as_extract_does_said_as_the_budget_not_a_cluster(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs import ray_engine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    site = str(resource_path("agent", "demo-site"))
    tasks = tmp_path / "tasks.jsonl"
    lines = resource_path("agent", "demo-tasks.jsonl").read_text("utf-8").splitlines()
    tasks.write_text("\n".join(line for line in lines if '"rules-' in line) + "\n", encoding="utf-8")
    command = ["agent", "run", "--project", str(tmp_path / "p"), "--site", site, "--tasks", str(tasks),
               "--browser", "text", "--step-budget", "3", "--max-requests", "100", "--engine", "ray"]
    started: list[Any] = []  # the shared budgets the command's engine starts
    start = ray_engine.start_shared_budget

    def kept(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - a SharedBudget
        started.append(start(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(ray_engine, "start_shared_budget", kept)
    with FakeGemini() as server:
        server.script(default=_killing_the_limiter(lambda: started[0]._actor, "Click [5]"))  # noqa: SLF001
        code = main([*command, "--base-url", server.url])
        err = capsys.readouterr().err
        assert code == 4, err  # as `extract` ends on it, and on a lost cluster: not the spent budget's 3
        last = err.strip().splitlines()[-1]
        assert last.startswith("recordlens: error: agent run 1 failed: the run's shared model budget (the Ray "
                               "actor that counts every worker's model requests against the run's caps) died part "
                               "way through the run, so no further episode was started"), last
        assert "--resume 1" in last and "cluster" not in last and "head" not in last, last
        server.script(default=answer_with(lambda body: "Click [5]"))  # the same endpoint, its budget alive
        assert main([*command, "--base-url", server.url, "--resume", "1"]) == 0, capsys.readouterr().err


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
