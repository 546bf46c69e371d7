"""A task id is a site's own: site A's t1 and site B's t1 are two tasks. The tasks report's lists of tasks (in its
notes and its JSON) used to hold bare ids, so with one id on two sites a reader could not tell which site's task was
left to record; worse, the notes compared bare ids, so site B's t1 with no reference was left out of "no reference
trajectory yet" when site A's t1 had one of another version. (A tasks or candidates file holds an id once: one id
on two sites is a project's, `--project` alone.)"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.evaluate import evaluate, shared_id_warnings
from recordlens.core.agent.funnel import format_funnel, funnel
from recordlens.core.agent.references import Reference
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project
from tests.demo_agent import RULES, SITE_DIR, demo_reference

A = replace(RULES, site="demo-site")
B = replace(RULES, site="other-site", answer="different")


def notes(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("note: ")]


def test_the_notes_of_a_report_over_two_sites_name_each_tasks_site() -> None:
    candidates = [Candidate(task=A, status="accepted"), Candidate(task=B, status="accepted")]
    earlier = Reference(demo_reference(RULES.id), "digest-of-an-earlier-version", 1, site="demo-site")
    table = funnel(candidates, [earlier])
    said = notes(format_funnel(table))
    # B's rules-1 has no reference at all: named as left to record, though A's rules-1 has one of another version.
    assert "note: 1 refined task(s) have no reference trajectory yet (not in the GT steps): rules-1 (site other-site)" \
        in said
    assert any("another version" in n and n.endswith("rules-1 (site demo-site); record them again") for n in said)
    assert table.without_reference == [("demo-site", RULES.id), ("other-site", RULES.id)]
    assert table.without_reference_ids == [RULES.id, RULES.id]  # the ids as before


def test_a_report_of_one_site_names_its_tasks_by_id_alone() -> None:
    table = funnel([Candidate(task=A, status="accepted")], [])
    assert notes(format_funnel(table))[-1].endswith("(not in the GT steps): rules-1")
    assert table.as_dict()["sites"] == ["demo-site"]


def test_the_json_gives_each_ids_site_beside_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    with init_project(folder) as project:
        row_a = project.agent.save_task(project.agent.site_id("demo-site", str(SITE_DIR)), A)
        project.agent.save_task(project.agent.site_id("other-site", str(tmp_path / "other-site")), B)
        project.agent.add_trajectory(row_a, demo_reference(RULES.id))
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(folder), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["without_reference_ids"] == [RULES.id]  # its meaning unchanged: ids
    assert table["without_reference_sites"] == ["other-site"]
    assert table["sites"] == ["demo-site", "other-site"]
    for name in ("answer_not_found", "other_version", "unanswered", "differs_from_project"):
        assert len(table[f"{name}_sites"]) == len(table[f"{name}_ids"])

    assert main(["agent", "tasks", "report", "--project", str(folder)]) == 0
    assert notes(capsys.readouterr().out)[-1].endswith("(not in the GT steps): rules-1 (site other-site)")



def test_eval_says_which_sites_task_an_id_on_two_sites_is_scored_against() -> None:
    """A run stored without its site is scored by every site's tasks: an episode of rules-1 was scored against one
    of the two sites' rules-1 unsaid."""
    episode = replace(demo_reference(RULES.id), actor="agent:m", run=0)
    result = evaluate([A, B], [episode])
    said = [w for w in result.warnings if "on 2 sites" in w]
    assert said == ["task id 'rules-1' is on 2 sites (demo-site, other-site) and nothing says which one's the run "
                    "used: its episodes are scored against site other-site's task and compared with that task's "
                    "reference"]
    assert result.episodes[0]["success"] is False  # other-site's answer, "different"
    assert not shared_id_warnings([A])
    assert not shared_id_warnings([A, B], {"lookup-1"})  # an id the run does not have is none of its business
    # told the episode's site (`agent eval` reads it from the project), it is scored by that site's task, unsaid
    told = evaluate([A, B], [episode], sites=["demo-site"])
    assert told.episodes[0]["success"] is True and not [w for w in told.warnings if "sites" in w]
