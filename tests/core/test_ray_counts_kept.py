"""`--engine ray`: what a run paid for is counted from what was recorded when Ray cannot tell it, and kept when a
worker dies with it. The cluster's head lost: the pages said kept are those written (their workers wrote them, though
their results never came back); the shared budget's actor lost: the requests are counted from the pages' records, not
said as 0 beside the tokens; a worker killed after its model call: its page is said to run again, and the request
it paid for is kept in the page's record (under "earlier", as a page stopped part way keeps its calls) and counted;
a reservation a worker gives back, and an answer's tokens, are counted before its unit's result is the driver's.

The first two need no Ray (an engine of the test's own); the others do (the optional extra `ray`, installed by
`pip install -e '.[ray]'` in the checkout), and skip where Ray is not installed (`make test-ray` installs it)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.llm.gemini import Budget
from recordlens.core.llm.shared_budget import Limiter, SharedBudget
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import ray_engine
from recordlens.core.runs.engines import ClusterLostError, EngineError, LocalEngine
from recordlens.core.runs.runner import run_extractor
from tests import ray_units
from tests.core.ray_helpers import KEY, local_ray_instance
from tests.fake_gemini import FakeGemini, answer

DEMO_PAGES = resource_path("demo", "dataset", "html")  # 4 pages


class _HeadLostEngine:
    """An engine whose workers write the first `written` pages, of which the results of the first `received` come
    back, before the cluster's head is lost (as Ray says it: the units whose results came back)."""

    name = "ray"

    def __init__(self, written: int, received: int) -> None:
        self.written, self.received = written, received

    def shipping(self, extractor: object, recorded: object = None) -> nullcontext[object]:
        return nullcontext(extractor)

    def map(self, fn: Callable[[str], object], items: Sequence[str], **_: object) -> Iterator[tuple[str, object]]:
        for index, item in enumerate(items[:self.written]):
            result = fn(item)  # its worker wrote the page
            if index < self.received:
                yield item, result
        raise ClusterLostError("10.0.0.9:6379", self.received)

    def close(self) -> None:
        return None


