"""The benchmark-construction funnel, WebArxiv's Table 1: per category, how many tasks were generated, dropped as
similar, unable to annotate or expired, and refined (kept), with the ground-truth steps of the reference
trajectories of the refined tasks (total and per task). Candidates not reviewed yet are counted as pending.

A task a person wrote (a benchmark made by hand: `HAND_MADE` as its model) is counted under "by hand", not
"generated": the table must not say a model made what an expert wrote.

The reference that counts is the one `agent eval` compares with (`references.choose_references`): the newest of
the task as it is now that ends with an answer. One recorded for another version of the task (edited since: another
`task_digest`) is a path to another question, and one recorded without an answer (stopped before ANSWER) no path to
the answer: neither is in the GT steps, and the task is named among those left to record, with why. A project knows
the version each reference was recorded for (schema 9; one stored before, or a references file's, is not known and
counts). "As it is now" is also the project's copy of the task when the project holds it (`current`), which agent
eval judges by: a candidates file holding an earlier version of a task the project changed since (`agent run
--replace-tasks`) counts no reference of that earlier version, as eval does not, and the difference is said.

A task id is a site's own (site A's t1 and site B's t1 are two tasks): the tasks the notes list are kept as (site,
task id), the JSON gives each list's sites beside its ids (`without_reference_sites` beside `without_reference_ids`),
and the text names each task's site whenever the tasks counted are of more than one site (`named_tasks`). A task that
names no site (a seed a person wrote) is counted on the site a project holds it under, when the report has one: the
site `agent run` ran it on (`on_stored_sites`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from ..runs.charts import write_png
from ..text_forms import cell, column_width
from ..wording import listed
from .candidates import Candidate
from .model import Task, Trajectory
from .references import Reference, ReferenceChoice, choose_references, unanswered_said
from .tasks import task_digest

HAND_MADE = "person"  # a Candidate's model when a person wrote the task (no generation step)
COLUMNS = ("generated", "similar", "unable", "expired", "refined", "pending")
HEADERS = {"by_hand": "by hand", "generated": "generated", "similar": "similar", "unable": "unable to annotate",
           "expired": "expired", "refined": "refined", "pending": "pending"}
_BY_STATUS = {"similar": "similar", "unable": "unable", "expired": "expired", "accepted": "refined",
              "candidate": "pending"}


@dataclass
class FunnelRow:
    category: str
    by_hand: int = 0           # tasks a person wrote (HAND_MADE), never "generated"
    generated: int = 0
    similar: int = 0
    unable: int = 0
    expired: int = 0
    refined: int = 0
    pending: int = 0
    edited: int = 0            # refined tasks a reviewer changed
    answer_not_found: int = 0  # refined tasks whose gold answer is in no saved page's text (flagged)
    gt_steps: int = 0          # steps of the refined tasks' reference trajectories
    with_reference: int = 0    # refined tasks that have one

    @property
    def steps_per_task(self) -> float | None:
        return self.gt_steps / self.with_reference if self.with_reference else None

    def as_dict(self) -> dict[str, object]:
        return asdict(self) | {"steps_per_task": self.steps_per_task}


TaskKey = tuple[str, str]  # (site, task id): a task id is a site's own, site A's t1 and site B's t1 are two tasks


@dataclass
class Funnel:
    categories: list[FunnelRow]
    total: FunnelRow
    # The tasks the notes name, each as (site, task id), in the candidates' order.
    # The refined tasks counted in `answer_not_found`: a reviewer needs to know which to look at.
    answer_not_found: list[TaskKey] = field(default_factory=list)
    # The refined tasks with no reference trajectory of their current version (not in the GT steps): the ones left
    # to record.
    without_reference: list[TaskKey] = field(default_factory=list)
    # Those of them whose only reference was recorded for another version of the task (edited since).
    other_version: list[TaskKey] = field(default_factory=list)
    # Refined tasks whose newest reference was recorded without an answer (kept, not counted).
    unanswered: list[TaskKey] = field(default_factory=list)
    # Those of `unanswered` whose newest reference is a file of the references folder given (`--references`), not
    # one the project keeps.
    unanswered_files: list[TaskKey] = field(default_factory=list)
    # Tasks whose version in the counted file differs from the project's copy (references are judged by the latter).
    differs_from_project: list[TaskKey] = field(default_factory=list)
    sites: list[str] = field(default_factory=list)  # the sites of the tasks counted
    # The `similar` counted that are the near-duplicate filter's marks, not reviewers' verdicts: threshold (as
    # written, "0.8") -> how many. A run of the filter at another threshold makes them again.
    similar_by_filter: dict[str, int] = field(default_factory=dict)

    @property
    def answer_not_found_ids(self) -> list[str]:
        return _ids(self.answer_not_found)

    @property
    def without_reference_ids(self) -> list[str]:
        return _ids(self.without_reference)

    @property
    def other_version_ids(self) -> list[str]:
        return _ids(self.other_version)

    @property
    def unanswered_ids(self) -> list[str]:
        return _ids(self.unanswered)

    @property
    def unanswered_files_ids(self) -> list[str]:
        return _ids(self.unanswered_files)

    @property
    def differs_from_project_ids(self) -> list[str]:
        return _ids(self.differs_from_project)

    def named(self, keys: Sequence[TaskKey]) -> list[str]:
        """The tasks as the notes name them (`named_tasks`)."""
        return named_tasks(keys, self.sites)

    def as_dict(self) -> dict[str, object]:
        """Each list of tasks as its ids (`X_ids`, as before) and, in the same order, their sites (`X_sites`)."""
        lists = {"answer_not_found": self.answer_not_found, "without_reference": self.without_reference,
                 "other_version": self.other_version, "unanswered": self.unanswered,
                 "unanswered_files": self.unanswered_files, "differs_from_project": self.differs_from_project}
        return {"categories": [r.as_dict() for r in self.categories], "total": self.total.as_dict(),
                **{f"{name}_ids": _ids(keys) for name, keys in lists.items()},
                **{f"{name}_sites": [site for site, _ in keys] for name, keys in lists.items()},
                "sites": list(self.sites), "similar_by_filter": dict(self.similar_by_filter)}

    @property
    def columns(self) -> tuple[str, ...]:
        """The table's count columns: "by hand" only when a person wrote some of the tasks, so the table of a
        generated benchmark reads as WebArxiv's Table 1."""
        return ("by_hand", *COLUMNS) if self.total.by_hand else COLUMNS


