"""Web-agent benchmark data in a project: snapshot sites, tasks, agent runs, and trajectories with their steps,
screenshots and raw model calls. The types are core/agent/model.py's; this module only stores them.

A trajectory's actor is a provenance: a person ("person:ana") or an agent (kind "agent"; schema v3 stored agents
as kind "extractor" with version "agent", which migration 4 converts)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..agent.actions import ACTIONS, Step
from ..agent.answers import is_correct
from ..agent.model import ModelCall, Task, Trajectory
from ..agent.targets import Target
from ..agent.tasks import same_version, task_digest
from .db import Connection, Provenance, StoreError, dumps, now
from .files import store_snapshot, stored_file
from .runs import StoredRun

if TYPE_CHECKING:
    import sqlite_utils

SCREENSHOT_SUFFIX = ".png"
# The `stop` of a recording stored step by step while it goes on: one that keeps it after a restart was cut short
# (the app was killed or crashed). It never ends with an answer, so it is never a task's reference.
UNFINISHED = "recording"


@dataclass(frozen=True)
class AgentRun(StoredRun):
    """Its status: running (or interrupted: no end time), finished or failed (then `error` says why)."""

    error: str | None = None


def provenance_of(actor: str) -> Provenance:
    kind, _, name = actor.partition(":")
    if kind == "person" and name:
        return Provenance.person(name)
    return Provenance.agent(actor)


def actor_of(who: Provenance) -> str:
    return f"person:{who.name}" if who.is_person else who.name


class AgentData:
    """A project's agent-benchmark data: sites, tasks, agent runs, trajectories: `project.agent`."""

    def __init__(self, store: Connection) -> None:
        self._store = store

    # -- sites ----------------------------------------------------------------------------------------------

    def add_site(self, name: str, folder: str | None = None) -> int:
        with self._store.writing() as db:
            if self._store.one("SELECT 1 FROM sites WHERE name = ?", (name,)):
                raise StoreError(f"a site named {name!r} is already in the project")
            return int(db.execute("INSERT INTO sites (name, folder, created_at) VALUES (?, ?, ?)",
                                  (name, folder, now())).lastrowid)

    def site_id(self, name: str, folder: str | None = None) -> int:
        """The site's row, added the first time the name is seen. Given a folder, the row points at it: the
        folder last used (a re-captured copy keeps the name; each agent run records its own folder and digest)."""
        with self._store.writing() as db:
            row = self._store.one("SELECT id, folder FROM sites WHERE name = ?", (name,))
            if row is None:
                return self.add_site(name, folder)
            if folder is not None and row[1] != folder:
                db.execute("UPDATE sites SET folder = ? WHERE id = ?", (folder, row[0]))
            return int(row[0])

    def add_site_page(self, site_id: int, url: str, page: str) -> None:
        with self._store.writing() as db:
            db.execute("INSERT OR REPLACE INTO site_pages (site_id, url, page_id) VALUES (?, ?, ?)",
                       (site_id, url, self._store.page_id(page)))

    def site_pages(self, site_id: int) -> dict[str, str]:
        """URL -> page name: the pages a click can reach without leaving the snapshot."""
        rows = self._store.db.execute("SELECT s.url, p.name FROM site_pages s JOIN pages p ON p.id = s.page_id "
                               "WHERE s.site_id = ? ORDER BY s.url", (site_id,))
        return dict(rows.fetchall())

    # -- tasks ----------------------------------------------------------------------------------------------

    def save_task(self, site_id: int, task: Task, *, replace: bool = False) -> int:
        """Add the task, or update the one with the same id on the same site; returns its row id. A task that
        episodes were run on is scored by what it says now: changing one is refused unless `replace`, since every
        earlier run's figures would change with it, unannounced; replaced, its stored episodes are judged again
        (`trajectories.success`), so that what is stored agrees with what `agent eval` computes."""
        values = (task.instruction, task.category, task.answer, dumps(list(task.normalise)), task.start_url,
                  task.answer_kind)
        with self._store.writing() as db:
            row = self._store.one("SELECT id FROM tasks WHERE site_id = ? AND external_id = ?", (site_id, task.id))
            if row is not None and not replace:
                _refuse_a_changed_task(self._store, int(row[0]), task)
            if row is not None:
                db.execute("UPDATE tasks SET instruction = ?, category = ?, gold_answer = ?, normalisation = ?, "
                           "start_url = ?, answer_kind = ? WHERE id = ?", (*values, row[0]))
                judged = db.execute("SELECT id, answer, agent_run_id, task_digest FROM trajectories "
                                    "WHERE task_id = ? AND success IS NOT NULL", (row[0],)).fetchall()
                for ident, answer, run, digest in judged:
                    if run is None and not same_version(digest, task):
                        continue  # a reference of another version answered another question: its verdict stays
                    db.execute("UPDATE trajectories SET success = ? WHERE id = ?", (is_correct(task, answer), ident))
                return int(row[0])
            cursor = db.execute("INSERT INTO tasks (instruction, category, gold_answer, normalisation, start_url, "
                                "answer_kind, site_id, external_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                (*values, site_id, task.id, now()))
            return int(cursor.lastrowid)

    def tasks(self, site_id: int | None = None, *, site: str | None = None) -> list[Task]:
        """The project's tasks, or those of one site (by row id, or by `site` name): a task id is a site's own."""
        where, params = ("WHERE t.site_id = ?", (site_id,)) if site_id is not None else ("", ())
        if site is not None:
            where, params = "WHERE s.name = ?", (site,)
        rows = self._store.db.execute(f"{_SELECT_TASKS} {where} ORDER BY t.id", params)
        return [_task(row) for row in rows]

    def task_row_id(self, task_id: str, site_id: int | None = None) -> int:
        where = " AND site_id = ?" if site_id is not None else ""
        params = (task_id, site_id) if site_id is not None else (task_id,)
        rows = self._store.db.execute(f"SELECT id FROM tasks WHERE external_id = ?{where}", params).fetchall()
        if not rows:
            raise StoreError(f"no task {task_id!r} in the project")
        if len(rows) > 1:
            raise StoreError(f"task id {task_id!r} is used on several sites; name the site")
        return int(rows[0][0])

    # -- runs -----------------------------------------------------------------------------------------------

    def add_run(self, method: str, parameters: Mapping[str, object] | None = None) -> int:
        with self._store.writing() as db:
            cursor = db.execute("INSERT INTO agent_runs (method, parameters, started_at, status) "
                                "VALUES (?, ?, ?, 'running')", (method, dumps(dict(parameters or {})), now()))
            return int(cursor.lastrowid)

    def finish_run(self, run_id: int, cost: Mapping[str, object] | None = None, *,
                   error: str | None = None) -> None:
        """End a run: finished, or failed with `error` (the model endpoint failed; the run is not complete)."""
        with self._store.writing() as db:
            db.execute("UPDATE agent_runs SET ended_at = ?, cost = ?, status = ?, error = ? WHERE id = ?",
                       (now(), dumps(dict(cost or {})), "failed" if error else "finished", error, run_id))

    def record_cost(self, run_id: int, cost: Mapping[str, object]) -> None:
        """What a run has cost so far, stored as it goes: an interrupted run (Ctrl+C, a kill) keeps what it paid."""
        with self._store.writing() as db:
            db.execute("UPDATE agent_runs SET cost = ? WHERE id = ?", (dumps(dict(cost)), run_id))

    def reopen_run(self, run_id: int) -> None:
        """A run being resumed is running again: no end time until it finishes."""
        with self._store.writing() as db:
            db.execute("UPDATE agent_runs SET ended_at = NULL, status = 'running', error = NULL WHERE id = ?",
                       (run_id,))

    def runs(self) -> list[AgentRun]:
        rows = self._store.db.execute(
            "SELECT id, method, parameters, COALESCE(status, CASE WHEN ended_at IS NULL THEN 'running' "
            "ELSE 'finished' END), started_at, ended_at, cost, error FROM agent_runs ORDER BY id")
        return [AgentRun.from_row(row) for row in rows]

    def run(self, run_id: int) -> AgentRun:
        for found in self.runs():
            if found.id == run_id:
                return found
        raise StoreError(f"no agent run {run_id} in the project")

    # -- trajectories ---------------------------------------------------------------------------------------

    def add_trajectory(self, task_row_id: int, trajectory: Trajectory, *, agent_run_id: int | None = None,
                       replacing: int | None = None, unfinished: bool = False) -> int:
        """Store a whole trajectory, its steps, screenshots and model calls in one transaction (a reference
        one when `agent_run_id` is None), with the version of its task it is for: the `task_digest` of the task as
        the project holds it now (saved just before, by whoever recorded or ran it).

        `replacing` is the row id of the same trajectory stored before, with fewer steps (a recording is stored at
        each step it acknowledges, so that a crash loses none): its row and steps are written anew, in one
        transaction, and keep their id. `unfinished`: the recording goes on (stored with `stop` UNFINISHED, which
        `unfinished_recordings` finds after a crash)."""
        bad = [s.action for s in trajectory.steps if s.action and s.action not in ACTIONS]
        if bad:
            raise StoreError(f"unknown step action {bad[0]!r}; expected one of {', '.join(ACTIONS)}")
        # Screenshot files first: content-addressed, so a rolled-back transaction leaves only harmless files. A
        # recording stored again at each step (`replacing`) stored its earlier ones already, under the names its
        # steps give them: they are not hashed again at every step.
        for digest, png in trajectory.screenshots.items():
            if replacing is None or stored_file(self._store.root, digest, SCREENSHOT_SUFFIX) is None:
                store_snapshot(self._store.root, png, SCREENSHOT_SUFFIX)
        at = now()
        steps = trajectory.steps
        started, ended = _span(trajectory)
        with self._store.writing() as db:
            task = self._store.one(f"{_SELECT_TASKS} WHERE t.id = ?", (task_row_id,))
            if task is None:
                raise StoreError(f"no task row {task_row_id} in the project")
            row = (task_row_id, self._store.provenance_id(provenance_of(trajectory.actor)), agent_run_id,
                   trajectory.answer, trajectory.success, started or at, ended or at, trajectory.run,
                   UNFINISHED if unfinished else trajectory.stop, task_digest(_task(task)))
            trajectory_id = _write_trajectory_row(db, row, replacing)
            for position, step in enumerate(steps, 1):
                db.execute("INSERT INTO steps (trajectory_id, position, action, target, value, url, screenshot, "
                           "screenshot_after, thought, seconds, raw, error, at, submit) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (trajectory_id, position, step.action or None,
                            dumps(step.target.as_dict() if step.target else None), step.value, step.url,
                            step.screenshot_before, step.screenshot_after, step.thought, step.seconds, step.raw,
                            step.error, step.at or at, None if step.submit else 0))
            for ordinal, call in enumerate(trajectory.calls, 1):
                db.execute("INSERT INTO model_calls (trajectory_id, ordinal, position, system, prompt, images, "
                           "answer, usage, seconds, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (trajectory_id, ordinal, call.position, call.system, call.prompt, call.images,
                            call.answer, dumps(call.usage), call.seconds, call.error))
            return trajectory_id

    def unfinished_recordings(self) -> list[int]:
        """The row ids of recordings stored step by step whose recording never ended (the app was killed or
        crashed during it): kept, with every step recorded up to then, marked `stop` = UNFINISHED."""
        rows = self._store.db.execute("SELECT id FROM trajectories WHERE agent_run_id IS NULL AND stop = ? "
                                      "ORDER BY id", (UNFINISHED,)).fetchall()
        return [int(row_id) for row_id, in rows]

    def trajectory_sites(self, agent_run_id: int) -> dict[int, str]:
        """Row id -> the site of its task, for each trajectory of one agent run (read without their steps)."""
        return dict(self._store.db.execute(
            "SELECT tr.id, s.name FROM trajectories tr JOIN tasks t ON t.id = tr.task_id "
            "JOIN sites s ON s.id = t.site_id WHERE tr.agent_run_id = ?", (agent_run_id,)).fetchall())

    def trajectories(self, *, agent_run_id: int | None = None, reference: bool = False,
                     task_id: str | None = None, site: str | None = None) -> list[tuple[int, Trajectory]]:
        """(row id, trajectory) with steps (not model calls: `model_calls` has them), oldest first. By default
        every trajectory; `reference=True` only people's references; `agent_run_id` one run's; `site` those of
        that site's tasks (a task id is a site's own)."""
        clauses: list[str] = []
        params: list[object] = []
        if site is not None:
            clauses.append("t.site_id = (SELECT id FROM sites WHERE name = ?)")
            params.append(site)
        if reference:
            clauses.append("tr.agent_run_id IS NULL")
        if agent_run_id is not None:
            clauses.append("tr.agent_run_id = ?")
            params.append(agent_run_id)
        if task_id is not None:
            clauses.append("t.external_id = ?")
            params.append(task_id)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._store.db.execute(
            "SELECT tr.id, t.external_id, p.kind, p.name, p.version, p.input_format, p.seed, tr.answer, tr.success, "
            "tr.run_index, tr.stop, tr.started_at FROM trajectories tr JOIN tasks t ON t.id = tr.task_id "
            f"JOIN provenances p ON p.id = tr.actor_id {where} ORDER BY tr.id", params).fetchall()
        out = []
        for row_id, task, kind, name, version, fmt, seed, answer, success, run, stop, started in rows:
            trajectory = Trajectory(task_id=task, actor=actor_of(Provenance(kind, name, version, fmt, seed)),
                                    steps=self.steps(row_id), answer=answer,
                                    success=None if success is None else bool(success), run=run, stop=stop,
                                    started_at=started)
            out.append((row_id, trajectory))
        return out

    def trajectory_dates(self) -> dict[int, str]:
        """Row id -> when each trajectory began (its episode's start, `_span`; ISO time)."""
        rows = self._store.db.execute("SELECT id, started_at FROM trajectories ORDER BY id").fetchall()
        return {int(row_id): str(started or "") for row_id, started in rows}

    def recorded_versions(self) -> dict[int, str | None]:
        """Row id -> the `task_digest` of the task each trajectory was stored for (a reference recorded for it, an
        episode run on it); None: stored before versions were kept (schema 9)."""
        rows = self._store.db.execute("SELECT id, task_digest FROM trajectories ORDER BY id").fetchall()
        return {int(row_id): None if digest is None else str(digest) for row_id, digest in rows}

    def earlier_versions(self) -> set[int]:
        """The trajectories (row ids) stored for another version of their task than the project holds now: it was
        changed since (`agent run --replace-tasks`, or saved again from the agent window). A reference of them is
        not its task's (`tasks.same_version`); one stored before versions were kept is not among them."""
        rows = self._store.db.execute(f"SELECT tr.id, tr.task_digest, {_TASK_COLUMNS} FROM trajectories tr "
                                      "JOIN tasks t ON t.id = tr.task_id JOIN sites s ON s.id = t.site_id").fetchall()
        return {int(row[0]) for row in rows if not same_version(row[1], _task(row[2:]))}

    def delete_trajectory(self, trajectory_id: int) -> None:
        """Remove a trajectory with its steps and model calls: a reference a person deletes. (A resumed run keeps
        the episodes it runs again, a cut one's model calls with it: `agent eval` counts the last uncut one.)"""
        with self._store.writing() as db:
            db.execute("DELETE FROM trajectories WHERE id = ?", (trajectory_id,))

    def steps(self, trajectory_id: int) -> list[Step]:
        rows = self._store.db.execute("SELECT action, target, value, url, screenshot, screenshot_after, thought, "
                                      "seconds, raw, error, at, submit FROM steps WHERE trajectory_id = ? "
                                      "ORDER BY position", (trajectory_id,))
        steps = []
        for action, target, value, url, before, after, thought, seconds, raw, error, at, submit in rows:
            identity = json.loads(target) if target else None
            steps.append(Step(action=action or "", target=Target.from_dict(identity) if identity else None,
                              value=value, url=url, screenshot_before=before, screenshot_after=after,
                              thought=thought, seconds=seconds, raw=raw, error=error, at=at,
                              submit=submit != 0))  # NULL (stored before v11): Enter, as every Type was
        return steps

    def model_calls(self, trajectory_id: int) -> list[ModelCall]:
        rows = self._store.db.execute("SELECT position, prompt, answer, usage, seconds, error, system, images "
                               "FROM model_calls WHERE trajectory_id = ? ORDER BY ordinal", (trajectory_id,))
        return [ModelCall(position=p, prompt=prompt, answer=answer, usage=json.loads(usage), seconds=seconds,
                          error=error, system=system, images=images)
                for p, prompt, answer, usage, seconds, error, system, images in rows]

    def screenshot_file(self, digest: str) -> Path | None:
        """The stored PNG a step's screenshot hash names, or None when it is not in the project (a step of a
        trajectory read from a file may name its screenshot `step-1`: no hash, so none of the project's)."""
        return stored_file(self._store.root, digest, SCREENSHOT_SUFFIX)


