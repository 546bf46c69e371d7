"""What `agent run` and `agent eval` leave out is said truly: a --references file that ends without an answer is a
file of the folder, not a reference "kept in the project" (the project may hold none); the references of the file's
tasks that this run does not run (--task) are named as not stored; and a page whose tree site.json names but that is
gone is warned of once, before the run, when the agent is to observe trees (its prompt said "none stored" unwarned)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.demo_agent import REFERENCES, SITE_DIR, TASKS_FILE, demo_site_with_trees, respond, stopped_reference
from tests.fake_gemini import FakeGemini, answer, answer_with


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def run_lookup(project: Path, *extra: str) -> int:
    with FakeGemini(default=answer_with(respond)) as server:
        return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", server.url, *extra])


def test_eval_says_a_references_file_without_an_answer_is_the_folders_not_the_projects(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_lookup(tmp_path / "p") == 0
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "lookup-1.json").write_text(stopped_reference("lookup-1").to_json(), encoding="utf-8")
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(tmp_path / "p"), "--references", str(folder), "--json"]) == 0
    said = capsys.readouterr()
    assert json.loads(said.out)["unanswered_references"] == ["lookup-1"]
    assert ("warning: the --references file of lookup-1 ends without an answer (stopped before ANSWER): not used, and "
            "the project holds no reference of the task that ends with one; record it again to the answer (no "
            "agreement meanwhile)") in said.err
    assert "kept in the project" not in said.err


def test_a_run_of_some_tasks_names_the_references_of_the_others_it_does_not_store(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "refs"
    folder.mkdir()
    for task_id in ("lookup-1", "rules-1", "lookup-2"):
        (folder / f"{task_id}.json").write_text(REFERENCES[task_id].to_json(), encoding="utf-8")
    assert run_lookup(tmp_path / "p", "--references", str(folder)) == 0
    err = capsys.readouterr().err
    assert f"stored 1 reference from {folder}: lookup-1" in err
    assert (f"the references of lookup-2, rules-1 in {folder} are not stored: their tasks are not in this run (a run "
            "of them with --references stores them)") in err


def test_a_tree_site_json_names_but_that_is_gone_is_warned_of_once_before_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "site"
    site = demo_site_with_trees(folder)
    start = next(p for p in site.pages if p.url == "https://papers.example.org/")
    (folder / str(start.side_file("axtree"))).unlink()  # deleted by hand after `site build`
    capsys.readouterr()
    with FakeGemini(default=answer("Action: Scroll [WINDOW]; down")) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(folder), "--tasks",
                     str(TASKS_FILE), "--task", "lookup-1", "--runs", "1", "--step-budget", "2", "--browser", "text",
                     "--observation", "axtree", "--base-url", server.url])
    err = capsys.readouterr().err
    assert code == 0
    warned = [line for line in err.splitlines() if line.startswith("warning: --observation axtree:")]
    assert warned == [f"warning: --observation axtree: https://papers.example.org/: its tree "
                      f"{start.side_file('axtree')} is gone from the folder, so the agent is shown no tree on that "
                      "page (its prompt says none is stored); run the same `site capture` again to capture it again"]
    assert err.index("warning: --observation axtree:") < err.index("run 0 lookup-1")