def _ids(keys: Sequence[TaskKey]) -> list[str]:
    return [task_id for _, task_id in keys]


def named_tasks(keys: Sequence[TaskKey], sites: Collection[str]) -> list[str]:
    """Tasks as a report names them, among tasks of `sites`: by id alone when they are all of one site, else each
    with its site ("t1 (site shop)"), every one, not only the ids two sites share: a bare id in a report over several
    sites would leave the reader to guess which site's task it is (and which site to open to record it)."""
    if len(set(sites)) <= 1:
        return _ids(keys)
    return [f"{task_id} ({f'site {site}' if site else 'no site'})" for site, task_id in keys]


@dataclass
class StoredSites:
    """The tasks counted, each that names no site on the one a project holds it under (`on_stored_sites`), and the
    ids of those left of no site: the project holds none of that id, or holds it on several sites (-> their names)."""

    candidates: list[Candidate]
    not_in_project: list[str] = field(default_factory=list)
    on_several: dict[str, list[str]] = field(default_factory=dict)


def on_stored_sites(candidates: Sequence[Candidate], stored: Sequence[Task]) -> StoredSites:
    """`agent run` runs a task that names no site on the site it is given and stores it under that site's name, as
    every task it runs: the project's copy of the task (`stored`, the project's tasks) says which site ran it, and a
    report over the project counts the task there, not on a site of its own. A task the project does not hold is
    never run nor recorded there, and one it holds on several sites cannot be told apart: both stay of no site."""
    sites_of: dict[str, list[str]] = {}
    for task in stored:
        sites_of.setdefault(task.id, []).append(task.site)
    placed = StoredSites([])
    for candidate in candidates:
        sites = sites_of.get(candidate.id, []) if not candidate.task.site else [candidate.task.site]
        if len(sites) == 1:
            candidate = replace(candidate, task=replace(candidate.task, site=sites[0]))
        elif not sites:
            placed.not_in_project.append(candidate.id)
        else:
            placed.on_several[candidate.id] = sorted(sites)
        placed.candidates.append(candidate)
    return placed


