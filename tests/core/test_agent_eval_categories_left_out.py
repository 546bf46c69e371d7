"""`agent eval --include-incomplete` never counts a cut episode: a category whose every episode was cut has no row in
the table. It used to vanish without a word, read as a category the run did not have; now a line says so, and
why. Without the option, a category whose episodes are all in incomplete runs left out is said alike."""

from __future__ import annotations

from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import RunPlan, evaluate
from recordlens.core.agent.model import Task, Trajectory

U = "https://s.org/"
A = Task("a", "Find a", "Ana", category="lookup")
C = Task("c", "Compare", "X", category="comparison")


def answered(task: str, run: int, answer: str) -> Trajectory:
    return Trajectory(task, "agent:m", [Step("answer", None, answer, U)], answer=answer, run=run, stop="answer")


def cut(task: str, run: int) -> Trajectory:
    return Trajectory(task, "agent:m", [Step("", url=U, error="budget")], run=run, stop="model budget")


def test_a_category_whose_every_episode_was_cut_is_said_to_be_left_out_of_the_table() -> None:
    episodes = [answered("a", 0, "Ana"), cut("c", 0), answered("a", 1, "Ana"), cut("c", 1)]
    result = evaluate([A, C], episodes, {}, plan=RunPlan(task_ids=("a", "c"), runs=2), include_incomplete=True)
    assert [f.category for f in result.categories] == ["lookup"]
    assert result.categories_left_out == ["comparison"]
    assert ("category 'comparison' is not in the table: every episode of it was cut: c run 0 (model budget), "
            "c run 1 (model budget)") in result.warnings
    assert result.as_dict()["categories_left_out"] == ["comparison"]


def test_without_the_option_a_category_only_in_runs_left_out_is_said_too() -> None:
    episodes = [answered("a", 0, "Ana"), answered("c", 0, "X"), answered("a", 1, "Ana")]  # run 1 lacks c
    result = evaluate([A, C], episodes, {}, plan=RunPlan(task_ids=("a", "c"), runs=2))
    assert [f.category for f in result.categories] == ["comparison", "lookup"] and result.categories_left_out == []
    only_in_run_1 = [answered("a", 0, "Ana"), cut("c", 0), answered("c", 1, "X"), cut("a", 1)]
    result = evaluate([A, C], only_in_run_1, {}, plan=RunPlan(task_ids=("a", "c"), runs=2))
    assert result.categories == [] and result.categories_left_out == ["comparison", "lookup"]
    assert "category 'comparison' is not in the table: its 2 episodes are in incomplete runs, left out" \
        in result.warnings
