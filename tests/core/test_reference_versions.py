"""A trajectory remembers the version of its task it was stored for (schema 9: `trajectories.task_digest`), so that a
reference recorded before its task was changed (`agent run --replace-tasks`, a task saved again from the agent
window) no longer counts as the task's reference: not in `agent eval`'s agreement, not in `agent tasks report`'s GT
steps. A trajectory stored before versions were kept (a schema-8 project) counts as it did."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.demo.tasks import DEMO_TASKS
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.tasks import task_digest
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import init_project, open_project
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.old_projects import old_project
from tests.fake_gemini import FakeGemini, answer_with

SITE = resource_path("agent", "demo-site")
TASKS = {t.id: t for t in DEMO_TASKS}
LOOKUP, RULES = TASKS["lookup-1"], TASKS["rules-1"]
EDITED = replace(LOOKUP, instruction=LOOKUP.instruction + " Give the name as the paper's page writes it.")


def demo_reference(task_id: str) -> Trajectory:
    return Trajectory.from_json(resource_path("agent", "reference", f"{task_id}.json").read_text("utf-8"))


def episode_of(task: Task, run: int = 0) -> Trajectory:
    """An agent episode that follows the task's reference step for step."""
    return replace(demo_reference(task.id), actor="agent:scripted", run=run, stop="answer")



