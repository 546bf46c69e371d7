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
  (`loose_url`: /dir and /dir/ are one page there), their actions are equal, and: for ANSWER the answers are
  equal after the task's normalisation; otherwise their targets match by identity (`targets_match`: find_target's
  XPath, role and name, text, box, then label rule; or neither has a target), Type also needs the same text (case
  and spacing aside) and Scroll the same direction. A category's agreement is the mean over its episodes that
  have a reference, and says over how many of its tasks and episodes that is.
- Complete runs only: a run index is *incomplete* when one of the run's tasks has no episode in it, or one of its
  episodes was cut (by the model budget or a failing model endpoint: `loop.CUT_STOPS`). By default the figures
  are those of the complete run indices, and the incomplete ones are named with their reasons; an agent run
  without an end time (interrupted) is flagged too. Of two episodes of the same task and run index (a resumed
  run), the last uncut one counts. Asked to count the incomplete runs too, it counts their finished episodes;
  a cut episode is never counted.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import stdev

from ..runs.charts import grouped_bars
from ..wording import counted, listed
from .actions import Step
from .loop import CUT_STOPS
from .model import Task, Trajectory
from .sites import loose_url
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
    success_rate: float | None         # mean over runs of the per-run success rate; None: no complete run
    per_run: list[float]               # the per-run success rates, by run index
    average_steps: float | None        # None: no complete run (nothing was measured, which 0 would misreport)
    average_steps_successful: float | None
    agreement: float | None            # None when no episode of the category has a reference
    # What the agreement is taken over: the tasks and episodes that have a reference (a mean over 1 task of 4
    # is not the category's).
    agreement_tasks: int = 0
    agreement_episodes: int = 0
    success_sd: float | None = None    # the sample standard deviation of `per_run`; None under two runs

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class RunPlan:
    """What an agent run set out to do: its tasks and number of runs (None: not recorded, taken from the
    episodes), and whether it ended (an end time)."""

    task_ids: tuple[str, ...] | None = None
    runs: int | None = None
    ended: bool = True
    run_id: int | None = None  # the agent run's id, for the command that finishes it


@dataclass
class Evaluation:
    overall: Figures
    categories: list[Figures]
    episodes: list[dict[str, object]] = field(default_factory=list)  # task, run, success, steps, agreement
    warnings: list[str] = field(default_factory=list)
    incomplete: dict[int, list[str]] = field(default_factory=dict)  # run index -> why it is incomplete
    complete_runs: list[int] = field(default_factory=list)
    ended: bool = True
    included_incomplete: bool = False

    @property
    def complete(self) -> bool:
        return self.ended and not self.incomplete

    def as_dict(self) -> dict[str, object]:
        return {"overall": self.overall.as_dict(), "categories": [c.as_dict() for c in self.categories],
                "complete": self.complete, "ended": self.ended, "complete_runs": self.complete_runs,
                "incomplete_runs": {str(r): reasons for r, reasons in self.incomplete.items()},
                "included_incomplete": self.included_incomplete, "episodes": self.episodes,
                "warnings": self.warnings}


def evaluate(tasks: Sequence[Task], trajectories: Sequence[Trajectory],
             references: Mapping[str, Trajectory] | None = None, *, plan: RunPlan | None = None,
             include_incomplete: bool = False) -> Evaluation:
    """Score agent episodes (trajectories with a run index) against their tasks and references; by default
    only the complete run indices count (see the module notes)."""
    by_id = {t.id: t for t in tasks}
    references = references or {}
    plan = plan or RunPlan()
    episodes: list[dict[str, object]] = []
    warnings: list[str] = []
    for trajectory in _latest_episodes(trajectories):
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
            "stop": trajectory.stop,
            "cut": trajectory.stop in CUT_STOPS,
        })
    incomplete = _incomplete_runs(episodes, plan)
    complete_runs = sorted({int(e["run"]) for e in episodes} - set(incomplete))  # type: ignore[call-overload]
    if not plan.ended:
        warnings.append("the agent run did not finish (no end time: interrupted, failed or still running); "
                        f"finish it with `recordlens agent run ... --resume {plan.run_id or 'RUN'}`")
    warnings.extend(_incomplete_warnings(incomplete, include_incomplete))
    astray = [t.id for t in tasks if (r := references.get(t.id)) is not None and r.answer is not None
              and not is_correct(t, r.answer)]
    if astray:  # its steps lead to another answer: agents that find the gold one agree with it less
        warnings.append(f"the reference of task(s) {listed(astray, total=True)} answers otherwise than the gold "
                        "answer: agreement is measured against a path to another answer; record it again")
    # A cut episode says nothing of the agent: counted nowhere, even when the incomplete runs are.
    scored = [e for e in episodes if not e["cut"]] if include_incomplete else \
        [e for e in episodes if int(e["run"]) in complete_runs]  # type: ignore[call-overload]
    categories = sorted({str(e["category"]) for e in scored})
    figures = [_figures(c, [e for e in scored if e["category"] == c]) for c in categories]
    return Evaluation(overall=_figures(OVERALL, scored), categories=figures, episodes=episodes, warnings=warnings,
                      incomplete=incomplete, complete_runs=complete_runs, ended=plan.ended,
                      included_incomplete=include_incomplete)


def run_spans(runs: Sequence[int]) -> str:
    """Run indices as spans: "0-3, 7, 9-12"."""
    spans: list[list[int]] = []
    for run in sorted(set(runs)):
        if spans and run == spans[-1][1] + 1:
            spans[-1][1] = run
        else:
            spans.append([run, run])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def runs_named(runs: Sequence[int]) -> str:
    """"run 5", "runs 0-2, 7" or, with more than five, "runs 93-199 (107)"."""
    if len(runs) == 1:
        return f"run {runs[0]}"
    return f"runs {run_spans(runs)}" + (f" ({len(runs)})" if len(runs) > 5 else "")


def _incomplete_warnings(incomplete: Mapping[int, Sequence[str]], included: bool) -> list[str]:
    """One line per reason with the runs it holds for: an interrupted 200-run job gives one line, not 107."""
    by_reason: dict[str, list[int]] = defaultdict(list)
    for run, reasons in sorted(incomplete.items()):
        for reason in reasons:
            by_reason[reason].append(run)
    return [f"{runs_named(runs)} {'is' if len(runs) == 1 else 'are'} incomplete: {reason}"
            + ("" if included else "; left out of the figures") for reason, runs in by_reason.items()]


def _latest_episodes(trajectories: Sequence[Trajectory]) -> list[Trajectory]:
    """One episode per (task, run index): the last uncut one, else the last one; in their first order."""
    chosen: dict[tuple[str, int], Trajectory] = {}
    for trajectory in trajectories:
        key = (trajectory.task_id, trajectory.run if trajectory.run is not None else 0)
        previous = chosen.get(key)
        if previous is None or trajectory.stop not in CUT_STOPS or previous.stop in CUT_STOPS:
            chosen[key] = trajectory
    return list(chosen.values())


def _incomplete_runs(episodes: Sequence[Mapping[str, object]], plan: RunPlan) -> dict[int, list[str]]:
    expected_tasks = set(plan.task_ids) if plan.task_ids is not None else {str(e["task"]) for e in episodes}
    seen_runs = {int(e["run"]) for e in episodes}  # type: ignore[call-overload]
    runs = sorted(set(range(plan.runs)) | seen_runs) if plan.runs is not None else sorted(seen_runs)
    incomplete: dict[int, list[str]] = {}
    for run in runs:
        here = [e for e in episodes if int(e["run"]) == run]  # type: ignore[call-overload]
        reasons = []
        missing = sorted(expected_tasks - {str(e["task"]) for e in here})
        if missing and not here:
            reasons.append(f"no episode of any of its {counted(len(expected_tasks), 'task')}")
        elif missing:
            reasons.append(f"no episode of {listed(missing)}")
        cut = [f"{e['task']} ({e['stop']})" for e in here if e["cut"]]
        if cut:
            reasons.append(f"cut: {', '.join(cut[:5])}" + (" ..." if len(cut) > 5 else ""))
        if reasons:
            incomplete[run] = reasons
    return incomplete


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
        return loose_url(a) == loose_url(b)
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
    referenced = [e for e in episodes if e["agreement"] is not None]
    agreements = [float(e["agreement"]) for e in referenced]  # type: ignore[arg-type]
    return Figures(category=category, tasks=len({e["task"] for e in episodes}), episodes=len(episodes),
                   runs=len(by_run), success_rate=_mean(per_run) if per_run else None, per_run=per_run,
                   average_steps=_mean(steps) if steps else None,
                   average_steps_successful=_mean(good) if good else None,
                   agreement=_mean(agreements) if agreements else None,
                   agreement_tasks=len({e["task"] for e in referenced}), agreement_episodes=len(referenced),
                   success_sd=stdev(per_run) if len(per_run) > 1 else None)


# Up to this many runs the table gives each run's success rate; beyond, their spread (each run's is in --json).
PER_RUN_SHOWN = 4


def _per_run(f: Figures) -> str:
    if len(f.per_run) <= PER_RUN_SHOWN:
        return " ".join(f"{r:.2f}" for r in f.per_run)
    return f"± {f.success_sd:.3f} ({min(f.per_run):.2f}-{max(f.per_run):.2f})"


def _agreement(f: Figures) -> str:
    if f.agreement is None:
        return "-"
    return f"{f.agreement:.3f} ({f.agreement_tasks}/{f.tasks})"


def format_table(evaluation: Evaluation) -> str:
    """The figures a line per category and overall; the agreement with how many of the tasks have a reference,
    and notes below that say what a summarised column or a partial agreement stands for."""
    header = f"{'category':<22} {'tasks':>5} {'runs':>4} {'success':>8} {'per run':<20} {'steps':>6} " \
             f"{'steps ok':>8} {'agreement (tasks)':>17}"
    lines = [header]
    for f in [*evaluation.categories, evaluation.overall]:
        ok = f"{f.average_steps_successful:.2f}" if f.average_steps_successful is not None else "-"
        success = f"{f.success_rate:.3f}" if f.success_rate is not None else "-"
        steps = f"{f.average_steps:.2f}" if f.average_steps is not None else "-"
        lines.append(f"{f.category:<22} {f.tasks:>5} {f.runs:>4} {success:>8} {_per_run(f):<20} "
                     f"{steps:>6} {ok:>8} {_agreement(f):>17}")
    return "\n".join(lines + _table_notes(evaluation.overall))


def _table_notes(overall: Figures) -> list[str]:
    notes = []
    if len(overall.per_run) > PER_RUN_SHOWN:
        notes.append(f"per run: ± the standard deviation of the {overall.runs} runs' success rates "
                     "(lowest-highest); each run's rate is in --json")
    if overall.agreement is not None and overall.agreement_tasks < overall.tasks:
        notes.append(f"agreement: taken over {overall.agreement_tasks} of {counted(overall.tasks, 'task')} "
                     f"({overall.agreement_episodes} of {counted(overall.episodes, 'episode')}), those with a "
                     "reference trajectory")
    return [f"note: {n}" for n in notes]


def write_chart(evaluation: Evaluation, path: str | Path) -> Path:
    """Bars of success rate and agreement per category and overall."""
    rows = [*evaluation.categories, evaluation.overall]
    # An agreement of None (no reference) or a success rate of None (no complete run) is drawn as missing, not 0.
    return grouped_bars(path, [f.category.replace(" ", "\n") for f in rows], [
        ("success (mean over runs)", [f.success_rate for f in rows]),
        ("agreement with reference", [f.agreement for f in rows]),
    ])