def funnel(candidates: Sequence[Candidate], references: Mapping[str, Trajectory] | Sequence[Reference] | None = None,
           *, recorded_for: Mapping[str, Task | str] | None = None,
           current: Mapping[tuple[str, str], Task] | None = None
           ) -> Funnel:
    """The table for these candidates. `references`: every reference of the tasks, oldest first (a person's, with
    the version it was recorded for and its task's site), or task id -> reference trajectory with `recorded_for`:
    task id -> the task its reference was recorded for, or that task's `task_digest` (not there: not known).
    `current`: (site, task id) -> the task as the project holds it now, which a reference's version is judged
    against (default: the candidate's). A task id is a site's own: site A's t1 is judged by A's copy and
    references only (a reference naming no site, a file's, is any site's)."""
    current = current or {}
    if isinstance(references, Mapping):
        recorded_for = recorded_for or {}
        references = [Reference(t, _digest(recorded_for.get(task_id))) for task_id, t in references.items()]
    versions = [current.get((c.task.site, c.id), c.task) for c in candidates]
    differs = [task_key(c) for c, task in zip(candidates, versions, strict=True)
               if task_digest(task) != task_digest(c.task)]
    choices = _choices_per_site(candidates, versions, references or ())
    rows: dict[str, FunnelRow] = {}
    total = FunnelRow("all")
    not_found: list[TaskKey] = []
    unrecorded: list[TaskKey] = []
    for candidate in candidates:
        row = rows.setdefault(candidate.task.category or "(none)", FunnelRow(candidate.task.category or "(none)"))
        chosen = choices[candidate.task.site].counting.get(candidate.id)
        reference = chosen.trajectory if chosen is not None else None
        if candidate.status == "accepted" and candidate.evidence == "":
            not_found.append(task_key(candidate))
        if candidate.status == "accepted" and reference is None:
            unrecorded.append(task_key(candidate))
        origin = "by_hand" if candidate.model == HAND_MADE else "generated"
        for target in (row, total):
            setattr(target, origin, getattr(target, origin) + 1)
            column = _BY_STATUS[candidate.status]
            setattr(target, column, getattr(target, column) + 1)
            if candidate.status != "accepted":
                continue
            target.edited += candidate.edited
            target.answer_not_found += candidate.evidence == ""
            if reference is not None:
                target.gt_steps += len(reference.steps)
                target.with_reference += 1
    accepted = [c for c in candidates if c.status == "accepted"]
    by_filter: dict[str, int] = {}
    for candidate in candidates:
        if candidate.status == "similar" and candidate.filter is not None:
            threshold = f"{candidate.filter.threshold:g}"
            by_filter[threshold] = by_filter.get(threshold, 0) + 1
    return Funnel(categories=[rows[k] for k in sorted(rows)], total=total, answer_not_found=not_found,
                  without_reference=unrecorded,
                  other_version=[task_key(c) for c in accepted if c.id in choices[c.task.site].earlier],
                  unanswered=[task_key(c) for c in accepted if c.id in choices[c.task.site].unanswered],
                  unanswered_files=[task_key(c) for c in accepted if c.id in choices[c.task.site].unanswered_files],
                  differs_from_project=differs, sites=sorted({c.task.site for c in candidates}),
                  similar_by_filter=dict(sorted(by_filter.items(), key=lambda item: float(item[0]))))


