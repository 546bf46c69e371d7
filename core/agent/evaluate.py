"""Scoring agent runs: success by exact match, steps, and agreement with the reference trajectory.

Definitions (the README publishes them):
- An episode succeeds when its answer equals the task's gold answer after the task's normalisation
  (`tasks.is_correct`); it is judged again here, so a corrected task re-scores stored runs. No answer fails.
- Success rate of a set of tasks (a category, or all): for each run index, the share of the set's episodes in
  that run that succeeded; then the mean over the runs that have episodes of the set.
- Average steps: the mean number of steps (failed ones included) over all episodes, and over successful ones.
- Agreement of an episode with its task's reference trajectory: the length of the longest common subsequence of
  the two step lists (failed steps left out of both) divided by the number of reference steps, i.e. the share of
  reference steps the agent took in the same order. Two steps match when they are taken on the same page
  (`normalise_url`), their actions are equal, and: for ANSWER the answers are equal after the task's
  normalisation; otherwise their targets match by identity (`targets_match`: find_target's XPath, role and name,
  text, box, then label rule; or neither has a target), Type also needs the same text (case and spacing aside)
  and Scroll the same direction. A category's agreement is the mean over its episodes that have a reference.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..runs.charts import grouped_bars
from .actions import Step
from .model import Task, Trajectory
from .sites import normalise_url
from .targets import folded, targets_match
from .tasks import is_correct, normalise_answer

OVERALL = "overall"


@dataclass(frozen=True)
class Figures:
    """The figures for one category (or `overall`)."""

    category: str
    tasks: int
    episodes: int
    runs: int
    success_rate: float                # mean over runs of the per-run success rate
    per_run: list[float]               # the per-run success rates, by run index
    average_steps: float
    average_steps_successful: float | None
    agreement: float | None            # None when no episode of the category has a reference

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class Evaluation:
    overall: Figures
    categories: list[Figures]
    episodes: list[dict[str, object]] = field(default_factory=list)  # task, run, success, steps, agreement
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"overall": self.overall.as_dict(), "categories": [c.as_dict() for c in self.categories],
                "episodes": self.episodes, "warnings": self.warnings}


def evaluate(tasks: Sequence[Task], trajectories: Sequence[Trajectory],
             references: Mapping[str, Trajectory] | None = None) -> Evaluation:
    """Score agent episodes (trajectories with a run index) against their tasks and references."""
    by_id = {t.id: t for t in tasks}
    references = references or {}
    episodes: list[dict[str, object]] = []
    warnings: list[str] = []
    for trajectory in trajectories:
        task = by_id.get(trajectory.task_id)
        if task is None:
            warnings.append(f"an episode of task {trajectory.task_id!r} was left out: the task is unknown")
            continue
        reference = references.get(task.id)
        episodes.append({
            "task": task.id,
            "category": task.category or "(none)",
            "run": trajectory.run if trajectory.run is not None else 0,
            "answer": trajectory.answer,
            "success": is_correct(task, trajectory.answer),
            "steps": len(trajectory.steps),
            "agreement": agreement(task, reference, trajectory) if reference is not None else None,
        })
    categories = sorted({str(e["category"]) for e in episodes})
    figures = [_figures(c, [e for e in episodes if e["category"] == c]) for c in categories]
    return Evaluation(overall=_figures(OVERALL, episodes), categories=figures, episodes=episodes, warnings=warnings)


def agreement(task: Task, reference: Trajectory, episode: Trajectory) -> float:
    wanted = [s for s in reference.steps if not s.failed]
    taken = [s for s in episode.steps if not s.failed]
    if not wanted:
        return 1.0
    return _common_subsequence(wanted, taken, task) / len(wanted)


def steps_match(task: Task, reference: Step, taken: Step) -> bool:
    if reference.action != taken.action or not _same_page(reference.url, taken.url):
        return False
    if reference.action == "answer":
        return normalise_answer(reference.value or "", task.normalise) == normalise_answer(taken.value or "",
                                                                                          task.normalise)
    if reference.action == "type" and folded(reference.value) != folded(taken.value):
        return False
    if reference.action == "scroll" and (reference.value or "down") != (taken.value or "down"):
        return False
    return targets_match(reference.target, taken.target)


def _common_subsequence(wanted: Sequence[Step], taken: Sequence[Step], task: Task) -> int:
    previous = [0] * (len(taken) + 1)
    for reference in wanted:
        current = [0] * (len(taken) + 1)
        for j, step in enumerate(taken, 1):
            if steps_match(task, reference, step):
                current[j] = previous[j - 1] + 1
            else:
                current[j] = max(previous[j], current[j - 1])
        previous = current
    return previous[-1]


def _same_page(a: str, b: str) -> bool:
    if not a or not b:
        return True  # a step without a URL (hand-written) does not disagree about the page
    try:
        return normalise_url(a) == normalise_url(b)
    except ValueError:
        return a == b



def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _figures(category: str, episodes: Sequence[Mapping[str, object]]) -> Figures:
    by_run: dict[int, list[bool]] = defaultdict(list)
    for e in episodes:
        by_run[int(e["run"])].append(bool(e["success"]))  # type: ignore[arg-type]
    per_run = [_mean([float(s) for s in by_run[r]]) for r in sorted(by_run)]
    steps = [float(e["steps"]) for e in episodes]  # type: ignore[arg-type]
    good = [float(e["steps"]) for e in episodes if e["success"]]  # type: ignore[arg-type]
    agreements = [float(e["agreement"]) for e in episodes if e["agreement"] is not None]  # type: ignore[arg-type]
    return Figures(category=category, tasks=len({e["task"] for e in episodes}), episodes=len(episodes),
                   runs=len(by_run), success_rate=_mean(per_run), per_run=per_run, average_steps=_mean(steps),
                   average_steps_successful=_mean(good) if good else None,
                   agreement=_mean(agreements) if agreements else None)


def format_table(evaluation: Evaluation) -> str:
    header = f"{'category':<22} {'tasks':>5} {'runs':>4} {'success':>8} {'per run':<20} {'steps':>6} " \
             f"{'steps ok':>8} {'agreement':>9}"
    lines = [header]
    for f in [*evaluation.categories, evaluation.overall]:
        per_run = " ".join(f"{r:.2f}" for r in f.per_run)
        ok = f"{f.average_steps_successful:.2f}" if f.average_steps_successful is not None else "-"
        agree = f"{f.agreement:.3f}" if f.agreement is not None else "-"
        lines.append(f"{f.category:<22} {f.tasks:>5} {f.runs:>4} {f.success_rate:>8.3f} {per_run:<20} "
                     f"{f.average_steps:>6.2f} {ok:>8} {agree:>9}")
    return "\n".join(lines)


def write_chart(evaluation: Evaluation, path: str | Path) -> Path:
    """Bars of success rate and agreement per category and overall."""
    rows = [*evaluation.categories, evaluation.overall]
    return grouped_bars(path, [f.category.replace(" ", "\n") for f in rows], [
        ("success (mean over runs)", [f.success_rate for f in rows]),
        ("agreement with reference", [f.agreement or 0.0 for f in rows]),
    ])
