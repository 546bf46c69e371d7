"""`bench` and `agent run` on Ray count the model requests a worker that died had paid for (their answers lost with
it), as an extraction keeps them in the page's record: bench's spent figures hold them in a row of their own,
"lost", with the pages they were lost on, and an agent run's stored cost says them among its requests, by episode,
and `agent eval`'s cost line says them. A dead worker is simulated by an engine of the test's own that tells of it
as Ray's does (`retried`, before the unit runs again), so no Ray is needed.

Said alike everywhere: before, an agent run whose worker died with its count unknown stored
`lost_requests: 0` and said nothing of the loss (`agent eval`'s cost line printed only a known count); bench wrote
them in a JSON shape of its own (`pages`, `unknown_pages`) beside the agent run's (`units`, `unknown`); and a bench
stopped on a failed page said every page's lost requests as that page's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import pytest

from recordlens.core.agent.engine_runs import episode_key, run_agent_on_engine
from recordlens.core.cli.agent import _cost_figures, _cost_line, _run_cost
from recordlens.core.errors import RecordLensError
from recordlens.core.extract.base import Extraction
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import bench
from recordlens.core.runs.engines import LostWithWorkers, UnitFailedError

DEMO = resource_path("demo", "dataset")
DEATH = "its Ray worker died (ActorDiedError: the worker process exited)"


class _WorkerDiesOnce:
    """An engine whose worker dies once on each unit keyed in `lost`, after paying for its count of model requests
    (None: unknown): told to `retried` as Ray's engine tells it, and the unit run again, which fails again on the
    units keyed in `fails_again`."""

    name = "ray"
    tells_lost_calls = True

    def __init__(self, lost: dict[str, int | None], fails_again: frozenset[str] = frozenset()) -> None:
        self.lost, self.fails_again = lost, fails_again

    def shipping(self, extractor: object, recorded: object = None) -> nullcontext[object]:
        return nullcontext(extractor)

    def map(self, fn: Callable[[object], object], items: Sequence[object], *, key: Callable[[object], str] = str,
            retried: Callable[[object, str, int | None], None], **_: object) -> Iterator[tuple[object, object]]:
        for item in items:
            if key(item) in self.lost:
                retried(item, DEATH, self.lost[key(item)])
            yield item, UnitFailedError("its Ray worker died again") if key(item) in self.fails_again else fn(item)

    def close(self) -> None:
        return None


class _Paying:
    """An extractor whose every page costs one request of 10 prompt and 2 completion tokens."""

    name, version, input_format = "paying-test", "1", "flat"

    def extract(self, page: object) -> Extraction:
        tokens = {"prompt": 10, "completion": 2, "total": 12}
        return Extraction([], self.name, self.version, {}, 0.0, input_format="flat", tokens=tokens,
                          raw={"calls": [{"attempts": 1, "statuses": [200], "tokens": tokens}]})


def test_bench_counts_the_requests_lost_with_a_dead_worker_said_as_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: _Paying())
    result = bench.run_bench(DEMO / "html", DEMO / "gt", [bench.MethodSpec("paying-test")],
                             engine=_WorkerDiesOnce({"2": 2}))  # type: ignore[arg-type]
    document = result.as_dict()
    assert document["spent"] == {"requests": 4 + 2, "tokens": {"prompt": 40, "completion": 8, "total": 48}}
    assert document["lost_with_workers"] == {"requests": 2, "units": {"2": 2}, "unknown": []}  # as an agent run's
    [row] = document["table2"]
    assert row["requests"] == 4  # the method's own: which method asked the lost requests is lost with the worker
    assert any("2 model requests paid for and lost with Ray workers that died (page 2: 2)" in warning
               for warning in result.warnings), result.warnings
    spent = bench.format_tables(result).split("Spent on model calls")[1].splitlines()
    assert spent[2].split() == ["paying-test", "4", "40", "8", "48"]
    assert spent[3].split() == ["lost", "2", "n/a", "n/a", "n/a"]
    assert spent[4].split() == ["all", "6", "40", "8", "48"]
    assert spent[5].startswith("(lost: 2 model requests paid for and lost with Ray workers that died (page 2: 2)")


def test_bench_without_a_dead_worker_says_nothing_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: _Paying())
    result = bench.run_bench(DEMO / "html", DEMO / "gt", [bench.MethodSpec("paying-test")],
                             engine=_WorkerDiesOnce({}))  # type: ignore[arg-type]
    assert result.as_dict()["lost_with_workers"] is None
    assert "lost" not in bench.format_tables(result).split("Spent on model calls")[1]


@dataclass
class _Task:
    id: str


@dataclass
class _Trajectory:
    task_id: str
    run: int
    stop: str = "answer"


class _Episodes(_WorkerDiesOnce):
    """The dying engine, its units' results made here (no episode is run)."""

    def map(self, fn: Callable[[object], object], items: Sequence[object], **options: object
            ) -> Iterator[tuple[object, object]]:
        def trajectory(episode: object) -> _Trajectory:
            run, task = episode  # type: ignore[misc]
            return _Trajectory(task.id, run)

        return super().map(trajectory, items, **options)  # type: ignore[arg-type]


