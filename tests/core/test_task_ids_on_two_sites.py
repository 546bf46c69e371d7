"""A task id is a site's own: site A's t1 and site B's t1 are two tasks. The tasks report (`funnel`) used to take
the references and the project's copies of the tasks by id alone, so site A's t1 was judged against site B's version
(its reference set aside as one of an earlier version) and counted no reference."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.funnel import funnel
from recordlens.core.agent.references import Reference
from recordlens.core.agent.tasks import task_digest
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project
from tests.demo_agent import RULES, SITE_DIR, demo_reference

A = replace(RULES, site="demo-site")
B = replace(RULES, site="other-site", answer="different")


def test_the_same_id_on_two_sites_is_counted_per_site() -> None:
    candidates = [Candidate(task=A, status="accepted"), Candidate(task=B, status="accepted")]
    ref_a = Reference(demo_reference(RULES.id), task_digest(A), 1, site="demo-site")
    table = funnel(candidates, [ref_a], current={})
    assert table.total.with_reference == 1  # A's, counted; B's t1 has none
    assert table.other_version_ids == [] and table.differs_from_project_ids == []
    assert table.without_reference_ids == [RULES.id]  # B's

    # The project's copies are a site's own too: B's copy does not make A's differ.
    both = funnel(candidates, [ref_a], current={("demo-site", A.id): A, ("other-site", B.id): B})
    assert both.total.with_reference == 1 and both.differs_from_project_ids == []


def test_the_tasks_report_of_a_project_with_one_id_on_two_sites(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    with init_project(folder) as project:
        site_a = project.agent.site_id("demo-site", str(SITE_DIR))
        site_b = project.agent.site_id("other-site", str(tmp_path / "other-site"))
        row_a = project.agent.save_task(site_a, A)
        project.agent.save_task(site_b, B)
        project.agent.add_trajectory(row_a, demo_reference(RULES.id))
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(folder), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["total"]["with_reference"] == 1
    assert table["total"]["gt_steps"] == len(demo_reference(RULES.id).steps)
    assert table["other_version_ids"] == [] and table["differs_from_project_ids"] == []
