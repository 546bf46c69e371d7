"""Which of a task's reference trajectories counts: one rule for `agent eval` (agreement), `agent tasks report` (the
GT steps), `agent run --references` (whether a file's reference is stored) and the app's trajectory viewer.

The reference that counts is the newest reference of the task's current version that ends with an answer:
- one recorded for an earlier version of the task (changed since: another `task_digest`) is a path to another
  question: kept, never counted;
- one recorded without an answer (stopped before ANSWER: the agent window's ■ Stop) is not a path to the answer:
  kept (nothing a person recorded is lost), never counted, and named, so that it is never taken for the task's
  reference unsaid;
- one whose version is not known (stored before versions were kept, or read from a references file) is of the task
  as it is now (`tasks.same_version`).

A reference file recorded before passwords were masked holds the text typed into a password field in clear. Before
such a file is stored (`agent run --references`), each Type in clear is looked at on the snapshot's page it was
typed on (`PasswordFields`, the text browser's `is_password_field`): one into an `<input type=password>` is masked
there and in the rest of the reference as the recorder masks it (`actions.masked_step`: its bullets, so agreement,
which needs only its length, is unchanged), and said. A Type whose page the snapshot lacks, or whose element the
saved page has not (a field a script made), cannot be told: stored as typed, and said (`masked_reference`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..wording import listed
from .actions import Step, is_password_mask, masked_step
from .model import Task, Trajectory
from .sites import Site
from .targets import find_target
from .tasks import same_version
from .text_browser import HtmlSiteBrowser


def ends_with_answer(trajectory: Trajectory) -> bool:
    """Whether a reference ends with an answer: its answer, or (a trajectory built without one) an ANSWER last step.
    One stopped before ANSWER is stored with none."""
    steps = trajectory.steps
    return trajectory.answer is not None or bool(steps and steps[-1].action == "answer")


@dataclass(frozen=True)
class Reference:
    """A person's reference trajectory, with the version of its task it was recorded for and where it is kept."""

    trajectory: Trajectory
    recorded_for: str | None = None  # the `task_digest` of the task it was recorded for; None: not known
    row: int | None = None           # its row in a project; None: read from a file
    site: str | None = None          # the site of its task (a task id is a site's own); None: any (a file's)

    @property
    def task_id(self) -> str:
        return self.trajectory.task_id

    @property
    def answered(self) -> bool:
        return ends_with_answer(self.trajectory)

    def of_version(self, task: Task) -> bool:
        """Whether it was recorded for `task` as it is now (or for a version not known)."""
        return same_version(self.recorded_for, task)


@dataclass
class ReferenceChoice:
    """The references that count, by task id, and the tasks whose references are set aside, by why."""

    counting: dict[str, Reference] = field(default_factory=dict)
    # Tasks with a reference of their current version recorded without an answer, newer than the one that counts
    # (or with none that counts): the one a person may take for the task's reference, not used.
    unanswered: list[str] = field(default_factory=list)
    # Those of `unanswered` whose reference without an answer is a file's (read from a references folder, not kept
    # in a project).
    unanswered_files: list[str] = field(default_factory=list)
    # Tasks with no reference that counts, and one recorded for an earlier version of the task.
    earlier: list[str] = field(default_factory=list)

    def trajectories(self) -> dict[str, Trajectory]:
        """Task id -> the trajectory of the reference that counts."""
        return {task_id: reference.trajectory for task_id, reference in self.counting.items()}

    def counts(self, reference: Reference) -> bool:
        chosen = self.counting.get(reference.task_id)
        return chosen is not None and (chosen is reference or (chosen.row is not None and chosen.row == reference.row))


def choose_references(tasks: Iterable[Task], references: Iterable[Reference], *,
                      also: Mapping[str, Task] | None = None) -> ReferenceChoice:
    """The reference that counts for each of `tasks` (see the module notes) among `references`, oldest first (a
    project's in the order stored; a file's after them, as the newest). A reference of a task not in `tasks` is
    left out. `also`: task id -> another version of the task a reference must be of too (the tasks report counting
    a file's task that the project holds otherwise: a reference of either version alone is not one of both). The
    tasks are one site's (task ids are a site's own): several sites' tasks are chosen for one site at a time."""
    by_id = {task.id: task for task in tasks}
    also = also or {}
    choice = ReferenceChoice()
    unanswered: dict[str, Reference] = {}  # task -> its newest reference of its version so far, without answer
    earlier: set[str] = set()
    for reference in references:
        task = by_id.get(reference.task_id)
        if task is None:
            continue
        if not reference.of_version(task) or (task.id in also and not reference.of_version(also[task.id])):
            earlier.add(task.id)
        elif reference.answered:
            choice.counting[task.id] = reference
            unanswered.pop(task.id, None)
        else:
            unanswered[task.id] = reference
    choice.unanswered = [task_id for task_id in by_id if task_id in unanswered]
    choice.unanswered_files = [task_id for task_id in choice.unanswered if unanswered[task_id].row is None]
    choice.earlier = [task_id for task_id in by_id if task_id in earlier and task_id not in choice.counting]
    return choice