def test_an_agent_run_s_cost_says_the_requests_lost_with_a_dead_worker() -> None:
    lost, stored = LostWithWorkers(), []
    tasks = [_Task("t1"), _Task("t2")]
    victim = episode_key((0, tasks[1]))  # type: ignore[arg-type]
    run_agent_on_engine(_Episodes({victim: 3}), tasks, object(), lambda site: object(), object(),  # type: ignore[arg-type]
                        runs=1, settings=object(), on_trajectory=stored.append,  # type: ignore[arg-type]
                        on_failure=lambda episode, reason: None, lost=lost)
    assert [t.task_id for t in stored] == ["t1", "t2"]
    assert lost.requests == {"t2 (run 0)": 3}
    # the shared budget counted the dead worker's requests among the session's 8: said apart, by episode
    cost = _run_cost({"requests": 2, "tokens": 100}, 8, 900, lost)
    assert cost["requests"] == 10 and cost["lost_requests"] == 3
    assert cost["sessions"][-1]["lost_with_workers"] == {"requests": 3, "units": {"t2 (run 0)": 3}, "unknown": []}
    assert _cost_line(cost) == ("cost: 10 model requests (3 of them paid for on episodes whose Ray worker died, "
                                "their answers lost with it), 1,000 tokens (over 2 sessions: resumed)")
    assert "lost" not in _cost_line(_run_cost({}, 8, 900, LostWithWorkers()))


def test_an_unknown_count_lost_is_said_and_no_zero_is_stored() -> None:
    lost = LostWithWorkers()
    lost.told("t2 (run 0)", None)
    cost = _run_cost({}, 8, 900, lost)
    assert "lost_requests" not in cost and cost["lost_unknown"] == ["t2 (run 0)"]
    assert cost["sessions"][-1]["lost_with_workers"] == {"requests": 0, "units": {}, "unknown": ["t2 (run 0)"]}
    assert _cost_figures(cost) == {"requests": 8, "tokens": 900, "sessions": 1, "lost_unknown": ["t2 (run 0)"]}
    assert _cost_line(cost) == ("cost: 8 model requests (an unknown number of them, on 1 episode, paid for on "
                                "episodes whose Ray worker died, their answers lost with it), 900 tokens")


def test_a_resumed_run_sums_its_sessions_lost_requests_and_names_an_unknown_episode_once() -> None:
    first = LostWithWorkers()
    first.told("t1 (run 0)", 2)
    first.told("t2 (run 0)", None)
    earlier = _run_cost({}, 5, 500, first)
    second = LostWithWorkers()
    second.told("t1 (run 0)", 1)
    second.told("t2 (run 0)", None)
    cost = _run_cost(earlier, 4, 400, second)
    assert (cost["lost_requests"], cost["lost_unknown"]) == (3, ["t2 (run 0)"])
    assert _cost_line(cost) == ("cost: 9 model requests (3 of them, and an unknown number on 1 episode, paid for on "
                                "episodes whose Ray worker died, their answers lost with it), 900 tokens (over 2 "
                                "sessions: resumed)")
    # A run stored with `lost_requests: 0` (before this) says nothing lost.
    assert "lost_requests" not in _cost_figures({"requests": 8, "tokens": 9, "lost_requests": 0})


def test_lost_requests_are_written_and_read_back_in_one_shape() -> None:
    lost = LostWithWorkers()
    lost.told("2", 2)
    lost.told("4", None)
    assert lost.as_dict() == {"requests": 2, "units": {"2": 2}, "unknown": ["4"]}
    assert LostWithWorkers.from_dict(lost.as_dict()) == lost
    assert not hasattr(bench, "_lost_by_page")


def test_a_bench_stopped_on_a_page_says_that_page_s_lost_requests_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: _Paying())
    with pytest.raises(RecordLensError) as stopped:
        bench.run_bench(DEMO / "html", DEMO / "gt", [bench.MethodSpec("paying-test")],
                        engine=_WorkerDiesOnce({"1": 1, "2": 2}, frozenset({"2"})))  # type: ignore[arg-type]
    said = str(stopped.value)
    assert said.startswith("bench stopped: page 2: its Ray worker died again (2 model requests paid for and lost "
                           "with Ray workers that died (page 2: 2)); and 1 model request"), said
    assert said.endswith("(page 1: 1); run it again"), said
