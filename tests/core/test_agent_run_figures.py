"""The figures `agent run` and `agent eval` give, checked by hand: a run is scored by its own site's tasks (one task
id on two sites is two tasks), a resumed or interrupted run's stored cost covers all it did and a cut episode's
model calls are kept, a run records its tasks' digests and eval names those changed since, the closing line counts
what is scored, per-run rates are keyed and labelled by run index, a failed run is said failed, figures round one
way, and the chart marks an agreement taken over only some tasks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent import evaluate as evaluate_module
from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import RunPlan, agreement_mark, evaluate, format_table, write_chart
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.charts import draw_grouped_bars
from recordlens.core.store.project import init_project, open_project
from tests.fake_gemini import FakeGemini, answer_with, status

SITE_DIR = resource_path("agent", "demo-site")
TASKS_FILE = resource_path("agent", "demo-tasks.jsonl")
TASK_IDS = ("lookup-1", "rules-1", "lookup-2")


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def guess(body: dict) -> str:
    return "Thought: a guess.\nAction: ANSWER; nobody"  # one request an episode, never right


def agent_run(project: Path, server: FakeGemini, *extra: str, tasks: Path = TASKS_FILE) -> int:
    chosen = [arg for t in TASK_IDS for arg in ("--task", t)]
    return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks),
                 *chosen, "--runs", "2", "--browser", "text", "--base-url", server.url, *extra])


def agent_eval(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


# --- 1: one task id on two sites ------------------------------------------------------------------------------

def stored_run(project, site: str, gold: str, answered: str) -> int:  # noqa: ANN001 - a Project
    """A finished run of one episode of task L1 on `site` (whose gold answer is `gold`)."""
    row = project.agent.save_task(project.agent.site_id(site), Task("L1", "Where?", gold, category="lookup",
                                                                     normalise=("case",), start_url="https://s/"))
    run = project.agent.add_run("m", {"site": site, "task_ids": ["L1"], "runs": 1})
    project.agent.add_trajectory(row, Trajectory("L1", "agent:m", [Step("answer", None, answered, "https://s/")],
                                                 answer=answered, run=0, stop="answer"), agent_run_id=run)
    project.agent.finish_run(run, {"requests": 1, "tokens": 10})
    return row


def test_each_run_is_scored_by_the_tasks_and_references_of_its_own_site(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with init_project(tmp_path / "p") as project:
        stored_run(project, "demo-site", "Harbour", "harbour")
        other = stored_run(project, "site2", "Quay", "quay")
        # site2's reference of its own L1 answers Quay: against demo-site's gold it would be "astray"
        project.agent.add_trajectory(other, Trajectory("L1", "person:ana", [Step("answer", None, "Quay", "https://s/")],
                                                       answer="Quay"))
        lone = project.agent.save_task(project.agent.site_id("site2"), Task("L9", "Why?", "X", start_url="https://s/"))
        project.agent.add_trajectory(lone, Trajectory("L9", "person:ana", [Step("answer", None, "Y", "https://s/")],
                                                      answer="Y"))  # a reference astray, of a task run 2 never ran
    first = agent_eval(tmp_path / "p", capsys, "--run", "1")
    assert first["overall"]["success_rate"] == 1.0 and first["episodes"][0]["success"] is True
    assert first["overall"]["agreement"] is None and not any("answers otherwise" in w for w in first["warnings"])
    second = agent_eval(tmp_path / "p", capsys, "--run", "2")
    assert second["overall"]["success_rate"] == 1.0 and second["overall"]["agreement"] == 1.0
    assert not any("answers otherwise" in w for w in second["warnings"]), second["warnings"]  # L9 is not run 2's


# --- 2 and 5: cost over a resume and an interruption, a cut episode's calls kept, the closing line -------------

def test_a_resumed_run_costs_all_its_sessions_and_keeps_the_cut_episodes_model_calls(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(guess)) as server:
        assert agent_run(project, server, "--max-requests", "4") == 3  # the fifth episode is cut, the sixth not run
        assert "agent run 1: 0 of 4 scored episodes succeeded (1 cut, 1 not run)" in capsys.readouterr().out
        assert agent_run(project, server, "--resume", "1") == 0
        assert "agent run 1: 0 of 6 episodes succeeded (0 of 2 run now)" in capsys.readouterr().out
        sent = len(server.requests)
    assert sent == 6
    with open_project(project) as opened:
        run = opened.agent.run(1)
        stored = opened.agent.trajectories(agent_run_id=1)
        calls = [opened.agent.model_calls(row) for row, _ in stored]
    assert run.cost["requests"] == 6 and [s["requests"] for s in run.cost["sessions"]] == [4, 2]
    assert run.cost["tokens"] == 6 * 120
    cut = [(t, c) for (_, t), c in zip(stored, calls, strict=True) if t.stop == "model budget"]
    assert len(stored) == 7 and len(cut) == 1 and cut[0][1][0].error  # the cut episode and its failed call stay
    report = agent_eval(project, capsys)
    assert report["complete"] and report["overall"]["episodes"] == 6 and len(report["episodes"]) == 6
    assert report["cost"] == {"requests": 6, "tokens": 720, "sessions": 2}
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project)]) == 0
    assert "cost: 6 model requests, 720 tokens (over 2 sessions: resumed)" in capsys.readouterr().out


def test_an_interrupted_run_stores_what_it_cost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.cli import agent as agent_cli

    real = agent_cli.run_agent

    def interrupted_after_two(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202 - run_agent's own
        store, seen = kwargs["on_trajectory"], []

        def keep_then_stop(trajectory: Trajectory) -> None:
            store(trajectory)
            seen.append(trajectory)
            if len(seen) == 2:
                raise KeyboardInterrupt

        return real(*args, **{**kwargs, "on_trajectory": keep_then_stop})

    monkeypatch.setattr(agent_cli, "run_agent", interrupted_after_two)
    with FakeGemini(default=answer_with(guess)) as server:
        assert agent_run(tmp_path / "p", server) == 130
    with open_project(tmp_path / "p") as opened:
        run = opened.agent.run(1)
    assert run.ended_at is None and run.cost["requests"] == 2 and run.cost["tokens"] == 240


# --- 4: a task changed since a run used it ---------------------------------------------------------------------

def test_a_run_records_its_tasks_digests_and_eval_names_the_tasks_changed_since(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    changed = tmp_path / "tasks.jsonl"
    changed.write_text("".join(json.dumps({**task, "answer": "nobody"} if task["id"] == "lookup-1" else task) + "\n"
                               for task in map(json.loads, TASKS_FILE.read_text("utf-8").splitlines())), "utf-8")
    with FakeGemini(default=answer_with(guess)) as server:
        assert agent_run(project, server) == 0
        assert agent_eval(project, capsys)["changed_tasks"] == []
        assert agent_run(project, server, "--replace-tasks", tasks=changed) == 0
    with open_project(project) as opened:
        digests = opened.agent.run(1).parameters["task_digests"]
        assert set(digests) == set(TASK_IDS) and digests != opened.agent.run(2).parameters["task_digests"]
        successes = {(t.task_id, t.run): t.success for _, t in opened.agent.trajectories(agent_run_id=1)}
    assert successes[("lookup-1", 0)] is True  # stored verdicts follow the replaced task, as eval's do
    first = agent_eval(project, capsys, "--run", "1")
    assert first["changed_tasks"] == ["lookup-1"]
    assert any("task(s) lookup-1 changed since agent run 1 used them" in w and "as they are now" in w
               for w in first["warnings"])
    assert agent_eval(project, capsys, "--run", "2")["changed_tasks"] == []


# --- 6: per-run rates keyed and labelled by run index ----------------------------------------------------------

def test_per_run_rates_are_keyed_and_labelled_by_run_index_and_an_incomplete_ones_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(guess)) as server:
        assert agent_run(project, server, "--max-requests", "4") == 3
    report = agent_eval(project, capsys, "--include-incomplete")
    assert report["overall"]["per_run"] == {"0": 0.0, "1": 0.0}
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--include-incomplete"]) == 0
    table = capsys.readouterr().out.splitlines()
    header = next(line for line in table if line.startswith("category"))
    assert "run0 run1*" in header
    assert "note: per run: * run 1 is incomplete: its rate is over the tasks it reached, not all of the run's" in table


# --- 7: wording and rounding -----------------------------------------------------------------------------------

def test_a_failed_run_is_said_to_have_failed_not_to_lack_an_end_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=status(403, "the key is not allowed")) as server:
        assert agent_run(tmp_path / "p", server) == 4
    warnings = agent_eval(tmp_path / "p", capsys)["warnings"]
    assert any(w.startswith("the agent run failed (") and "HTTP 403" in w for w in warnings), warnings
    assert not any("no end time" in w for w in warnings)


TASKS = [Task(f"t{i}", "?", "yes", category="c") for i in range(8)]


def test_per_run_rates_round_half_up_like_every_figure() -> None:
    run0 = [Trajectory(t.id, "agent:m", [], answer="yes" if i < 5 else "no", run=0) for i, t in enumerate(TASKS)]
    run1 = [Trajectory(t.id, "agent:m", [], answer="yes" if i < 3 else "no", run=1) for i, t in enumerate(TASKS)]
    table = format_table(evaluate(TASKS, run0 + run1, plan=RunPlan(runs=2)))
    overall = table.splitlines()[-1]
    assert "0.63 0.38" in overall.replace("  ", " ") and "0.500" in overall, table


def test_the_charts_agreement_bars_say_over_how_many_tasks_overall_too(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    reference = Trajectory("t0", "person:ana", [Step("answer", None, "yes", "https://s/")], answer="yes")
    done = [Trajectory(t.id, "agent:m", [Step("answer", None, "yes", "https://s/")], answer="yes", run=0)
            for t in TASKS]
    result = evaluate(TASKS, done, {"t0": reference})
    assert agreement_mark(result.overall) == "1/8 tasks"
    drawn: dict[str, object] = {}
    monkeypatch.setattr(evaluate_module, "grouped_bars", lambda path, labels, series, **kw: drawn.update(kw))
    write_chart(result, tmp_path / "c.png")
    assert drawn["marks"] == {1: ["1/8 tasks", "1/8 tasks"]}  # category c, then overall
    figure = draw_grouped_bars(["c", "overall"], [("success", [1.0, 1.0]), ("agreement", [1.0, 1.0])],
                               marks=drawn["marks"])  # type: ignore[arg-type]
    try:
        assert [t.get_text() for t in figure.axes[0].texts].count("1/8 tasks") == 2
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)


# --- 9: what `punctuation` makes a space, as the rules text says it ----------------------------------------------

def test_the_rules_text_names_exactly_the_ascii_characters_punctuation_makes_a_space() -> None:
    import string

    from recordlens.core.agent.answers import normalise_answer
    from recordlens.core.agent.tasks import RULES_TEXT

    rule = RULES_TEXT[RULES_TEXT.index("3. `punctuation`"):RULES_TEXT.index("4. `whitespace`")]
    named = rule.split("in ASCII `", 1)[1].split("`)", 1)[0].split()
    spaced = [c for c in string.punctuation if normalise_answer(f"a{c}b", ["punctuation"]) == "a b"]
    assert sorted(named) == sorted(spaced)
    kept = rule.split("stay: `", 1)[1].split("`", 1)[0].split() + ["`"]
    assert all(normalise_answer(f"a{c}b", ["punctuation"]) == f"a{c}b" for c in kept)
    assert sorted(kept + spaced + ["%", "'"]) == sorted(string.punctuation)