def same_path(stored: Trajectory, given: Trajectory) -> bool:
    """Whether two references are one path: the same answer and the same steps (action, target, value, page, and
    whether each failed). Who recorded it and when, timings, thoughts and screenshots are not the path: a file
    stored once and given again reads back with its steps' times filled in."""
    def path(trajectory: Trajectory) -> tuple[object, ...]:
        return trajectory.answer, [(s.action, s.target, s.value, s.url, s.failed) for s in trajectory.steps]

    return path(stored) == path(given)


@dataclass
class FileReferences:
    """Of a run's tasks, those whose reference that counts is a references folder's file (`agent eval
    --references`), and of these, those for which the project holds a reference that counts which differs."""

    taken: list[Task] = field(default_factory=list)
    over_project: list[Task] = field(default_factory=list)  # the project's reference that counts differs
    project_has_none: list[Task] = field(default_factory=list)  # the project holds no reference that counts


def file_references(tasks: Sequence[Task], held: Sequence[Reference], files: Sequence[Reference]) -> FileReferences:
    """Which of `tasks` (of one site or several) are compared with a file's reference among `files` (of no site:
    each is of the task of its id on every site) rather than with the project's `held` (each of its site), as
    `choose_references` takes them: a file's is the newest. A file's identical to the project's one (the same path)
    replaces nothing; one that differs is in `over_project`, so that it is said, as `agent run --references` says
    the file's reference it leaves out; one of a task the project holds no reference of that counts is in
    `project_has_none`."""
    found = FileReferences()
    for site in sorted({task.site for task in tasks}):
        of_site = [task for task in tasks if task.site == site]
        own = [r for r in held if r.site is None or r.site == site]
        project = choose_references(of_site, own).counting
        counting = choose_references(of_site, [*own, *files]).counting
        for task in of_site:
            chosen = counting.get(task.id)
            if chosen is None or chosen.row is not None:
                continue
            found.taken.append(task)
            if task.id not in project:
                found.project_has_none.append(task)
            elif not same_path(project[task.id].trajectory, chosen.trajectory):
                found.over_project.append(task)
    return found


def unanswered_said(names: Sequence[str], *, kept: bool) -> str:
    """The references of these tasks (as a report names them) that end without an answer, as the project's (`kept`:
    a reference it keeps, unused) or as files of the references folder given (`--references`: not kept, and the
    project may hold none): `agent eval` and `agent tasks report` say them alike."""
    one = len(names) == 1
    if kept:
        return (f"reference{'' if one else 's'} of {listed(names, total=True)} recorded without an answer "
                "(stopped before ANSWER)")
    return (f"the --references file{'' if one else 's'} of {listed(names, total=True)} "
            f"end{'s' if one else ''} without an answer (stopped before ANSWER)")


class PasswordFields:
    """Whether a step's target is a password field of the snapshot's page it was taken on, as the text browser reads
    that page: True or False, or None when it cannot be told (the site does not hold the page, or its saved page has
    no such element)."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self._browser = HtmlSiteBrowser(site)

    def __call__(self, step: Step) -> bool | None:
        if step.target is None or self.site.page(step.url) is None:
            return None
        self._browser.open(step.url)
        found = find_target(step.target, self._browser.observe().elements)
        return None if found is None else self._browser.is_password_field(found)


@dataclass(frozen=True)
class MaskedReference:
    """A reference as it is stored: its passwords masked. `masked` and `unknown` are step numbers (1 the first):
    Types found to be into a password field (now masked), and Types in clear whose field could not be told."""

    trajectory: Trajectory
    masked: list[int] = field(default_factory=list)
    unknown: list[int] = field(default_factory=list)


def masked_reference(trajectory: Trajectory, is_password_field: PasswordFields) -> MaskedReference:
    """`trajectory` (a reference file's) with each text it typed into a password field masked wherever it says it,
    as the recorder keeps it (module notes)."""
    typed = [(number, step) for number, step in enumerate(trajectory.steps, 1)
             if step.action == "type" and step.value and not is_password_mask(step.value)]
    verdicts = {number: is_password_field(step) for number, step in typed}
    masked = [number for number, verdict in verdicts.items() if verdict]
    unknown = [number for number, verdict in verdicts.items() if verdict is None]
    secrets = {trajectory.steps[number - 1].value or "" for number in masked}
    if secrets:
        trajectory = replace(trajectory, steps=[masked_step(step, secrets) for step in trajectory.steps])
    return MaskedReference(trajectory, masked, unknown)
