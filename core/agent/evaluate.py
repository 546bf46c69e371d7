"""Scoring agent runs: success by exact match, steps, and agreement with the reference trajectory.

Definitions (the README publishes them):
- An episode succeeds when its answer equals the task's gold answer after the task's normalisation
  (`answers.is_correct`); it is judged again here, so a corrected task re-scores stored runs. No answer fails.
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
  have a reference, and says over how many of its tasks and episodes that is. The reference is the one that
  counts (`references.choose_references`, the rule the tasks report and the app share): the newest reference of
  the task as it is now that ends with an answer. One recorded for an earlier version of the task (changed since;
  a project keeps the version each reference was recorded for) is a path to another question, and one recorded
  without an answer (stopped before ANSWER) is no path to the answer: no episode is compared with either, and
  each is named. One whose version is not known (stored before versions were kept, or read from a file) is
  compared with.
- Complete runs only: a run index is *incomplete* when one of the run's tasks has no episode in it, or one of its
  episodes was cut (by the model budget, a failing model endpoint, or the run stopped or killed during it, which
  keeps the calls it paid for: `loop.CUT_STOPS`). By default the figures
  are those of the complete run indices, and the incomplete ones are named with their reasons; an agent run
  without an end time (interrupted) is flagged too. Of two episodes of the same task and run index (a resumed
  run), the last uncut one counts. Asked to count the incomplete runs too, it counts their finished episodes;
  a cut episode is never counted, and an incomplete run's rate is over the tasks it has an episode of. A category
  none of whose episodes is counted (every one cut, or all in runs left out) has no row: a warning names it.
- Tasks are those of the run's own site: a task id used on two sites is two tasks, and an episode or a reference is
  of its own site's task only. The caller passes the run's site's tasks; for a run stored without its site (an
  older RecordLens) it passes the site of each episode, from the episode's task in the project (`sites`): the run
  is scored by that site's tasks and references, and a run whose episodes span several sites scores each episode
  by its own site's task and reference, naming each task with its site ("t1 (site shop)", as the tasks report
  does). Given several sites' tasks sharing an id and no episode's site, the one scored against is said, for the
  run's own task ids only.
  They are scored as they are now: a task changed since the run used it (`--replace-tasks`; the run records each
  task's digest) is named.
- Figures are rounded half up (0.625 -> "0.63" at two decimals), one rule for every figure printed. Each is
  computed exactly, as a fraction of its counts (a run's rate is its successes over its episodes, a mean the sum of
  those fractions over their number), and rounded once, as printed: summed as floats, a mean of 0, 3/12, 4/12 and 2/12
  is 0.18749999999999997 and would print 0.187, not 0.188. The standard deviation is the square root of the exact
  variance, rounded half up as exactly. `--json` gives each figure as the nearest float to its exact value (0.4, not
  0.4000000000000001; 2/3 as 0.6666666666666666): rounded half up at any number of decimals up to 15, it gives what
  the exact value does.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from statistics import variance

from ..llm.gemini import INCOMPLETE_NO_CANDIDATES, INCOMPLETE_UNFINISHED
from ..runs.charts import grouped_bars
from ..text_forms import cell, column_width
from ..wording import counted, listed
from .actions import ACTIONS, GRAMMAR_HELP, Step, is_password_mask, password_bullets, said_action
from .answers import is_correct, normalise_answer
from .funnel import named_tasks
from .loop import CUT_STOPS
from .model import Task, Trajectory
from .references import Reference, choose_references, unanswered_said
from .sites import loose_url
from .targets import folded, targets_match
from .tasks import same_version

OVERALL = "overall"


# A figure as computed: exact (a Fraction of its counts), or a float where a caller gives one (a table drawn by hand).
Figure = Fraction | float


@dataclass(frozen=True)
class Figures:
    """The figures for one category (or `overall`), exact: each rate and mean a Fraction of its counts (module
    notes), rounded only as printed (`fixed`); `as_dict` gives them as floats."""

    category: str
    tasks: int
    episodes: int
    runs: int
    success_rate: Figure | None        # mean over runs of the per-run success rate; None: no complete run
    per_run: dict[int, Figure]         # run index -> that run's success rate
    average_steps: Figure | None       # None: no complete run (nothing was measured, which 0 would misreport)
    average_steps_successful: Figure | None
    agreement: Figure | None           # None when no episode of the category has a reference
    # What the agreement is taken over: the tasks and episodes that have a reference (a mean over 1 task of 4
    # is not the category's).
    agreement_tasks: int = 0
    agreement_episodes: int = 0
    success_sd: float | None = None    # the sample standard deviation (n-1) of `per_run`; None under two runs

    def as_dict(self) -> dict[str, object]:
        return as_floats(asdict(self))


def as_floats(value: object) -> object:
    """`value` with every exact figure (a Fraction) in it, in dicts and lists too, as the nearest float: what JSON
    can hold (module notes)."""
    if isinstance(value, Fraction):
        return float(value)
    if isinstance(value, dict):
        return {k: as_floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_floats(v) for v in value]
    return value


@dataclass(frozen=True)
class RunPlan:
    """What an agent run set out to do: its tasks and number of runs (None: not recorded, taken from the
    episodes), and whether it ended (an end time)."""

    task_ids: tuple[str, ...] | None = None
    runs: int | None = None
    ended: bool = True
    run_id: int | None = None  # the agent run's id, for the command that finishes it
    error: str | None = None   # why the run failed (it has an end time, but did not finish its episodes)
    task_digests: Mapping[str, str] | None = None  # task id -> task_digest as the run used it (None: not recorded)
    # The command that finishes the run, whole, as a hint writes it (the command line knows the run's project, and
    # where it records its site and tasks); None: one with placeholders for them is said.
    finish_command: str | None = None
    finish_note: str | None = None  # said after the command, of a placeholder it holds (where the TASKS are)


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
    changed_tasks: list[str] = field(default_factory=list)  # tasks changed since the run used them
    # Tasks of the run whose reference was recorded for an earlier version of them: no agreement with it.
    earlier_version_references: list[str] = field(default_factory=list)
    # Tasks of the run whose newest reference was recorded without an answer: kept, not used.
    unanswered_references: list[str] = field(default_factory=list)
    # Categories of the run's episodes that have no episode counted (every one cut, or in runs left out): not in
    # the table, and said.
    categories_left_out: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.ended and not self.incomplete

    def as_dict(self) -> dict[str, object]:
        return {"overall": self.overall.as_dict(), "categories": [c.as_dict() for c in self.categories],
                "complete": self.complete, "ended": self.ended, "complete_runs": self.complete_runs,
                "incomplete_runs": {str(r): reasons for r, reasons in self.incomplete.items()},
                "included_incomplete": self.included_incomplete, "changed_tasks": self.changed_tasks,
                "earlier_version_references": self.earlier_version_references,
                "unanswered_references": self.unanswered_references,
                "categories_left_out": self.categories_left_out,
                "episodes": as_floats(self.episodes),
                "warnings": self.warnings}


def evaluate(tasks: Sequence[Task], trajectories: Sequence[Trajectory],
             references: Mapping[str, Trajectory] | Sequence[Reference] | None = None, *, plan: RunPlan | None = None,
             include_incomplete: bool = False, recorded_for: Mapping[str, str | None] | None = None,
             sites: Sequence[str] | None = None) -> Evaluation:
    """Score agent episodes (trajectories with a run index) against their tasks and references; by default
    only the complete run indices count (see the module notes). `references`: every reference of the tasks, oldest
    first (the one that counts is chosen here), or one per task id with `recorded_for`: task id -> the
    `task_digest` of the task it was recorded for (None, or not there: not known). `sites`: the site of each of
    `trajectories` (a run stored without its site: each episode's task's, from the project), to score each
    episode by its own site's task and reference among `tasks` of several sites; None: `tasks` are the run's site's."""
    plan = plan or RunPlan()
    held = _references(references or {}, recorded_for or {})
    if sites is not None:
        tasks, trajectories, held, plan = on_their_sites(tasks, trajectories, sites, held, plan)
    by_id = {t.id: t for t in tasks}
    # A reference is of its own site's task (a file's, of no site, of the task of its id)
    choice = choose_references(tasks, [r for r in held if r.site is None or r.task_id not in by_id
                                       or by_id[r.task_id].site == r.site])
    references = choice.trajectories()
    episodes: list[dict[str, object]] = []
    run_ids = {t.task_id for t in trajectories} | set(plan.task_ids or ())
    warnings: list[str] = shared_id_warnings(tasks, run_ids)
    for trajectory in latest_episodes(trajectories):
        task = by_id.get(trajectory.task_id)
        if task is None:
            warnings.append(f"an episode of task {trajectory.task_id!r} was left out: the task is unknown")
            continue
        reference = references.get(task.id)
        episodes.append({
            "task": task.id,
            "site": task.site,
            "category": task.category or "(none)",
            "run": trajectory.run if trajectory.run is not None else 0,
            "answer": trajectory.answer,
            "success": is_correct(task, trajectory.answer),
            "steps": len(trajectory.steps),
            "agreement": agreement(task, reference, trajectory) if reference is not None else None,
            "stop": trajectory.stop,
            "cut": trajectory.stop in CUT_STOPS,
            "reason": why_it_ended(trajectory, is_correct(task, trajectory.answer)),
            "failed_steps": sum(step.failed for step in trajectory.steps),
            "refusals": len(_refusals(trajectory.steps)),
        })
    incomplete = _incomplete_runs(episodes, plan)
    complete_runs = sorted({int(e["run"]) for e in episodes} - set(incomplete))  # type: ignore[call-overload]
    finish = f"finish it with `{plan.finish_command or _finish_command(plan.run_id)}`" + (
        f" ({plan.finish_note})" if plan.finish_note else "")
    if plan.error is not None:
        warnings.append(f"the agent run failed ({plan.error}); {finish}")
    elif not plan.ended:
        warnings.append(f"the agent run did not finish (no end time: interrupted or still running); {finish}")
    warnings.extend(_incomplete_warnings(incomplete, include_incomplete))
    changed = changed_tasks(tasks, plan.task_digests)
    if changed:
        run = f"agent run {plan.run_id}" if plan.run_id is not None else "the run"
        warnings.append(f"task(s) {listed(changed, total=True)} changed since {run} used them (`--replace-tasks`): "
                        "its episodes of them are scored by the tasks as they are now, not as the run saw them")
    evaluated = {str(e["task"]) for e in episodes} | set(plan.task_ids or ())  # the tasks of the run, no other
    earlier = [task_id for task_id in choice.earlier if task_id in evaluated]
    unanswered = [task_id for task_id in choice.unanswered if task_id in evaluated]
    warnings.extend(unanswered_warnings(unanswered, references, files=choice.unanswered_files))
    if earlier:
        one = len(earlier) == 1
        warnings.append(f"reference{'' if one else 's'} of {listed(earlier, total=True)} recorded for an earlier "
                        f"version of {'the task' if one else 'their tasks'}: record {'it' if one else 'them'} again "
                        f"(no episode is compared with {'it' if one else 'them'}: no agreement)")
    astray = [t.id for t in tasks if t.id in evaluated and (r := references.get(t.id)) is not None
              and r.answer is not None and not is_correct(t, r.answer)]
    if astray:  # its steps lead to another answer: agents that find the gold one agree with it less
        warnings.append(f"the reference of task(s) {listed(astray, total=True)} answers otherwise than the gold "
                        "answer: agreement is measured against a path to another answer; record it again")
    # A cut episode says nothing of the agent: counted nowhere, even when the incomplete runs are.
    scored = [e for e in episodes if not e["cut"]] if include_incomplete else \
        [e for e in episodes if int(e["run"]) in complete_runs]  # type: ignore[call-overload]
    categories = sorted({str(e["category"]) for e in scored})
    left_out = sorted({str(e["category"]) for e in episodes} - set(categories))
    warnings.extend(_left_out_warnings(left_out, episodes, include_incomplete))
    figures = [_figures(c, [e for e in scored if e["category"] == c]) for c in categories]
    return Evaluation(overall=_figures(OVERALL, scored), categories=figures, episodes=episodes, warnings=warnings,
                      incomplete=incomplete, complete_runs=complete_runs, ended=plan.ended,
                      included_incomplete=include_incomplete, changed_tasks=changed,
                      earlier_version_references=earlier, unanswered_references=unanswered,
                      categories_left_out=left_out)