def _span(trajectory: Trajectory) -> tuple[str | None, str | None]:
    """When a trajectory began and ended: when its episode began (`Trajectory.began`: an agent's before its start page
    opened, a recording's at ● Record; from a file that does not say, its first step's time less the seconds that
    step took) and its last step's time (`at`: when it was taken). Never the moment it is stored: a reference read
    from a file long after its recording, or an episode stored again at each of its model calls, keeps its own. None
    when neither is known (a hand-written file's)."""
    times = [step.at for step in trajectory.steps if step.at]
    return trajectory.began(), times[-1] if times else None


_TRAJECTORY_COLUMNS = ("task_id", "actor_id", "agent_run_id", "answer", "success", "started_at", "ended_at",
                       "run_index", "stop", "task_digest")


def _write_trajectory_row(db: sqlite_utils.Database, row: tuple[object, ...], replacing: int | None) -> int:
    """Insert a trajectory's row, or write the row `replacing` anew (its steps and model calls removed, to be
    written again): its id either way."""
    if replacing is None:
        cursor = db.execute(f"INSERT INTO trajectories ({', '.join(_TRAJECTORY_COLUMNS)}) "
                            f"VALUES ({', '.join('?' * len(row))})", row)
        return int(cursor.lastrowid)
    updated = db.execute(f"UPDATE trajectories SET {', '.join(f'{c} = ?' for c in _TRAJECTORY_COLUMNS)} "
                         "WHERE id = ?", (*row, replacing))
    if updated.rowcount != 1:
        raise StoreError(f"no trajectory {replacing} in the project to store again")
    db.execute("DELETE FROM steps WHERE trajectory_id = ?", (replacing,))
    db.execute("DELETE FROM model_calls WHERE trajectory_id = ?", (replacing,))
    return replacing


