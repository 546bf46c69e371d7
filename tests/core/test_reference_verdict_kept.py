"""A reference recorded for an earlier version of its task keeps the verdict of its own version: `--replace-tasks`
judges the run's episodes again by the new task (they are scored by it), but a reference of the old version answered
another question, and judging it against the new gold answer stored a false "does NOT match" for it."""

from __future__ import annotations

from dataclasses import replace

from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.model import Trajectory
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import init_project

RULES = next(t for t in DEMO_TASKS if t.id == "rules-1")


def test_replacing_a_task_keeps_the_verdict_of_a_reference_of_its_earlier_version(tmp_path) -> None:
    reference = Trajectory.from_json(resource_path("agent", "reference", "rules-1.json").read_text("utf-8"))
    with init_project(tmp_path / "p") as project:
        site = project.agent.site_id("demo-site")
        row = project.agent.save_task(site, RULES)
        project.agent.add_trajectory(row, replace(reference, success=True))
        run = project.agent.add_run("scripted", {"site": "demo-site"})
        project.agent.add_trajectory(row, replace(reference, actor="agent:m", run=0, success=True), agent_run_id=run)
        project.agent.save_task(site, replace(RULES, answer="1,921"), replace=True)  # `agent run --replace-tasks`
        (_, kept), = project.agent.trajectories(reference=True)
        (_, episode), = project.agent.trajectories(agent_run_id=run)
    assert episode.success is False  # the run is scored by the task as it is now
    assert kept.success is True      # the reference keeps its own version's verdict
