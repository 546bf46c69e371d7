"""Web-agent benchmark data in a project: snapshot sites (saved pages keyed by URL), tasks, agent runs and
trajectories of steps. A minimal API for now; the agent-benchmark work builds on these tables."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .store_db import Connection, Provenance, StoreError, dumps, now
from .store_schema import STEP_ACTIONS


@dataclass(frozen=True)
class Task:
    id: int
    site_id: int
    instruction: str
    category: str
    gold_answer: str
    normalisation: str
    start_url: str


@dataclass(frozen=True)
class Step:
    action: str                                   # click, type, scroll, wait, go_back, answer
    url: str
    target: Mapping[str, object] = field(default_factory=dict)  # label, xpath, text, role, name, bbox
    value: str | None = None
    screenshot: str | None = None                 # hash of a stored PNG
    thought: str | None = None
    at: str | None = None


class AgentStore(Connection):
    def add_site(self, name: str) -> int:
        with self.writing() as db:
            if self.one("SELECT 1 FROM sites WHERE name = ?", (name,)):
                raise StoreError(f"a site named {name!r} is already in the project")
            return int(db.execute("INSERT INTO sites (name, created_at) VALUES (?, ?)", (name, now())).lastrowid)

    def add_site_page(self, site_id: int, url: str, page: str) -> None:
        with self.writing() as db:
            db.execute("INSERT OR REPLACE INTO site_pages (site_id, url, page_id) VALUES (?, ?, ?)",
                       (site_id, url, self.page_id(page)))

    def site_pages(self, site_id: int) -> dict[str, str]:
        """URL -> page name: the pages a click can reach without leaving the snapshot."""
        rows = self.db.execute("SELECT s.url, p.name FROM site_pages s JOIN pages p ON p.id = s.page_id "
                               "WHERE s.site_id = ? ORDER BY s.url", (site_id,))
        return dict(rows.fetchall())

    def add_task(self, site_id: int, instruction: str, gold_answer: str, start_url: str, *, category: str = "",
                 normalisation: str = "exact") -> int:
        with self.writing() as db:
            cursor = db.execute("INSERT INTO tasks (site_id, instruction, category, gold_answer, normalisation, "
                                "start_url, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                (site_id, instruction, category, gold_answer, normalisation, start_url, now()))
            return int(cursor.lastrowid)

    def tasks(self, site_id: int | None = None) -> list[Task]:
        where, params = ("WHERE site_id = ?", (site_id,)) if site_id is not None else ("", ())
        rows = self.db.execute("SELECT id, site_id, instruction, category, gold_answer, normalisation, start_url "
                               f"FROM tasks {where} ORDER BY id", params)
        return [Task(*row) for row in rows]

    def add_agent_run(self, method: str, parameters: Mapping[str, object] | None = None) -> int:
        with self.writing() as db:
            cursor = db.execute("INSERT INTO agent_runs (method, parameters, started_at) VALUES (?, ?, ?)",
                                (method, dumps(dict(parameters or {})), now()))
            return int(cursor.lastrowid)

    def add_trajectory(self, task_id: int, actor: Provenance, steps: Sequence[Step], *,
                       agent_run_id: int | None = None, answer: str | None = None,
                       success: bool | None = None) -> int:
        """Store a whole trajectory and its steps in one transaction (a reference one when `agent_run_id` is
        None)."""
        bad = [s.action for s in steps if s.action not in STEP_ACTIONS]
        if bad:
            raise StoreError(f"unknown step action {bad[0]!r}; expected one of {', '.join(STEP_ACTIONS)}")
        at = now()
        started = steps[0].at if steps and steps[0].at else at
        with self.writing() as db:
            cursor = db.execute(
                "INSERT INTO trajectories (task_id, actor_id, agent_run_id, answer, success, started_at, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (task_id, self.provenance_id(actor), agent_run_id, answer, success, started, at))
            trajectory_id = int(cursor.lastrowid)
            for position, step in enumerate(steps, 1):
                db.execute("INSERT INTO steps (trajectory_id, position, action, target, value, url, screenshot, "
                           "thought, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           (trajectory_id, position, step.action, dumps(dict(step.target)), step.value, step.url,
                            step.screenshot, step.thought, step.at or at))
            return trajectory_id

    def steps(self, trajectory_id: int) -> list[Step]:
        rows = self.db.execute("SELECT action, url, target, value, screenshot, thought, at FROM steps "
                               "WHERE trajectory_id = ? ORDER BY position", (trajectory_id,))
        return [Step(action, url, json.loads(target), value, shot, thought, at)
                for action, url, target, value, shot, thought, at in rows]