def task_key(candidate: Candidate) -> TaskKey:
    """A candidate's task as (site, task id): a task id is a site's own."""
    return candidate.task.site, candidate.id


def _choices_per_site(candidates: Sequence[Candidate], versions: Sequence[Task],
                      references: Sequence[Reference]) -> dict[str, ReferenceChoice]:
    """Site -> the references that count for its candidates (`versions`: each candidate's task as it is now), chosen
    among that site's references and those of no site. A task the file holds otherwise than the project: a
    reference counts only when of both (agent eval judges by the project's, the benchmark counted is the file's)."""
    choices: dict[str, ReferenceChoice] = {}
    for site in dict.fromkeys(c.task.site for c in candidates):
        pairs = [(c, task) for c, task in zip(candidates, versions, strict=True) if c.task.site == site]
        differ = {c.id: c.task for c, task in pairs if task_digest(task) != task_digest(c.task)}
        choices[site] = choose_references([task for _, task in pairs],
                                          [r for r in references if r.site in (None, site)], also=differ)
    return choices


def _digest(recorded_for: Task | str | None) -> str | None:
    """The version a reference was recorded for: a task's `task_digest`, or the digest itself (None: not known)."""
    return task_digest(recorded_for) if isinstance(recorded_for, Task) else recorded_for


def format_funnel(table: Funnel) -> str:
    columns = table.columns
    rows = [*table.categories, table.total]
    # in columns, not characters: a category in CJK takes two a character, and the figures stay in line
    named = column_width([row.category for row in rows], least=20)
    header = (f"{cell('category', named)} " + " ".join(f"{HEADERS[c]:>{max(len(HEADERS[c]), 7)}}" for c in columns)
              + f" {'GT steps':>8} {'per task':>8}")
    lines = [header]
    for row in rows:
        per = f"{row.steps_per_task:.2f}" if row.steps_per_task is not None else "-"
        cells = " ".join(f"{getattr(row, c):>{max(len(HEADERS[c]), 7)}}" for c in columns)
        lines.append(f"{cell(row.category, named)} {cells} {row.gt_steps:>8} {per:>8}")
    notes = []
    if table.similar_by_filter:  # a threshold's figure, not a reviewer's: which threshold is said
        marks = sum(table.similar_by_filter.values())
        at = " and ".join(f"{threshold} ({count})" if len(table.similar_by_filter) > 1 else threshold
                          for threshold, count in table.similar_by_filter.items())
        reviewers = table.total.similar - marks
        notes.append(f"{marks} of the {table.total.similar} similar are marks of the near-duplicate filter at "
                     f"threshold {at}, not reviewers' verdicts" + (f" (the other {reviewers} are)" if reviewers else "")
                     + "; `agent tasks filter` at another --threshold makes them again")
    if table.total.edited:
        notes.append(f"{table.total.edited} refined task(s) were edited by a reviewer")
    if table.total.answer_not_found:
        notes.append(f"{table.total.answer_not_found} refined task(s) have a gold answer found in no saved page: "
                     f"{listed(table.named(table.answer_not_found))}")
    # By site and id: site A's t1 set aside as of another version says nothing of site B's t1, still to record.
    other = set(table.other_version)
    unanswered = set(table.unanswered)
    missing = [key for key in table.without_reference if key not in other | unanswered]
    if missing:
        notes.append(f"{len(missing)} refined task(s) have no reference trajectory yet (not in the GT steps): "
                     f"{listed(table.named(missing), total=True)}")
    if other:
        notes.append(f"{len(other)} refined task(s) have a reference recorded for another version of the task only "
                     "(the task was edited since; not in the GT steps): "
                     f"{listed(table.named(table.other_version), total=True)}; record them again")
    notes.extend(_unanswered_notes(table))
    if table.differs_from_project:
        notes.append(f"{len(table.differs_from_project)} task(s) counted differ from the project's copy of them "
                     "(one of the two was changed since: `agent run --replace-tasks`, the agent window, an edited "
                     "file): a reference recorded for one of the two does not count here (agent eval judges by the "
                     "project's); bring them in line and record what is missing: "
                     f"{listed(table.named(table.differs_from_project), total=True)}")
    return "\n".join(lines + [f"note: {n}" for n in notes])


