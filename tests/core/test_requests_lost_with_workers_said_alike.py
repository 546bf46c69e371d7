"""The requests lost with a dead Ray worker: an agent run whose worker died with its count unknown stored
`lost_requests: 0` and said nothing of the loss (`agent eval`'s cost line printed only a known count); bench wrote
them in a JSON shape of its own (`pages`, `unknown_pages`) beside the agent run's (`units`, `unknown`); and a bench
stopped on a failed page said every page's lost requests as that page's."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import nullcontext

import pytest

from recordlens.core.cli.agent import _cost_figures, _cost_line, _run_cost
from recordlens.core.errors import RecordLensError
from recordlens.core.extract.base import Extraction
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import bench
from recordlens.core.runs.engines import LostWithWorkers, UnitFailedError

DEMO = resource_path("demo", "dataset")


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


class _LosesThenFails:
    """An engine that tells of lost requests on pages "1" (1) and "2" (2), then reports page "2" failed."""

    name = "ray"
    tells_lost_calls = True

    def shipping(self, extractor: object, recorded: object = None) -> nullcontext[object]:
        return nullcontext(extractor)

    def map(self, fn: Callable[[object], object], items: Sequence[object], *, key: Callable[[object], str] = str,
            retried: Callable[[object, str, int | None], None], **_: object) -> Iterator[tuple[object, object]]:
        for item in items:
            if key(item) in ("1", "2"):
                retried(item, "its Ray worker died", int(key(item)))
            yield item, UnitFailedError("its Ray worker died again") if key(item) == "2" else fn(item)

    def close(self) -> None:
        return None


class _Paying:
    name, version, input_format = "paying-test", "1", "flat"

    def extract(self, page: object) -> Extraction:
        tokens = {"prompt": 10, "completion": 2, "total": 12}
        return Extraction([], self.name, self.version, {}, 0.0, input_format="flat", tokens=tokens,
                          raw={"calls": [{"attempts": 1, "statuses": [200], "tokens": tokens}]})


def test_a_bench_stopped_on_a_page_says_that_page_s_lost_requests_as_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: _Paying())
    with pytest.raises(RecordLensError) as stopped:
        bench.run_bench(DEMO / "html", DEMO / "gt", [bench.MethodSpec("paying-test")],
                        engine=_LosesThenFails())  # type: ignore[arg-type]
    said = str(stopped.value)
    assert said.startswith("bench stopped: page 2: its Ray worker died again (2 model requests paid for and lost "
                           "with Ray workers that died (page 2: 2)); and 1 model request"), said
    assert said.endswith("(page 1: 1); run it again"), said