def _finish_command(run_id: int | None) -> str:
    """The command that finishes a run whose project, site and tasks are not known here: every option `agent run`
    needs, those not known as placeholders to fill in."""
    run = "RUN" if run_id is None else run_id
    return f"recordlens agent run --project PROJECT --site SITE --tasks TASKS --resume {run}"


def shared_id_warnings(tasks: Sequence[Task], task_ids: Collection[str] | None = None) -> list[str]:
    """Said when the tasks scored hold one of the run's task ids (`task_ids`; None: every one) on several sites and
    nothing says which site's task an episode is of (a run stored without its site, none of whose episodes tell):
    an episode names its task by id alone, so it is scored against one of them, the last, and compared with that
    task's reference; which one, and of which sites, is said rather than left to guess."""
    sites: dict[str, list[str]] = defaultdict(list)
    for task in tasks:
        if task_ids is None or task.id in task_ids:
            sites[task.id].append(task.site)
    return [f"task id {task_id!r} is on {len(on)} sites ({', '.join(site or 'no site' for site in on)}) and "
            "nothing says which one's the run used: its episodes are scored against "
            + (f"site {on[-1]}'s task" if on[-1] else "the task of no site")
            + " and compared with that task's reference"
            for task_id, on in sites.items() if len(on) > 1]


