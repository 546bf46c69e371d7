"""An agent run killed (SIGKILL) while the model answers an episode's second step keeps that episode with the step
it took: its first step's action was carried out, and the episode under way is stored again once a step is done,
not only after each model call (before its action). `agent eval` then says the cut episode was cut in 1 step, not
0. A real process against the loopback fake of Gemini, on the demo site in core's text browser."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from recordlens.core.agent.loop import INTERRUPTED
from recordlens.core.cli.command import main
from tests.core.test_agent_run_killed_keeps_what_it_paid import killed_awaiting_rules_1s_second_answer


def stored_episodes(project: Path) -> list[tuple[str, str, int, int]]:
    """Each stored episode: its task, its stop, its steps and its model calls."""
    with sqlite3.connect(project / "project.db") as db:
        return db.execute(
            "SELECT t.external_id, tr.stop, (SELECT COUNT(*) FROM steps s WHERE s.trajectory_id = tr.id), "
            "(SELECT COUNT(*) FROM model_calls m WHERE m.trajectory_id = tr.id) "
            "FROM trajectories tr JOIN tasks t ON t.id = tr.task_id ORDER BY tr.id").fetchall()


def test_an_episode_killed_while_the_model_answers_its_second_step_keeps_its_first(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    project = tmp_path / "P"
    # lookup-1 takes 3 model calls (two clicks and its answer), rules-1 2 (a click and its answer): the 4th request
    # is rules-1's first (a Click, carried out); the 5th, rules-1's second, is awaited at the kill. Only what was
    # stored before the kill is kept.
    with killed_awaiting_rules_1s_second_answer(project, tmp_path):
        # rules-1: 1 call read and its Click carried out; the 2nd call was in flight (paid, never read)
        assert stored_episodes(project) == [("lookup-1", "answer", 3, 3), ("rules-1", INTERRUPTED, 1, 1)]
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project)]) == 0
    out = capsys.readouterr().out
    assert "run 0 rules-1: cut in 1 step" in out, out