def test_a_lost_cluster_says_the_pages_written_as_kept(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(ClusterLostError) as lost:
        run_extractor(create("repeats"), DEMO_PAGES, out, engine=_HeadLostEngine(written=3, received=1))
    assert len(list(out.glob("*.json"))) == 3
    assert "was lost (its head no longer answers); 3 page(s) finished before are kept" in str(lost.value)
    assert lost.value.address == "10.0.0.9:6379"


class _Unanswering:
    """A shared budget's actor that does not answer (its node, or the cluster's head, died)."""

    def counts(self) -> tuple[int, int, int]:
        raise EngineError("the run's shared model budget (a Ray actor) does not answer: GetTimeoutError")


class _CountsLostEngine(LocalEngine):
    """The units run here, counting in a budget of their own (as Ray's workers count in the shared budget's actor),
    whose counts are lost at the end, as a Ray engine meets it."""

    name = "ray"
    tells_lost_calls = True  # its shipping is given what the pages recorded, as Ray's is

    @contextmanager
    def shipping(self, extractor: object, recorded: object = None) -> Iterator[object]:
        caller = extractor.caller  # type: ignore[attr-defined]
        budget = caller.budget
        caller.budget = Budget()
        try:
            yield extractor
        finally:
            caller.budget = budget
            ray_engine._count_back(_Unanswering(), budget, recorded, asked=True)  # type: ignore[arg-type]


def test_requests_are_counted_from_the_records_when_the_shared_budget_is_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    with FakeGemini(default=answer('[["/body[1]"]]', usage=(100, 20))) as server:
        extractor = create("gemini", input_format="flat", base_url=server.url, timeout_s=60.0, backoff_s=0.01)
        summary = run_extractor(extractor, DEMO_PAGES, tmp_path / "run", engine=_CountsLostEngine())
    assert len(summary.extracted) == 4
    assert summary.requests == 4, summary  # not 0 beside 480 tokens
    assert summary.tokens["total"] == 480
    assert extractor.caller.budget.tokens == 480  # type: ignore[attr-defined] - a later seed's budget holds them
    said = capsys.readouterr().err
    assert ("warning: the run's shared model budget (a Ray actor) does not answer: GetTimeoutError; the model calls "
            "of this run are counted from its pages' records (4 requests; a call of a Ray worker that died is in no "
            "record)") in said, said


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local instance of 2 workers for the module, shut down after."""
    with local_ray_instance("rlcount-", ray_units):
        yield


def test_a_worker_killed_after_its_model_call_is_said_and_its_paid_request_kept_and_counted(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag = tmp_path / "kill-once"
    flag.touch()
    out = tmp_path / "run"
    engine = RayEngine.connect()  # joins the module's instance, and leaves it running on close()
    try:
        with FakeGemini(default=answer('[["/body[1]"]]', usage=(100, 20))) as server:
            extractor = ray_units.PaidThenKilledExtractor("2", flag, input_format="flat", base_url=server.url,
                                                          timeout_s=60.0, backoff_s=0.01)
            summary = run_extractor(extractor, DEMO_PAGES, out, engine=engine)
            served = len(server.requests)
    finally:
        engine.close()

    assert not flag.exists()  # the worker did die on page 2
    assert sorted(summary.extracted) == ["1", "2", "3", "4"] and not summary.failed, summary
    assert served == 5 and summary.requests == 5, summary  # page 2 was paid for twice
    said = capsys.readouterr().err
    assert "page 2: its Ray worker died (" in said, said
    assert "; the worker had made 1 model request on it (paid for, lost with it); running it again\n" in said, said
    record = json.loads((out / "_run" / "2.json").read_text())
    assert record["status"] == "done"
    [lost] = record["earlier"]
    assert lost["status"] == "not finished" and "its Ray worker died" in lost["reason"]
    assert [call["attempts"] for call in lost["raw"]["calls"]] == [1]
    records = [json.loads(path.read_text()) for path in sorted((out / "_run").glob("[0-9]*.json"))]
    paid = sum(call["attempts"] for record in records for kept in [record, *record.get("earlier", [])]
               for call in kept["raw"]["calls"])
    assert paid == 5  # every request paid for is in a page's record


def test_a_worker_killed_in_a_later_pass_says_and_keeps_the_requests_of_that_pass_alone(
        ray_instance: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One engine runs every seed of `extract --seeds N`: the requests a dead worker paid for on page 2 in the
    second pass are that pass's, not the first pass's too."""
    from recordlens.core.runs.ray_engine import RayEngine

    monkeypatch.setenv("GEMINI_API_KEY", KEY)
    flag = tmp_path / "kill-once"  # absent: the first pass runs whole
    engine = RayEngine.connect()
    try:
        with FakeGemini(default=answer('[["/body[1]"]]', usage=(100, 20))) as server:
            for seed in (0, 1):
                if seed == 1:
                    flag.touch()  # the second pass's worker dies on page 2, after its one request
                extractor = ray_units.PaidThenKilledExtractor("2", flag, input_format="flat", base_url=server.url,
                                                              timeout_s=60.0, backoff_s=0.01)
                run_extractor(extractor, DEMO_PAGES, tmp_path / f"seed-{seed}", engine=engine)
            served = len(server.requests)
    finally:
        engine.close()

    assert not flag.exists() and served == 4 + 5
    said = capsys.readouterr().err
    assert "; the worker had made 1 model request on it (paid for, lost with it); running it again\n" in said, said
    [lost] = json.loads((tmp_path / "seed-1" / "_run" / "2.json").read_text())["earlier"]
    assert [call["attempts"] for call in lost["raw"]["calls"]] == [1]



class _BusyLimiter(Limiter):
    """The shared budget's actor, which can be kept busy a while, and says when it last counted what a worker gave
    back or added."""

    told_at: float | None = None

    def busy(self, seconds: float) -> None:
        time.sleep(seconds)

    def release(self) -> None:
        super().release()
        self.told_at = time.monotonic()

    def add_tokens(self, count: int) -> None:
        super().add_tokens(count)
        self.told_at = time.monotonic()

    def add_uncounted(self, given_up: bool = False) -> None:
        super().add_uncounted(given_up)
        self.told_at = time.monotonic()

    def when_told(self) -> float | None:
        return self.told_at


def _tell(budget: object, told: str, *args: object) -> float:
    """A unit that gives back a reservation, or adds tokens or an answer without counts: when it went on after."""
    getattr(budget, told)(*args)
    return time.monotonic()


@pytest.mark.parametrize(("told", "args", "counts"), [("release_request", (), (0, 0, 0, 0)),
                                                      ("add_tokens", (5,), (1, 5, 0, 0)),
                                                      ("add_uncounted", (True,), (1, 0, 1, 1))])
def test_what_a_worker_gives_back_or_adds_is_counted_before_its_unit_goes_on(
        ray_instance: None, told: str, args: tuple[object, ...], counts: tuple[int, int, int, int]) -> None:
    """A reservation given back (its attempt's connection refused: no request), an answer's tokens, an answer without
    token counts: counted by the shared budget's actor before the unit goes on, so before its result reaches the
    driver, which reads the counts once the last unit's result is in (`_count_back`). Told without waiting, a read
    made then could come before them (a call of the driver's is not ordered after a worker's): some 3 reads in 100
    found a refused attempt counted as a request, or an answer's tokens left out. Here the actor is busy for a second
    as the unit tells it: the unit goes on only once the actor has counted it."""
    import ray

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the actor's class and the unit, by value
    try:
        actor = ray.remote(num_cpus=0)(_BusyLimiter).remote(requests=1)  # one request reserved
        shared = ray_engine._DriverBudget(SharedBudget(actor))  # as the engine ships a run's budget
        actor.busy.remote(1.0)
        went_on = ray.get(ray.remote(num_cpus=1)(_tell).remote(shared, told, *args))
        counted_at, read = ray.get(actor.when_told.remote()), shared.counts()
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.kill(actor)
    assert counted_at is not None and counted_at <= went_on  # None: not counted yet when asked
    assert read == counts