def on_their_sites(tasks: Sequence[Task], trajectories: Sequence[Trajectory], sites: Sequence[str],
                   references: Sequence[Reference], plan: RunPlan
                   ) -> tuple[list[Task], list[Trajectory], list[Reference], RunPlan]:
    """The tasks, episodes, references and plan of a run whose episodes' sites are `sites` (one per trajectory):
    the tasks and references of those sites only; over several sites, each task named with its site ("t1 (site
    shop)", `named_tasks`), so that each episode is scored by its own site's task and reference. A run with no
    episode tells no site: all is kept as given."""
    on = sorted(set(sites))
    if not on:
        return list(tasks), list(trajectories), list(references), plan
    tasks = [t for t in tasks if t.site in on]
    references = [r for r in references if r.site is None or r.site in on]
    if len(on) == 1:
        return tasks, list(trajectories), references, plan

    def name(site: str, task_id: str) -> str:
        return named_tasks([(site, task_id)], on)[0]

    episodes = [replace(t, task_id=name(site, t.task_id)) for t, site in zip(trajectories, sites, strict=True)]
    # A file's reference (of no site) is of the task of its id on each site
    references = [replace(r, site=site, trajectory=replace(r.trajectory, task_id=name(site, r.task_id)))
                  for r in references for site in ([r.site] if r.site is not None else on)]
    named = [replace(t, id=name(t.site, t.id)) for t in tasks]
    of_id: dict[str, list[Task]] = defaultdict(list)  # a task id as the run names it -> its tasks on those sites
    for task, as_named in zip(tasks, named, strict=True):
        of_id[task.id].append(as_named)
    ran = {t.task_id for t in episodes}
    # The run's tasks, named by id alone: of an id, the sites' tasks it has an episode of, else every one
    task_ids = None if plan.task_ids is None else tuple(
        n for i in plan.task_ids for n in ([t.id for t in of_id[i] if t.id in ran] or [t.id for t in of_id[i]] or [i]))
    digests = None
    if plan.task_digests is not None:  # the task a digest is of is the one the run used, if one of them is
        digests = {t.id: digest for task_id, digest in plan.task_digests.items()
                   for t in ([t for t in of_id[task_id] if same_version(digest, t)] or of_id[task_id])}
    return named, episodes, references, replace(plan, task_ids=task_ids, task_digests=digests)