def test_every_new_trajectory_is_stored_with_its_tasks_version_and_a_changed_task_leaves_it_earlier(
        tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        site = project.agent.site_id("demo-site", str(SITE))
        row = project.agent.save_task(site, LOOKUP)
        reference = project.agent.add_trajectory(row, demo_reference("lookup-1"))
        run = project.agent.add_run("scripted", {"site": "demo-site"})
        episode = project.agent.add_trajectory(row, episode_of(LOOKUP), agent_run_id=run)
        assert project.agent.recorded_versions() == {reference: task_digest(LOOKUP), episode: task_digest(LOOKUP)}
        assert project.agent.earlier_versions() == set()

        project.agent.save_task(site, EDITED, replace=True)  # `agent run --replace-tasks`
        again = project.agent.add_trajectory(row, demo_reference("lookup-1"))
        assert project.agent.recorded_versions()[again] == task_digest(EDITED)
        assert project.agent.earlier_versions() == {reference, episode}


def test_an_agent_runs_episodes_are_stored_with_the_versions_the_run_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One digest for one thing: the episodes' versions are the run's own `task_digests`."""
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    folder = tmp_path / "p"
    with FakeGemini(default=answer_with(lambda body: "Thought: a guess.\nAction: ANSWER; nobody")) as server:
        assert main(["agent", "run", "--project", str(folder), "--site", str(SITE), "--tasks",
                     str(resource_path("agent", "demo-tasks.jsonl")), "--task", "lookup-1", "--task", "rules-1",
                     "--runs", "1", "--browser", "text", "--base-url", server.url]) == 0
    with open_project(folder) as project:
        (run,) = project.agent.runs()
        versions = project.agent.recorded_versions()
        stored = {t.task_id: versions[row] for row, t in project.agent.trajectories(agent_run_id=run.id)}
        assert stored == run.parameters["task_digests"] == {t: task_digest(TASKS[t]) for t in ("lookup-1", "rules-1")}


def test_a_schema_8_project_opens_with_its_trajectories_recorded_before_versions_were_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = old_project(
        tmp_path / "v8", 8, "INSERT INTO sites (name, created_at) VALUES ('demo-site', 't')",
        "INSERT INTO provenances (kind, name) VALUES ('person', 'ana')",
        "INSERT INTO tasks (site_id, external_id, instruction, gold_answer, normalisation, start_url, created_at) "
        "VALUES (1, 'lookup-1', 'Who?', 'Ilse Marrow', '[]', 'https://a.org/', 't')",
        "INSERT INTO trajectories (task_id, actor_id, answer, started_at) VALUES (1, 1, 'Ilse Marrow', 't')",
        "INSERT INTO steps (trajectory_id, position, action, value, url, at) "
        "VALUES (1, 1, 'answer', 'Ilse Marrow', 'https://a.org/', 't')")
    assert main(["agent", "tasks", "report", "--project", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    assert SCHEMA_VERSION == 12
    # a report only reads: the project is read as it is, and left so
    assert "project of an earlier RecordLens (schema 8), read as it is and left as it was" in said.err
    assert not (folder / "removed").exists()
    # Recorded before versions were kept: it counts, as it did, and says nothing of another version.
    table = json.loads(said.out)
    assert table["total"]["with_reference"] == 1 and table["other_version_ids"] == []
    with open_project(folder) as project:
        assert project.schema_version() == SCHEMA_VERSION
        assert project.agent.recorded_versions() == {1: None} and project.agent.earlier_versions() == set()
        # A trajectory stored from now on is stored with its version.
        new = project.agent.add_trajectory(project.agent.task_row_id("lookup-1"), demo_reference("lookup-1"))
        (task,) = project.agent.tasks()
        assert project.agent.recorded_versions()[new] == task_digest(task)


RULES_STEPS = demo_reference("rules-1").steps


def report(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(project), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_report_counts_no_reference_recorded_before_the_projects_own_edit_of_its_task(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    with init_project(folder) as project:
        site = project.agent.site_id("demo-site", str(SITE))
        for task in (LOOKUP, RULES):
            project.agent.add_trajectory(project.agent.save_task(site, task), demo_reference(task.id))
        project.agent.save_task(site, EDITED, replace=True)  # the project's own copy changed since
    tasks_file = tmp_path / "tasks.jsonl"
    tasks_file.write_text("".join(json.dumps(t.as_dict()) + "\n" for t in (EDITED, RULES)), encoding="utf-8")
    for extra in ((), ("--tasks", str(tasks_file))):  # the project's tasks, or a file of them as they are now
        table = report(folder, capsys, *extra)
        assert (table["total"]["with_reference"], table["total"]["gt_steps"]) == (1, len(RULES_STEPS))
        assert table["other_version_ids"] == ["lookup-1"] and table["without_reference_ids"] == ["lookup-1"]

    with open_project(folder) as project:  # recorded again for the task as it is now: it counts
        project.agent.add_trajectory(project.agent.task_row_id("lookup-1"), demo_reference("lookup-1"))
    table = report(folder, capsys)
    assert table["total"]["with_reference"] == 2 and table["other_version_ids"] == []


def an_evaluated_project(folder: Path) -> None:
    """lookup-1's reference recorded, then the task replaced, then a run on the new version; rules-1 as it was."""
    with init_project(folder) as project:
        site = project.agent.site_id("demo-site", str(SITE))
        rows = {t.id: project.agent.save_task(site, t) for t in (LOOKUP, RULES)}
        for task_id, row in rows.items():
            project.agent.add_trajectory(row, demo_reference(task_id))
        project.agent.save_task(site, EDITED, replace=True)
        tasks = (EDITED, RULES)
        run = project.agent.add_run("scripted", {"site": "demo-site", "runs": 1, "task_ids": [t.id for t in tasks],
                                                 "task_digests": {t.id: task_digest(t) for t in tasks}})
        for task in tasks:
            project.agent.add_trajectory(rows[task.id], episode_of(task), agent_run_id=run)
        project.agent.finish_run(run)


def test_eval_compares_no_episode_with_a_reference_of_an_earlier_version_of_its_task(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    an_evaluated_project(folder)
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    result = json.loads(said.out)
    agreements = {e["task"]: e["agreement"] for e in result["episodes"]}
    assert agreements == {"lookup-1": None, "rules-1": 1.0}
    assert result["earlier_version_references"] == ["lookup-1"]
    assert (result["overall"]["agreement_tasks"], result["overall"]["tasks"]) == (1, 2)
    assert ("warning: reference of lookup-1 recorded for an earlier version of the task: record it again (no episode "
            "is compared with it: no agreement)") in said.err

    # A references folder's version is not known: compared with, as before.
    references = tmp_path / "refs"
    references.mkdir()
    (references / "lookup-1.json").write_text(demo_reference("lookup-1").to_json(), encoding="utf-8")
    assert main(["agent", "eval", "--project", str(folder), "--json", "--references", str(references)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {e["task"]: e["agreement"] for e in result["episodes"]} == {"lookup-1": 1.0, "rules-1": 1.0}
    assert result["earlier_version_references"] == []

    with open_project(folder) as project:  # recorded again: compared with again
        project.agent.add_trajectory(project.agent.task_row_id("lookup-1"), demo_reference("lookup-1"))
    assert main(["agent", "eval", "--project", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    assert {e["task"]: e["agreement"] for e in json.loads(said.out)["episodes"]} == {"lookup-1": 1.0, "rules-1": 1.0}
    assert "earlier version" not in said.err


def test_eval_names_every_task_whose_reference_is_of_an_earlier_version() -> None:
    from recordlens.core.agent.evaluate import evaluate

    tasks = [EDITED, replace(RULES, answer="1,920")]
    references = {t: demo_reference(t) for t in ("lookup-1", "rules-1")}
    result = evaluate(tasks, [episode_of(t) for t in tasks], references,
                      recorded_for={"lookup-1": task_digest(LOOKUP), "rules-1": task_digest(RULES)})
    assert result.earlier_version_references == ["lookup-1", "rules-1"]
    assert ("references of lookup-1, rules-1 recorded for an earlier version of their tasks: record them again (no "
            "episode is compared with them: no agreement)") in result.warnings
    assert not any("answers otherwise than the gold answer" in w for w in result.warnings)  # its version explains it
    unknown = evaluate(tasks, [episode_of(t) for t in tasks], references)  # versions not known: compared with
    assert unknown.earlier_version_references == [] and unknown.overall.agreement == 1.0
