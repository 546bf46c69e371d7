"""The reference that counts, one rule everywhere (`references.choose_references`): the newest reference of the task's
current version that ends with an answer. A reference stopped before ANSWER (the agent window's ■ Stop: stored with
answer, success and stop NULL) used to become the task's newest and so its reference: agreement dropped from 1 to 0
unsaid, the tasks report counted its steps, and a file's reference was not stored beside it. A candidates file
holding a task the project has replaced since used to count the reference of the file's (earlier) version."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, save_candidates
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.tasks import task_digest
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project, open_project
from tests.demo_agent import RULES, SITE_DIR, demo_reference, stopped_reference
from tests.fake_gemini import FakeGemini, answer_with

EDITED = replace(RULES, answer="1,920")


def project_with(folder: Path, *references: Trajectory, runs: bool = True) -> None:
    """rules-1 with these references, oldest first, and a finished agent run following its demo reference."""
    with init_project(folder) as project:
        site = project.agent.site_id("demo-site", str(SITE_DIR))
        row = project.agent.save_task(site, RULES)
        for reference in references:
            project.agent.add_trajectory(row, reference)
        if runs:
            run = project.agent.add_run("scripted", {"site": "demo-site", "runs": 1, "task_ids": [RULES.id],
                                                     "task_digests": {RULES.id: task_digest(RULES)}})
            episode = replace(demo_reference(RULES.id), actor="agent:scripted", run=0, stop="answer")
            project.agent.add_trajectory(row, episode, agent_run_id=run)
            project.agent.finish_run(run)


def test_the_rule_takes_the_newest_of_this_version_that_ends_with_an_answer() -> None:
    from recordlens.core.agent.references import Reference, choose_references

    good = Reference(demo_reference(RULES.id), task_digest(RULES), 1)
    unfinished = Reference(stopped_reference(RULES.id), None, 2)
    earlier = Reference(demo_reference(RULES.id), task_digest(EDITED), 3)
    choice = choose_references([RULES], [good, unfinished, earlier])
    assert choice.counting == {RULES.id: good} and choice.unanswered == [RULES.id] and choice.earlier == []
    assert choice.counts(good) and not choice.counts(unfinished) and not choice.counts(earlier)
    alone = choose_references([RULES], [unfinished])
    assert alone.counting == {} and alone.unanswered == [RULES.id]
    later = choose_references([RULES], [unfinished, good])  # recorded again to its answer: nothing to say
    assert later.counting == {RULES.id: good} and later.unanswered == []
    assert choose_references([EDITED], [good]).earlier == [RULES.id]


def test_eval_compares_with_the_earlier_reference_that_ends_with_an_answer_and_names_the_unfinished_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    project_with(folder, demo_reference(RULES.id), stopped_reference(RULES.id))
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    result = json.loads(said.out)
    assert [e["agreement"] for e in result["episodes"]] == [1.0]  # was 0.0: compared with the stopped one
    assert result["unanswered_references"] == [RULES.id]
    assert (f"warning: reference of {RULES.id} recorded without an answer (stopped before ANSWER): not used; the "
            "task's earlier reference that ends with an answer is compared with") in said.err


def test_eval_with_only_an_unfinished_reference_has_no_agreement_and_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    project_with(folder, stopped_reference(RULES.id))
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    assert [e["agreement"] for e in json.loads(said.out)["episodes"]] == [None]
    assert f"warning: reference of {RULES.id} recorded without an answer (stopped before ANSWER): not used" in said.err


def test_the_report_counts_the_steps_of_the_reference_that_counts_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "p"
    project_with(folder, demo_reference(RULES.id), stopped_reference(RULES.id), runs=False)
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(folder), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert (table["total"]["gt_steps"], table["total"]["with_reference"]) == (len(demo_reference(RULES.id).steps), 1)
    assert table["unanswered_ids"] == [RULES.id] and table["without_reference_ids"] == []
    assert main(["agent", "tasks", "report", "--project", str(folder)]) == 0
    assert "have a newest reference recorded without an answer (kept, not used" in capsys.readouterr().out

    alone = tmp_path / "alone"
    project_with(alone, stopped_reference(RULES.id), runs=False)
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--project", str(alone), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert (table["total"]["gt_steps"], table["total"]["with_reference"]) == (0, 0)
    assert table["without_reference_ids"] == [RULES.id] and table["unanswered_ids"] == [RULES.id]


def test_agent_run_stores_a_files_reference_beside_an_unfinished_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    folder = tmp_path / "p"
    project_with(folder, stopped_reference(RULES.id), runs=False)
    references = tmp_path / "refs"
    references.mkdir()
    (references / f"{RULES.id}.json").write_text(demo_reference(RULES.id).to_json(), "utf-8")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps(RULES.as_dict()) + "\n", encoding="utf-8")
    capsys.readouterr()
    with FakeGemini(default=answer_with(lambda body: "Thought: a guess.\nAction: ANSWER; nobody")) as server:
        assert main(["agent", "run", "--project", str(folder), "--site", str(SITE_DIR), "--tasks", str(tasks), "--runs",
                     "1", "--browser", "text", "--base-url", server.url, "--references", str(references)]) == 0
    said = capsys.readouterr().err
    assert (f"stored the reference of {RULES.id} from {references}: the project's reference of it was recorded "
            "without an answer (kept, not used)") in said
    with open_project(folder) as project:
        assert [t.answer for _, t in project.agent.trajectories(reference=True)] == [None, "1,920"]


def test_a_candidates_files_earlier_version_counts_no_reference_the_project_no_longer_uses(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference was recorded for the file's version; the project replaced the task since (`--replace-tasks`):
    the report agrees with eval (an earlier version's reference, to record again) and says the versions differ."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        site = project.agent.site_id("demo-site", str(SITE_DIR))
        row = project.agent.save_task(site, RULES)
        project.agent.add_trajectory(row, demo_reference(RULES.id))
        project.agent.save_task(site, EDITED, replace=True)
    candidates = tmp_path / "candidates.jsonl"
    save_candidates(candidates, [Candidate(task=replace(RULES, site="demo-site"), model="m", status="accepted",
                                           evidence="x")])
    capsys.readouterr()
    assert main(["agent", "tasks", "report", "--candidates", str(candidates), "--project", str(folder), "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert (table["total"]["gt_steps"], table["total"]["with_reference"]) == (0, 0)
    assert table["other_version_ids"] == [RULES.id] and table["without_reference_ids"] == [RULES.id]
    assert table["differs_from_project_ids"] == [RULES.id]
    assert main(["agent", "tasks", "report", "--candidates", str(candidates), "--project", str(folder)]) == 0
    printed = capsys.readouterr().out
    assert "1 task(s) counted differ from the project's copy of them" in printed
    assert "have a reference recorded for another version of the task only" in printed


def test_the_report_of_a_file_as_the_project_holds_it_says_nothing_of_versions() -> None:
    from recordlens.core.agent.funnel import format_funnel, funnel
    from recordlens.core.agent.references import Reference

    task = Task(id="t", instruction="Q?", answer="a", category="c")
    table = funnel([Candidate(task=task, status="accepted", evidence="x")],
                   [Reference(Trajectory("t", "person:ana", answer="a"), task_digest(task), 1)],
                   current={("", "t"): task})
    assert table.total.with_reference == 1 and table.differs_from_project_ids == []
    assert "differ from the project's" not in format_funnel(table)