def _unanswered_notes(table: Funnel) -> list[str]:
    """What the report says of the tasks whose newest reference ends without an answer: a reference the project keeps
    (unused), or a file of the --references folder (not kept: said as `agent eval` says it, `unanswered_said`)."""
    notes = []
    files = set(table.unanswered_files)
    without = set(table.without_reference)
    kept = [key for key in table.unanswered if key not in files]
    if kept:
        alone = [key for key in kept if key in without]
        if not alone:
            then = "; an earlier reference of each that ends with an answer counts instead"
        elif len(alone) < len(kept):
            then = (f"; record {listed(table.named(alone))} again (the others have an earlier one that ends with an "
                    "answer)")
        else:
            then = "; record them again"
        notes.append(f"{len(kept)} refined task(s) have a newest reference recorded without an answer (kept, "
                     f"not used: not in the GT steps): {listed(table.named(kept), total=True)}{then}")
    filed = [key for key in table.unanswered if key in files]
    if filed:
        alone = [key for key in filed if key in without]
        one = len(filed) == 1
        if not alone:
            then = (f"; the project's earlier reference of {'the task' if one else 'each'} that ends with an answer "
                    "counts instead")
        elif len(alone) < len(filed):
            then = (f"; record {listed(table.named(alone))} again to the answer (the project holds an earlier "
                    "reference of each of the others that ends with one)")
        else:
            then = (f"; no other reference of {'the task' if one else 'them'} ends with one: record "
                    f"{'it' if one else 'them'} again to the answer")
        notes.append(f"{unanswered_said(table.named(filed), kept=False)}: not used (not in the GT steps){then}")
    return notes


_FUNNEL_PARTS = [("refined", "#2e7d32"), ("similar", "#f9a825"), ("unable", "#8e24aa"), ("expired", "#6d4c41"),
                 ("pending", "#9e9e9e")]
_FUNNEL_TITLE = "Benchmark construction funnel"


def write_funnel_chart(table: Funnel, path: str | Path) -> Path:
    """Stacked bars per category: what became of the generated tasks. Categories in any script are drawn in an
    installed font that has their characters (`charts.write_png`)."""
    texts = [*(r.category for r in table.categories), *(HEADERS[c] for c, _ in _FUNNEL_PARTS), _FUNNEL_TITLE,
             "generated tasks"]
    return write_png(path, texts, lambda: _draw_funnel(table))


def _draw_funnel(table: Funnel):  # noqa: ANN202 - a matplotlib Figure
    import matplotlib.pyplot as plt

    parts = _FUNNEL_PARTS
    labels = [r.category.replace(" ", "\n") for r in table.categories]
    figure, axis = plt.subplots(figsize=(max(5.5, 1.3 * len(labels) + 2.5), 3.6), dpi=120)
    bottoms = [0] * len(labels)
    for column, colour in parts:
        values = [getattr(r, column) for r in table.categories]
        axis.bar(range(len(labels)), values, 0.6, bottom=bottoms, label=HEADERS[column], color=colour)
        bottoms = [b + v for b, v in zip(bottoms, values, strict=True)]
    axis.set_xticks(range(len(labels)), labels, fontsize=8)
    axis.set_ylabel("tasks" if table.total.by_hand else "generated tasks")
    axis.set_title(_FUNNEL_TITLE, fontsize=10)
    from matplotlib.ticker import MaxNLocator

    axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the bars, never over them
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure
