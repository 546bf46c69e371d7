"""Two versions of a task are never counted as one: the funnel counts a reference only for the version of the task
it was recorded for, and `agent run --resume` refuses to finish a run whose tasks changed since it began while
episodes of them are left to run (it would mix the two versions in one run)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.funnel import HAND_MADE, format_funnel, funnel
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with

# --- the funnel: a reference of another version of a task ---------------------------------------------------------

TASK = Task(id="lookup-1", instruction="Who wrote the halting paper?", answer="Ilse Marrow", category="lookup",
            start_url="https://papers.example.org/")
OTHER = Task(id="rules-1", instruction="Which licence?", answer="CC BY 4.0", category="rules",
             start_url="https://papers.example.org/")


def reference(task: Task, steps: int) -> Trajectory:
    return Trajectory(task_id=task.id, actor="person:ana", answer=task.answer,
                      steps=[Step(action="wait", url=task.start_url)] * (steps - 1)
                      + [Step(action="answer", value=task.answer, url=task.start_url)])


def test_a_reference_recorded_for_another_version_of_the_task_is_not_counted_and_the_task_is_left_to_record():
    edited = replace(TASK, answer="I. Marrow")  # the task as it is now (edited at review after the recording)
    candidates = [Candidate(task=edited, model=HAND_MADE, status="accepted"),
                  Candidate(task=OTHER, model=HAND_MADE, status="accepted")]
    references = {TASK.id: reference(TASK, 4), OTHER.id: reference(OTHER, 3)}
    table = funnel(candidates, references, recorded_for={TASK.id: TASK, OTHER.id: OTHER})
    assert (table.total.gt_steps, table.total.with_reference) == (3, 1)  # rules-1's alone
    assert table.without_reference_ids == [TASK.id] and table.other_version_ids == [TASK.id]
    assert table.as_dict()["other_version_ids"] == [TASK.id]
    assert table.as_dict()["without_reference_ids"] == [TASK.id]
    printed = format_funnel(table)
    assert ("note: 1 refined task(s) have a reference recorded for another version of the task only (the task was "
            "edited since; not in the GT steps): lookup-1; record them again") in printed
    assert "have no reference trajectory yet" not in printed  # it has one: of another version

    # The same version (the site and id aside) counts; a reference whose version is not known (a file) counts.
    same = funnel(candidates, references, recorded_for={TASK.id: replace(edited, site="demo-site")})
    unknown = funnel(candidates, references)
    for table in (same, unknown):
        assert (table.total.gt_steps, table.total.with_reference) == (7, 2)
        assert table.without_reference_ids == [] and table.other_version_ids == []


# --- agent run --resume after --replace-tasks -----------------------------------------------------------------------



@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


@pytest.fixture
def endpoint() -> FakeGemini:
    with FakeGemini(default=answer_with(respond)) as server:
        yield server


def agent_run(project: Path, server: FakeGemini, tasks: Path, *extra: str) -> int:
    chosen = [arg for t in TASK_IDS for arg in ("--task", t)]
    return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks), *chosen,
                 "--runs", "2", "--browser", "text", "--base-url", server.url, *extra])


def changed_tasks_file(folder: Path, task_id: str) -> Path:
    lines = []
    for line in TASKS_FILE.read_text("utf-8").splitlines():
        task = json.loads(line)
        if task["id"] == task_id:
            task["answer"] = "a different gold answer"
        lines.append(json.dumps(task))
    path = folder / f"tasks-{task_id}.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def gold(project: Path, task_id: str) -> str:
    with open_project(project) as opened:
        return {t.id: t.answer for t in opened.agent.tasks()}[task_id]


def test_a_resume_never_runs_a_changed_task_beside_its_finished_episodes_of_the_old_version(
        tmp_path: Path, endpoint: FakeGemini, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    # Cut in run 1: lookup-1 answered, lookup-2 cut by the budget, rules-1 not run (run 0 finished all three).
    assert agent_run(project, endpoint, TASKS_FILE, "--max-requests", str(run0_requests + 1)) == 3
    changed = changed_tasks_file(tmp_path, "lookup-2")
    for extra in ((), ("--replace-tasks",)):
        endpoint.requests.clear()
        capsys.readouterr()
        assert agent_run(project, endpoint, changed, "--resume", "1", *extra) == 2
        said = capsys.readouterr().err
        assert endpoint.requests == []  # refused before any request
        assert (f"agent run 1 began task(s) lookup-2 as they were then, and {changed} holds them changed: resuming "
                "it would run the 1 episode left of them on the new version beside those finished on the old") in said
        assert "Start a new run for the tasks as they are now" in said and "--seed 0 sends the same seeds" in said
        assert "or finish run 1 as it began: --resume with a tasks file holding them as they were" in said
        assert gold(project, "lookup-2") != "a different gold answer"  # nothing stored: the project is as it was

    # Finished with the tasks as it began them, the run is one version of each task.
    assert agent_run(project, endpoint, TASKS_FILE, "--resume", "1") == 0


def test_a_task_replaced_by_a_later_run_is_named_and_a_changed_task_with_nothing_left_is_allowed(
        tmp_path: Path, endpoint: FakeGemini, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    assert agent_run(project, endpoint, TASKS_FILE, "--max-requests", str(run0_requests + 1)) == 3
    changed = changed_tasks_file(tmp_path, "lookup-2")
    assert agent_run(project, endpoint, changed, "--replace-tasks", "--runs", "1") == 0  # run 2, on the new version
    assert gold(project, "lookup-2") == "a different gold answer"
    capsys.readouterr()
    assert agent_run(project, endpoint, changed, "--resume", "1") == 2
    said = capsys.readouterr().err
    assert ("the project's copy of lookup-2 was replaced since (--replace-tasks): finishing run 1 as it began would "
            "replace it back and re-score the runs made since") in said

    # lookup-1 changed too, but all its episodes of run 1 are finished: resuming runs nothing of it, and is allowed.
    other = tmp_path / "p2"
    assert agent_run(other, endpoint, TASKS_FILE, "--max-requests", str(run0_requests + 1)) == 3
    endpoint.requests.clear()
    capsys.readouterr()
    assert agent_run(other, endpoint, changed_tasks_file(tmp_path, "lookup-1"), "--resume", "1",
                     "--replace-tasks") == 0
    closing = capsys.readouterr().out
    assert {r.body["generationConfig"]["seed"] for r in endpoint.requests} == {1}  # run 1's lookup-2 and rules-1
    assert main(["agent", "eval", "--project", str(other), "--run", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["complete"] and report["changed_tasks"] == ["lookup-1"]
    # The closing line counts the replaced task's finished episodes as judged again, as agent eval does.
    succeeded = sum(e["success"] for e in report["episodes"])
    assert succeeded == 2 and f"agent run 1: {succeeded} of 6 episodes succeeded" in closing


def test_the_report_counts_no_project_reference_of_another_version_of_a_task(tmp_path: Path, capsys) -> None:
    from recordlens.core.agent.tasks import load_tasks, save_tasks
    from recordlens.core.store.project import init_project

    tasks = load_tasks(TASKS_FILE)
    project = init_project(tmp_path / "p")
    try:
        site = project.agent.site_id("demo-site", str(SITE_DIR))
        for ident in ("lookup-1", "rules-1"):
            row = project.agent.save_task(site, next(t for t in tasks if t.id == ident))
            project.agent.add_trajectory(row, REFERENCES[ident])
    finally:
        project.close()
    edited = tmp_path / "tasks.jsonl"
    save_tasks(edited, [replace(t, answer="another answer") if t.id == "lookup-1" else t for t in tasks])
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--tasks", str(edited), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert table["total"]["with_reference"] == 1 and table["other_version_ids"] == ["lookup-1"]
    assert "lookup-1" in table["without_reference_ids"]
    assert main(["agent", "tasks", "report", "--project", str(tmp_path / "p"), "--tasks", str(TASKS_FILE),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"]["with_reference"] == 2  # the same version counts
