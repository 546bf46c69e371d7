"""`agent run --resume` goes on with the run's own settings and seeds: an option given with it that differs from
the run's (--runs, --browser, --step-budget, --seed, --memory, ...) is refused, each named with what the run keeps,
before any request; one given the same as the run's is no conflict. A run made before a rule of the agent's loop
(its settings lack the rule's key) is not resumed under it: refused, naming the rules, before any request."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, agent_run, respond
from tests.fake_gemini import FakeGemini, answer_with


def resume(project: Path, server: FakeGemini, *extra: str) -> int:
    """`agent run --resume 1` of the demo's three tasks with only the options `extra` gives besides."""
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                 *tasks, "--base-url", server.url, "--resume", "1", *extra])


def run_cut_in_its_second_run(project: Path, server: FakeGemini) -> None:
    """Agent run 1 of the demo's three tasks, made with --runs 2 --browser text (the helper's), seed 0 and the
    default budget and memory, its request budget spent one request into run 1 (exit 3)."""
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    assert agent_run(project, server, "--max-requests", str(run0_requests + 1)) == 3


def test_a_resume_refuses_settings_other_than_the_runs_and_takes_the_same_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(respond)) as server:
        run_cut_in_its_second_run(project, server)
        server.requests.clear()
        capsys.readouterr()
        # (--browser qt is the app's: core's parser knows only text, so it is not among them here)
        assert resume(project, server, "--runs", "5", "--step-budget", "3", "--seed", "7", "--memory", "dynamic:2",
                      "--observation", "text") == 2
        said = capsys.readouterr().err
        assert server.requests == []  # refused before any request
        assert ("agent run 1 is resumed with its own settings and seeds, and these options differ from them: "
                "--memory dynamic:2 (the run keeps window:3); --runs 5 (the run keeps 2); --step-budget 3 (the run "
                "keeps 15); --seed 7 (the run keeps 0); --observation text (the "
                "run keeps the browser's default (no --observation)). Leave them out to finish run 1 as it began, "
                "or start a new run with them (`agent run` without --resume)") in said
        assert resume(project, server, "--temperature", "0.5") == 2
        assert "this option differs from them: --temperature 0.5 (the run keeps 1.0). Leave it out" in \
            capsys.readouterr().err

        # The run's own values given again (window:3 as the run names it, any spelling) are no conflict.
        assert resume(project, server, "--runs", "2", "--browser", "text", "--seed", "0", "--memory", "WINDOW:3",
                      "--step-budget", "15", "--temperature", "1") == 0
        assert {r.body["generationConfig"]["seed"] for r in server.requests} == {1}  # run 1's seed, kept


def test_a_run_made_before_the_loops_rules_is_not_resumed_under_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(respond)) as server:
        run_cut_in_its_second_run(project, server)
        with closing(sqlite3.connect(project / "project.db")) as conn, conn:  # as a run made before the two rules
            (text,) = conn.execute("SELECT parameters FROM agent_runs WHERE id = 1").fetchone()
            parameters = {key: value for key, value in json.loads(text).items()
                          if key not in ("counts_elements_out_of_view", "omits_labelled_field_from_label")}
            conn.execute("UPDATE agent_runs SET parameters = ? WHERE id = 1", (json.dumps(parameters),))
        server.requests.clear()
        capsys.readouterr()
        assert resume(project, server) == 2
        said = capsys.readouterr().err
        assert server.requests == []  # refused before any request
    assert ("agent run 1 was made before these rules of the agent's loop, which its settings do not record: "
            "counts_elements_out_of_view, omits_labelled_field_from_label (the README's agent section says what each "
            "does). Resuming it would run the 2 episodes left under them beside the 4 episodes finished without them "
            "(one run, two sets of rules). Start a new run (`agent run` without --resume, with the run's settings; "
            "--seed 0 sends the same seeds)") in said, said
