"""`agent run --engine ray`: each episode (a task in one run) is a unit of work on the engine (issue 16).

A unit runs `run_episode` as the local loop does, with a fresh core HTML browser over the site, which it
reads by path; its Gemini caller shares one budget with every other worker. The driver stores each
trajectory as it arrives (the project database is written by one process only) and stops handing out
episodes once one stops on the model budget or on a failing model endpoint, as the local loop does (the
episodes in flight then are kept; a failing endpoint then fails the run, `ModelEndpointError`, and so does the
shared budget's actor dying under the run, `SharedBudgetDiedError`). Stopped (Ctrl+C, SIGTERM), the run stores
what finished and the episodes under way as they stood, cut as interrupted with the model calls they had paid for,
as a local run stores them (`loop.stopped_now`). The QtWebEngine browser lives in the app process and is
not shipped: Ray runs `--browser text` only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import dataclass

from ..llm.gemini import carry_paid
from ..runs.engines import (
    CutShort,
    Engine,
    LostWithWorkers,
    UnitFailedError,
    shared_budget_died,
    told_of_cut_units,
    told_of_lost_calls,
)
from .loop import AgentSettings, Caller, ModelEndpointError, run_episode, run_seed, seed_caller
from .model import Browser, Task, Trajectory
from .sites import Site

Episode = tuple[int, Task]


class SharedBudgetDiedError(ModelEndpointError):
    """The run's shared model budget's Ray actor died part way and episodes stopped on it: no model request can be
    counted against the run's caps, so the run fails as on a model endpoint that failed for good (exit 4, its finished
    episodes kept, to be resumed), as an extraction ends on it; not as a spent budget, which no resume would mend."""

    def __init__(self) -> None:
        super().__init__(shared_budget_died("episode"))


@dataclass
class EpisodeUnit:
    """One episode wherever it runs. `caller` is the attribute `Engine.shipping` gives a shared budget."""

    caller: Caller
    site: Site
    browser_factory: Callable[[Site], Browser]
    settings: AgentSettings
    seed: int | None = None

    def __call__(self, episode: Episode) -> Trajectory:
        run, task = episode
        # Each unit holds its own copy of the caller, so setting run r's seed here touches no other episode.
        seed_caller(self.caller, run_seed(self.seed, run), self.seed is not None)
        so_far = _SoFar()
        try:
            return run_episode(task, self.browser_factory(self.site), self.caller, self.settings, run=run,
                               on_call=so_far)
        except KeyboardInterrupt as stop:  # the run's stop: the episode as it stood goes with it, to be stored
            if so_far.trajectory is not None:
                carry_paid(stop, so_far.trajectory)
            raise


class _SoFar:
    """An episode as it stood after its last model call or step (`loop.stopped_now`: cut as interrupted), once it made
    a call: a stop while the next call waits keeps the steps it took."""

    def __init__(self) -> None:
        self.trajectory: Trajectory | None = None

    def __call__(self, trajectory: Trajectory) -> None:
        self.trajectory = trajectory


def episode_key(episode: Episode) -> str:
    return f"{episode[1].id} (run {episode[0]})"


def run_agent_on_engine(engine: Engine, tasks: Sequence[Task], site: Site,
                        browser_factory: Callable[[Site], Browser], caller: Caller, *, runs: int,
                        settings: AgentSettings, on_trajectory: Callable[[Trajectory], None],
                        on_failure: Callable[[str, str], None], seed: int | None = None,
                        done_already: Callable[[Task, int], bool] = lambda task, run: False,
                        lost: LostWithWorkers | None = None) -> list[Trajectory]:
    """Every task `runs` times on `engine`; `on_trajectory` sees them, and they are returned, in the local loop's
    (run-major) order. An episode whose worker died is reported to `on_failure(episode, reason)` and left out.
    `lost` is told, by episode, of the model requests a worker that died had paid for (their answers lost with it),
    as the engine tells them, before the episode runs again."""
    episodes: list[Episode] = [(run, task) for run in range(runs) for task in tasks if not done_already(task, run)]
    finished: dict[str, Trajectory | None] = {}  # None: the episode's worker died
    stored: list[Trajectory] = []

    def store_in_order() -> None:
        # Episodes are stored in the local loop's order (what `agent eval` lists), each as soon as every
        # episode before it is in.
        while len(stored) < len(episodes) and episode_key(episodes[len(stored)]) in finished:
            trajectory = finished[episode_key(episodes[len(stored)])]
            if trajectory is None:
                episodes.pop(len(stored))
                continue
            stored.append(trajectory)
            on_trajectory(trajectory)

    def store_what_finished() -> None:
        for episode in episodes[len(stored):]:  # after a stop: what finished, still in order
            trajectory = finished.get(episode_key(episode))
            if trajectory is not None:
                stored.append(trajectory)
                on_trajectory(trajectory)

    def under_way_at_a_stop(episode: Episode, kept: object) -> None:
        # finished meanwhile, or cut short as it stood (its model calls paid for and read): stored as a local run's
        trajectory = kept.carried if isinstance(kept, CutShort) else kept
        if isinstance(trajectory, Trajectory):
            finished[episode_key(episode)] = trajectory

    unit = EpisodeUnit(caller, site, browser_factory, settings, seed)
    with engine.shipping(unit) as shipped:
        told = {} if lost is None else told_of_lost_calls(
            engine, lambda episode, reason, requests: lost.told(episode_key(episode), requests))
        told |= told_of_cut_units(engine, under_way_at_a_stop)
        try:
            # closed on a stop met here too (not only in the engine's wait): the episodes under way are told at once
            with closing(engine.map(shipped, list(episodes), key=episode_key,  # every engine's map is a generator
                                    stop_when=lambda t: t.stop in ("model budget", "model error"), **told)) as results:
                for episode, result in results:
                    if isinstance(result, UnitFailedError):
                        on_failure(episode_key(episode), str(result))
                        finished[episode_key(episode)] = None
                    else:
                        finished[episode_key(episode)] = result
                    store_in_order()  # after a stop no episode starts; those in flight are kept
        except Exception:  # an error (a lost cluster, whose Ray is asked nothing more): as stored so far
            raise
        except BaseException:  # Ctrl+C, SIGTERM, stdout gone: what finished is kept, and what was under way
            store_what_finished()
            raise
    store_what_finished()
    if getattr(engine, "budget_lost", False):  # its episodes in flight stopped on it as on a spent budget
        raise SharedBudgetDiedError()
    failed = next((t for t in stored if t.stop == "model error"), None)  # the first in the local loop's order
    if failed is not None:
        raise ModelEndpointError.cutting(failed)
    return stored
