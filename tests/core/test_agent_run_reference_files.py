"""`agent run --references FOLDER` and the project's own references, now that a project keeps the version of its
task each reference was recorded for (schema 9). The reference a task has is its newest, when recorded for the task
as it is now (`agent eval`, the tasks report and the viewer all say so): a file's reference of a task whose
project reference is of an earlier version is stored for the task as it is now, and said; one of a task whose
project reference is of this version is not stored, and said. Each used to be left out without a word whenever the
project held any reference of the task, so an edited task lost its reference for good."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.model import Trajectory
from recordlens.core.agent.tasks import load_tasks, task_digest
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project, open_project
from tests.demo_agent import REFERENCES, SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

TASKS = {json.loads(line)["id"]: json.loads(line) for line in TASKS_FILE.read_text("utf-8").splitlines() if line}
EDITED = {**TASKS["lookup-1"], "category": TASKS["lookup-1"]["category"] + "-edited"}  # the agent sees the same


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def tasks_file(folder: Path, *tasks: dict) -> Path:
    path = folder / "tasks.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    return path


def references_folder(folder: Path, *task_ids: str, actor: str = "person:file") -> Path:
    folder.mkdir()
    for task_id in task_ids:
        (folder / f"{task_id}.json").write_text(replace(REFERENCES[task_id], actor=actor).to_json(), "utf-8")
    return folder


def with_answer(trajectory: Trajectory, answer: str) -> Trajectory:
    """The same path ending on another answer."""
    last = replace(trajectory.steps[-1], value=answer)
    return replace(trajectory, answer=answer, steps=[*trajectory.steps[:-1], last])


def project_with_references(folder: Path) -> None:
    """lookup-1 and rules-1 each with a person's reference, recorded for the tasks as the demo file has them."""
    demo = {t.id: t for t in load_tasks(TASKS_FILE)}
    with init_project(folder) as project:
        site = project.agent.site_id("demo-site", str(SITE_DIR))
        for task_id in ("lookup-1", "rules-1"):
            row = project.agent.save_task(site, demo[task_id])
            project.agent.add_trajectory(row, replace(REFERENCES[task_id], actor="person:ana"))


def agent_run(project: Path, tasks: Path, references: Path, *task_ids: str) -> int:
    chosen = [arg for t in task_ids for arg in ("--task", t)]
    with FakeGemini(default=answer_with(respond)) as server:
        return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks),
                     *chosen, "--runs", "1", "--seed", "0", "--browser", "text", "--base-url", server.url,
                     "--references", str(references)])


def test_a_files_reference_of_an_edited_task_is_stored_for_the_task_as_it_is_now_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    project_with_references(project)
    references = references_folder(tmp_path / "refs", "lookup-1")
    capsys.readouterr()
    # lookup-1 edited since its reference was recorded (the project has no run yet: saved without --replace-tasks)
    assert agent_run(project, tasks_file(tmp_path, EDITED), references, "lookup-1") == 0
    said = capsys.readouterr().err
    assert (f"stored the reference of lookup-1 from {references} for the task as it is now: the project's reference "
            "of it was recorded for an earlier version of the task") in said
    with open_project(project) as opened:
        stored = opened.agent.trajectories(reference=True, task_id="lookup-1")
        assert [t.actor for _, t in stored] == ["person:ana", "person:file"]
        edited = next(t for t in opened.agent.tasks() if t.id == "lookup-1")
        assert opened.agent.recorded_versions()[stored[-1][0]] == task_digest(edited)
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--json"]) == 0
    result = capsys.readouterr()
    assert json.loads(result.out)["earlier_version_references"] == []
    assert [e["agreement"] for e in json.loads(result.out)["episodes"]] == [1.0]  # compared with the file's
    assert "earlier version" not in result.err


def test_a_files_reference_of_a_task_with_a_reference_of_this_version_is_not_stored_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    project_with_references(project)
    references = references_folder(tmp_path / "refs", "lookup-1", "rules-1", "lookup-2")
    # the file's rules-1 ends on another answer than ana's (one with her very steps would be hers, already stored)
    (references / "rules-1.json").write_text(with_answer(REFERENCES["rules-1"], "1920 papers").to_json(), "utf-8")
    capsys.readouterr()
    tasks = tasks_file(tmp_path, EDITED, TASKS["rules-1"], TASKS["lookup-2"])
    assert agent_run(project, tasks, references, "lookup-1", "rules-1", "lookup-2") == 0
    said = capsys.readouterr().err
    assert f"stored 1 reference from {references}: lookup-2" in said  # the project had none of it
    assert f"stored the reference of lookup-1 from {references} for the task as it is now" in said
    assert (f"warning: the reference of rules-1 in {references} is not stored: the project holds one of the task as "
            "it is now, the one agent eval compares with") in said
    with open_project(project) as opened:
        actors = {}
        for _, t in opened.agent.trajectories(reference=True):
            actors.setdefault(t.task_id, []).append(t.actor)
    assert actors == {"lookup-1": ["person:ana", "person:file"], "rules-1": ["person:ana"],
                      "lookup-2": ["person:file"]}

    # Run again with the same folder: lookup-1's and lookup-2's are the ones stored from it, rules-1's still differs.
    capsys.readouterr()
    assert agent_run(project, tasks, references, "lookup-1", "rules-1", "lookup-2") == 0
    said = capsys.readouterr().err
    assert not [line for line in said.splitlines() if line.startswith("stored")]
    assert said.count("not stored") == 1
    assert (f"warning: the reference of rules-1 in {references} is not stored: the project holds one of the task as "
            "it is now") in said
    assert f"the project already holds the references of lookup-1, lookup-2 in {references}\n" in said
    assert not [line for line in said.splitlines() if "warning" in line and "lookup-" in line]


def test_a_folder_given_again_is_already_stored_and_only_a_changed_files_reference_is_warned_about(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    references = references_folder(tmp_path / "refs", "lookup-1", "rules-1", "lookup-2")
    tasks = tasks_file(tmp_path, TASKS["lookup-1"], TASKS["rules-1"], TASKS["lookup-2"])
    assert agent_run(project, tasks, references, "lookup-1", "rules-1", "lookup-2") == 0
    assert f"stored 3 references from {references}: lookup-1, rules-1, lookup-2" in capsys.readouterr().err

    # The same folder again: its references are the project's, nothing to warn about
    assert agent_run(project, tasks, references, "lookup-1", "rules-1", "lookup-2") == 0
    said = capsys.readouterr().err
    assert "warning" not in said
    assert "not stored" not in said
    assert f"the project already holds the references of lookup-1, rules-1, lookup-2 in {references}\n" in said

    # One file's answer changed since: that task alone is warned about, and the project's reference stays
    (references / "rules-1.json").write_text(replace(with_answer(REFERENCES["rules-1"], "1920 papers"),
                                                     actor="person:file").to_json(), "utf-8")
    assert agent_run(project, tasks, references, "lookup-1", "rules-1", "lookup-2") == 0
    said = capsys.readouterr().err
    warnings = [line for line in said.splitlines() if line.startswith("warning")]
    assert len(warnings) == 1 and warnings[0].startswith(
        f"warning: the reference of rules-1 in {references} is not stored: the project holds one of the task as it "
        "is now")
    assert f"the project already holds the references of lookup-1, lookup-2 in {references}\n" in said
    with open_project(project) as opened:
        stored = opened.agent.trajectories(reference=True, task_id="rules-1")
    assert [t.answer for _, t in stored] == ["1,920"]