def _refuse_a_changed_task(store: Connection, row_id: int, task: Task) -> None:
    stored = _task(store.one(f"{_SELECT_TASKS} WHERE t.id = ?", (row_id,)))
    changed = [f"{name} {before!r} -> {after!r}" for name, before, after in (
        ("gold answer", stored.answer, task.answer), ("instruction", stored.instruction, task.instruction),
        ("start_url", stored.start_url, task.start_url), ("answer_kind", stored.answer_kind, task.answer_kind),
        ("normalise", list(stored.normalise), list(task.normalise)), ("category", stored.category, task.category))
        if before != after]
    if not changed:
        return
    runs = [str(r[0]) for r in store.db.execute(
        "SELECT DISTINCT agent_run_id FROM trajectories WHERE task_id = ? AND agent_run_id IS NOT NULL "
        "ORDER BY agent_run_id", (row_id,))]
    if runs:
        raise ChangedTaskError(f"task {task.id} differs from the one agent run(s) {', '.join(runs)} were scored on "
                               f"({'; '.join(changed)})")


class ChangedTaskError(StoreError):
    """A task changed since agent runs were scored on it, refused (`AgentData.save_task` without `replace`): what
    changed and what to do are kept apart (`changed`, `advice`), so that several refusals are said with the advice
    once, never found by cutting their words (an instruction may hold a ": " of its own)."""

    advice = "give the changed task an id of its own, or --replace-tasks to score those runs by the new one"

    def __init__(self, changed: str) -> None:
        super().__init__(f"{changed}: {self.advice}")
        self.changed = changed


_TASK_COLUMNS = ("t.external_id, t.instruction, t.gold_answer, t.category, t.answer_kind, t.normalisation, "
                 "t.start_url, s.name")
_SELECT_TASKS = f"SELECT {_TASK_COLUMNS} FROM tasks t JOIN sites s ON s.id = t.site_id"


def _task(row: Sequence[object]) -> Task:
    ident, instruction, answer, category, kind, rules, start_url, site = row
    try:
        normalise = tuple(json.loads(str(rules)))
    except ValueError:
        normalise = ()
    return Task(id=str(ident), instruction=str(instruction), answer=str(answer), category=str(category or ""),
                answer_kind=str(kind or "text"), normalise=normalise, start_url=str(start_url or ""),
                site=str(site))