def _references(references: Mapping[str, Trajectory] | Sequence[Reference],
                recorded_for: Mapping[str, str | None]) -> list[Reference]:
    """Every reference, from every reference or from one per task id."""
    if isinstance(references, Mapping):
        return [Reference(t, recorded_for.get(task_id)) for task_id, t in references.items()]
    return list(references)


def unanswered_warnings(unanswered: Sequence[str], counting: Mapping[str, object], *,
                        files: Collection[str] = ()) -> list[str]:
    """What is said of the tasks whose newest reference was recorded without an answer: not used, and what is used
    instead (an earlier one of the task that ends with an answer, or none). Those of `files` are files of the
    references folder given (`--references`), said as such: one is not kept in the project, which may hold none."""
    said = []
    for task_ids, kept in (([t for t in unanswered if t not in files], True),
                           ([t for t in unanswered if t in files], False)):
        instead = [t for t in task_ids if t in counting]
        alone = [t for t in task_ids if t not in counting]
        if instead:
            one = len(instead) == 1
            said.append(f"{unanswered_said(instead, kept=kept)}: not used; "
                        + ("the task's earlier reference that ends with an answer is compared with" if one else
                           "the tasks' earlier references that end with an answer are compared with"))
        if alone:
            one = len(alone) == 1
            said.append(f"{unanswered_said(alone, kept=kept)}: not used"
                        + (" (kept in the project)" if kept else
                           f", and the project holds no reference of {'the task' if one else 'them'} that ends with "
                           "one")
                        + f"; record {'it' if one else 'them'} again to the answer (no agreement meanwhile)")
    return said


def _left_out_warnings(left_out: Sequence[str], episodes: Sequence[Mapping[str, object]],
                       include_incomplete: bool) -> list[str]:
    """A category whose episodes are none of them counted is not in the table: said, with why, so that a row
    missing is never read as a category the run did not have."""
    said = []
    for category in left_out:
        here = [e for e in episodes if e["category"] == category]
        if include_incomplete or all(e["cut"] for e in here):
            cut = [f"{e['task']} run {e['run']} ({e['stop']})" for e in here if e["cut"]]
            why = f"every episode of it was cut: {', '.join(cut[:5])}" + (" ..." if len(cut) > 5 else "")
        else:
            why = ("its episode is" if len(here) == 1 else f"its {len(here)} episodes are") + \
                " in incomplete runs, left out"
        said.append(f"category {category!r} is not in the table: {why}")
    return said


def changed_tasks(tasks: Sequence[Task], recorded: Mapping[str, str] | None) -> list[str]:
    """The tasks whose content differs from the digest a run recorded for them (none when it recorded none)."""
    if not recorded:
        return []
    return [t.id for t in tasks if t.id in recorded and not same_version(recorded[t.id], t)]


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
    return [f"{runs_named(runs)} {'is' if len(runs) == 1 else 'are'} incomplete: "
            + (reason if len(runs) == 1 else reason.replace(_ITS_TASKS, _THEIR_TASKS))
            + ("" if included else "; left out of the figures") for reason, runs in by_reason.items()]


# Said of one run (its JSON reasons, a warning naming one run), and of several runs in one warning.
_ITS_TASKS, _THEIR_TASKS = "of any of its ", "of any of their "


def latest_episodes(trajectories: Sequence[Trajectory]) -> list[Trajectory]:
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
            reasons.append(f"no episode {_ITS_TASKS}{counted(len(expected_tasks), 'task')}")
        elif missing:
            reasons.append(f"no episode of {listed(missing)}")
        cut = [f"{e['task']} ({e['stop']})" for e in here if e["cut"]]
        if cut:
            reasons.append(f"cut: {', '.join(cut[:5])}" + (" ..." if len(cut) > 5 else ""))
        if reasons:
            incomplete[run] = reasons
    return incomplete


# --- why an episode ended: its stop, with what its failed steps say (stored in steps.error) ---

# A model answer refused or cut off is a failed step whose error is `Answer.incomplete`'s: "no candidates in the
# answer (prompt blocked: SAFETY)", "the model did not finish (finishReason SAFETY)". MAX_TOKENS is a cut-off
# answer, not a refusal.
_FINISH_REASON = re.compile(r"finishReason (\w+)|prompt blocked: (\w+)")
ERROR_SHOWN = 160  # characters of a step's error in a reason


def why_it_ended(trajectory: Trajectory, success: bool) -> str:
    """Why an episode ended, in a line: its stop said in words ("answered right", "the step budget ran out",
    "3 failed steps in a row", "cut (model error)"), then, when steps failed, how many, how many of them the model
    refused (with its finish reasons) and the last one's error: a refusal, prose with no action, a click on a
    missing element and an unreadable answer each say themselves. Said by `agent eval` and `agent run`."""
    steps, stop = trajectory.steps, trajectory.stop
    failed = [s for s in steps if s.failed]
    if stop == "answer":
        said = "answered right" if success else "answered otherwise than the gold answer"
    elif stop == "budget":  # what the agent kept doing: its last step, when that was carried out
        last = steps[-1] if steps else None
        taken = f"; the last: {said_action(last)}" if last and last.action in ACTIONS and not last.failed else ""
        said = f"the step budget ran out ({counted(len(steps), 'step')}{taken})"
    elif stop == "failures":
        said = f"{counted(_failed_at_end(steps), 'failed step')} in a row"
    elif stop in CUT_STOPS:
        said = f"cut ({stop}): not scored"
    else:
        said = f"stopped ({stop or 'no stop recorded'})"
    if not failed:
        return said
    notes = [] if stop == "failures" and len(failed) == _failed_at_end(steps) else \
        [f"{counted(len(failed), 'failed step')} in all"]
    refused = _refusals(failed)
    if refused:
        notes.append(f"{len(refused)} refused by the model ({', '.join(sorted(set(refused)))})")
    notes.append(f"last: {short_error(failed[-1].error or '')}")
    return f"{said}; {'; '.join(notes)}"


def short_error(error: str) -> str:
    """A step's error as a reason shows it: without the grammar every unreadable answer's error ends with, cut to
    ERROR_SHOWN characters."""
    error = " ".join(error.removesuffix(f"; expected one of: {GRAMMAR_HELP}").split())
    return error if len(error) <= ERROR_SHOWN else error[:ERROR_SHOWN - 1] + "…"


def _failed_at_end(steps: Sequence[Step]) -> int:
    count = 0
    for step in reversed(steps):
        if not step.failed:
            break
        count += 1
    return count


def _refusals(steps: Sequence[Step]) -> list[str]:
    """The finish reason of each of `steps` the model refused (finishReason SAFETY, RECITATION…, or a prompt
    blocked: "no candidates"), from the errors the loop stores; a cut-off one (MAX_TOKENS) is no refusal."""
    reasons = []
    for step in steps:
        error = step.error or ""
        if not error.startswith((INCOMPLETE_NO_CANDIDATES, INCOMPLETE_UNFINISHED)):
            continue
        found = _FINISH_REASON.search(error)
        reason = (found.group(1) or found.group(2)) if found else "no candidates"
        if reason != "MAX_TOKENS":
            reasons.append(reason)
    return reasons


def agreement(task: Task, reference: Trajectory, episode: Trajectory) -> Fraction:
    """The share of the reference's steps the episode took in the same order, exact (module notes)."""
    wanted = [s for s in reference.steps if not s.failed]
    taken = [s for s in episode.steps if not s.failed]
    if not wanted:
        return Fraction(1)
    return Fraction(_common_subsequence(wanted, taken, task), len(wanted))


def steps_match(task: Task, reference: Step, taken: Step) -> bool:
    """Whether an agent's step `taken` is the reference's step: the same action on the same page, a Type of the same
    text (`same_typing`), a Scroll the same way, an ANSWER the same normalised answer, and the same target. Whether a
    Type pressed Enter is not compared, for an agent's Type as for a person's ("Type [n]; text (no Enter)" types
    the text alone, whoever said it): a form sent where the reference's was not shows in the steps after it, taken
    on another page."""
    if reference.action != taken.action or not _same_page(reference.url, taken.url):
        return False
    if reference.action == "answer":
        return normalise_answer(reference.value or "", task.normalise) == normalise_answer(taken.value or "",
                                                                                          task.normalise)
    if reference.action == "type" and not same_typing(reference.value, taken.value):
        return False
    if reference.action == "scroll" and (reference.value or "down") != (taken.value or "down"):
        return False
    return targets_match(reference.target, taken.target)


def same_typing(reference: str | None, taken: str | None) -> bool:
    """Whether two Types typed the same: the same text, but for a password kept masked on either side (its bullets,
    actions.is_password_mask), which agrees with any text of its length: the bullets say only that, and a reference
    recorded in clear before passwords were masked says what an agent's masked step cannot. Such a Type agrees by
    its field (steps_match's target) and its length, counted as Chromium counts a field's characters (the other
    side's own bullets, actions.password_bullets), so the username typed into the password field does not agree."""
    if is_password_mask(reference) or is_password_mask(taken):
        return password_bullets(reference or "") == password_bullets(taken or "")
    return folded(reference) == folded(taken)


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



def _mean(values: Sequence[Fraction]) -> Fraction:
    """The exact mean of `values` (not empty): summed as fractions, no float's rounding in the sum."""
    return sum(values, Fraction(0)) / len(values)


def _figures(category: str, episodes: Sequence[Mapping[str, object]]) -> Figures:
    """The figures of `episodes`, each computed exactly from their counts (module notes)."""
    by_run: dict[int, list[bool]] = defaultdict(list)
    for e in episodes:
        by_run[int(e["run"])].append(bool(e["success"]))  # type: ignore[call-overload]
    per_run = {r: Fraction(sum(by_run[r]), len(by_run[r])) for r in sorted(by_run)}
    steps = [Fraction(int(e["steps"])) for e in episodes]  # type: ignore[call-overload]
    good = [Fraction(int(e["steps"])) for e in episodes if e["success"]]  # type: ignore[call-overload]
    referenced = [e for e in episodes if e["agreement"] is not None]
    agreements = [Fraction(e["agreement"]) for e in referenced]  # type: ignore[arg-type]
    return Figures(category=category, tasks=len({e["task"] for e in episodes}), episodes=len(episodes),
                   runs=len(by_run), success_rate=_mean(list(per_run.values())) if per_run else None,
                   per_run=per_run,
                   average_steps=_mean(steps) if steps else None,
                   average_steps_successful=_mean(good) if good else None,
                   agreement=_mean(agreements) if agreements else None,
                   agreement_tasks=len({e["task"] for e in referenced}), agreement_episodes=len(referenced),
                   success_sd=math.sqrt(_spread(per_run)) if len(per_run) > 1 else None)


def _spread(per_run: Mapping[int, Figure]) -> Fraction:
    """The sample variance (n-1) of the runs' rates, exact: the square of their standard deviation."""
    return Fraction(variance([_exact(rate) for rate in per_run.values()]))


# Up to this many runs the table gives each run's success rate; beyond, their spread (each run's is in --json).
PER_RUN_SHOWN = 4
PER_RUN_WIDTH = 20
CATEGORY_WIDTH = 22  # the least: a longer category widens the column, up to text_forms' widest, then is cut
INCOMPLETE_MARK = "*"


def fixed(value: Figure, places: int) -> str:
    """`value` with `places` decimals, rounded half up once, exactly (0.625 -> "0.63", 0.375 -> "0.38", 9/48 ->
    "0.188"): float formatting rounds an exact half to even, so that two rates of one table would round two ways,
    and a float summed from rates is off by a little (0.18749999999999997) and would round down. A float is
    taken as written (its repr)."""
    return _written(math.floor(abs(_exact(value)) * 10 ** places + Fraction(1, 2)), places, value < 0)


def fixed_root(square: Figure, places: int) -> str:
    """The square root of `square` (not negative) as `fixed` writes a value, exactly: the largest n with
    (n - 1/2)^2 <= square * 10^(2 places), found in integers (no float's rounding of the root), so that a standard
    deviation that is exactly a half (0.0125 at 3 places) rounds up as every other figure does."""
    scaled = _exact(square) * 10 ** (2 * places) * 4  # (2n - 1)^2 <= 4 square 10^(2 places)
    odd = math.isqrt(math.floor(scaled))
    odd -= 1 - odd % 2  # the largest odd number at most the root
    return _written((odd + 1) // 2, places)


def _exact(value: Figure) -> Fraction:
    """A figure as a Fraction: itself, or a float as written (its repr: 0.95 is 95/100, not the float's binary
    value)."""
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


def _written(units: int, places: int, negative: bool = False) -> str:
    """`units` hundredths (at 2 places) written as a decimal: 188 at 3 places is "0.188", 1000 is "1.000"."""
    whole, part = divmod(units, 10 ** places)
    sign = "-" if negative and units else ""
    return f"{sign}{whole}.{part:0{places}d}" if places > 0 else f"{sign}{whole}"


def _run_columns(evaluation: Evaluation) -> list[int] | None:
    """The run indices the table gives a column each (those scored), or None past PER_RUN_SHOWN (the spread)."""
    runs = sorted({r for f in [*evaluation.categories, evaluation.overall] for r in f.per_run})
    return runs if len(runs) <= PER_RUN_SHOWN else None


def _run_label(evaluation: Evaluation, run: int) -> str:
    return f"run{run}" + (INCOMPLETE_MARK if run in evaluation.incomplete else "")


def _per_run(evaluation: Evaluation, f: Figures, columns: list[int] | None) -> str:
    if columns is None:
        if f.success_sd is None:  # a category with one run among many
            return " ".join(fixed(r, 2) for r in f.per_run.values())
        low, high = min(f.per_run.values()), max(f.per_run.values())
        return f"± {fixed_root(_spread(f.per_run), 3)} ({fixed(low, 2)}-{fixed(high, 2)})"
    cells = [fixed(f.per_run[r], 2) if r in f.per_run else "-" for r in columns]
    return " ".join(cell.rjust(len(_run_label(evaluation, r))) for cell, r in zip(cells, columns, strict=True))


def _agreement(f: Figures) -> str:
    if f.agreement is None:
        return "-"
    return f"{fixed(f.agreement, 3)} ({f.agreement_tasks}/{f.tasks})"


def format_table(evaluation: Evaluation) -> str:
    """The figures a line per category and overall; the agreement with how many of the tasks have a reference,
    and notes below that say what a summarised column or a partial agreement stands for. Each run's rate stands
    under its run's index (`run0 run1`; `run3*`: an incomplete run, counted with --include-incomplete)."""
    columns = _run_columns(evaluation)
    runs_header = " ".join(_run_label(evaluation, r).rjust(4) for r in columns) if columns else "per run"
    width = max(PER_RUN_WIDTH, len(runs_header))
    rows = [*evaluation.categories, evaluation.overall]
    # in columns, not characters: a category in CJK takes two a character, and the figures stay in line
    named = column_width([f.category for f in rows], least=CATEGORY_WIDTH)
    header = f"{cell('category', named)} {'tasks':>5} {'runs':>4} {'success':>8} {runs_header:<{width}} " \
             f"{'steps':>6} {'steps ok':>8} {'agreement (tasks)':>17}"
    lines = [header]
    for f in rows:
        ok = fixed(f.average_steps_successful, 2) if f.average_steps_successful is not None else "-"
        success = fixed(f.success_rate, 3) if f.success_rate is not None else "-"
        steps = fixed(f.average_steps, 2) if f.average_steps is not None else "-"
        lines.append(f"{cell(f.category, named)} {f.tasks:>5} {f.runs:>4} {success:>8} "
                     f"{_per_run(evaluation, f, columns):<{width}} {steps:>6} {ok:>8} {_agreement(f):>17}")
    return "\n".join(lines + _table_notes(evaluation, columns))


def _table_notes(evaluation: Evaluation, columns: list[int] | None) -> list[str]:
    overall = evaluation.overall
    notes = []
    if columns is None:
        notes.append(f"per run: ± the sample standard deviation of the {overall.runs} runs' rates (lowest-highest); "
                     "each run's is in --json")
    counted_incomplete = sorted(set(overall.per_run) & set(evaluation.incomplete))
    if counted_incomplete:
        mark = f"{INCOMPLETE_MARK} " if columns is not None else ""
        notes.append(f"per run: {mark}{runs_named(counted_incomplete)} "
                     f"{'is' if len(counted_incomplete) == 1 else 'are'} incomplete: "
                     f"{'its rate is' if len(counted_incomplete) == 1 else 'their rates are'} over the tasks "
                     f"{'it' if len(counted_incomplete) == 1 else 'they'} reached, not all of the run's")
    if overall.agreement is not None and overall.agreement_tasks < overall.tasks:
        notes.append(f"agreement: taken over {overall.agreement_tasks} of {counted(overall.tasks, 'task')} "
                     f"({overall.agreement_episodes} of {counted(overall.episodes, 'episode')}), those with a "
                     "reference trajectory")
    return [f"note: {n}" for n in notes]


# Past this many, the episodes that did not succeed are counted, not each given a line (--json has every one).
ENDINGS_SHOWN = 20


def format_endings(evaluation: Evaluation, limit: int = ENDINGS_SHOWN) -> list[str]:
    """A line per episode that did not succeed (wrong, or cut), saying why it ended (`why_it_ended`), so that a
    refusal, prose with no action, a missing element or an unreadable answer are told apart; at most `limit`, then
    how many more. The figures are the table's: this only says what the episodes' steps recorded."""
    missed = [e for e in evaluation.episodes if not e["success"]]
    if not missed:
        return []
    lines = [f"why the {counted(len(missed), 'episode')} not answered right ended (`reason` in --json):"]
    for e in missed[:limit]:
        verdict = "cut" if e["cut"] else "wrong"
        answered = f" (answer {e['answer']!r})" if e["answer"] is not None else ""
        lines.append(f"  run {e['run']} {e['task']}: {verdict} in {counted(int(e['steps']), 'step')}{answered} — "  # type: ignore[call-overload]
                     f"{e['reason']}")
    if len(missed) > limit:
        lines.append(f"  … and {len(missed) - limit} more")
    return lines


def write_chart(evaluation: Evaluation, path: str | Path) -> Path:
    """Bars of success rate and agreement per category and overall. Over several runs a success bar carries the
    spread of the runs' rates (a whisker from the lowest to the highest, the range the table gives); an agreement
    taken over only some of a row's tasks (those with a reference) says so above its bar ("1/8 tasks"), overall as
    each category; a value of 0 is drawn as a flat bar marked "0.0" (`show_zero`), a missing one as "n/a"."""
    rows = [*evaluation.categories, evaluation.overall]
    spread = any(success_spread(f) is not None for f in rows)
    # An agreement of None (no reference) or a success rate of None (no complete run) is drawn as missing, not 0.
    return grouped_bars(path, [f.category.replace(" ", "\n") for f in rows], [
        ("success (mean over runs; whisker: lowest-highest run)" if spread else "success (mean over runs)",
         [_drawn(f.success_rate) for f in rows]),
        ("agreement with reference", [_drawn(f.agreement) for f in rows]),
    ], marks={1: [agreement_mark(f) for f in rows]}, spreads={0: [success_spread(f) for f in rows]}, show_zero=True)


def _drawn(value: Figure | None) -> float | None:
    return None if value is None else float(value)


def success_spread(f: Figures) -> tuple[float, float] | None:
    """The lowest and highest of a row's per-run success rates (its whisker), over two runs or more."""
    return (float(min(f.per_run.values())), float(max(f.per_run.values()))) if len(f.per_run) > 1 else None


def agreement_mark(f: Figures) -> str | None:
    """What an agreement bar is taken over, when that is not all of its row's tasks: "1/8 tasks"."""
    if f.agreement is None or f.agreement_tasks >= f.tasks:
        return None
    return f"{f.agreement_tasks}/{f.tasks} tasks"
