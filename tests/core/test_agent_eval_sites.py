"""`agent eval` of a run stored without its site (an older RecordLens: `run.parameters` has no "site"). A task id is a
site's own (shop's t1 and blog's t1 are two tasks); such a run used to be scored by every site's tasks, so an episode
of shop's t1 was scored against blog's t1 (the last) and shop's own reference was set aside as "recorded for an
earlier version of the task". The project knows each episode's site (its task row's): the run is scored by that."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import RunPlan, evaluate
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project

GOLD = {"shop": "Harbour", "blog": "Quay"}


def answering(actor: str, answer: str, run: int | None = None) -> Trajectory:
    return Trajectory("t1", actor, [Step("answer", None, answer, "https://s/")], answer=answer, run=run,
                      stop="answer" if run is not None else None)


def project_of_two_sites(folder: Path, *episode_sites: str) -> None:
    """shop and blog each hold a t1 (other gold answers) with a reference of its own; one finished run stored
    without its site, of one episode of t1 on each of `episode_sites`, answering that site's gold answer."""
    with init_project(folder) as project:
        rows = {}
        for site, gold in GOLD.items():
            rows[site] = project.agent.save_task(project.agent.site_id(site), Task(
                "t1", f"Where on {site}?", gold, category="lookup", start_url="https://s/"))
            project.agent.add_trajectory(rows[site], answering("person:ana", gold))
        run = project.agent.add_run("m", {"task_ids": ["t1"], "runs": 1})  # no "site": an older RecordLens
        for site in episode_sites:
            project.agent.add_trajectory(rows[site], answering("agent:m", GOLD[site], run=0), agent_run_id=run)
        project.agent.finish_run(run)


def agent_eval(folder: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[str, str]:
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(folder), *extra]) == 0
    out = capsys.readouterr()
    return out.out, out.err


@pytest.mark.parametrize("site", ["shop", "blog"])
def test_a_run_without_its_site_is_scored_by_the_site_of_its_episodes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], site: str) -> None:
    project_of_two_sites(tmp_path / "p", site)
    result = json.loads(agent_eval(tmp_path / "p", capsys, "--json")[0])
    assert result["sites"] == [site] and result["snapshot"]["site"] is None
    assert [(e["task"], e["site"], e["success"], e["agreement"]) for e in result["episodes"]] == \
        [("t1", site, True, 1.0)]
    assert result["earlier_version_references"] == [] and result["warnings"] == []

    out, err = agent_eval(tmp_path / "p", capsys)
    assert out.splitlines()[0].startswith(f"agent run 1 on site {site} (the site of its episodes' tasks: the run "
                                          "recorded none): 1 episode over 1 run")
    assert err == ""


def test_a_run_without_its_site_over_two_sites_scores_each_episode_by_its_own_sites_task(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project_of_two_sites(tmp_path / "p", "shop", "blog")
    result = json.loads(agent_eval(tmp_path / "p", capsys, "--json")[0])
    assert result["sites"] == ["blog", "shop"]
    assert [(e["task"], e["site"], e["success"], e["agreement"]) for e in result["episodes"]] == \
        [("t1 (site shop)", "shop", True, 1.0), ("t1 (site blog)", "blog", True, 1.0)]
    assert result["overall"]["tasks"] == 2 and result["overall"]["success_rate"] == 1.0
    assert result["complete"] is True and result["warnings"] == []

    out, _ = agent_eval(tmp_path / "p", capsys)
    assert out.splitlines()[0].startswith("agent run 1 on sites blog, shop (the sites of its episodes' tasks: the "
                                          "run recorded none)")


def test_an_id_on_two_sites_is_said_only_where_nothing_tells_which_and_only_of_the_runs_own_ids() -> None:
    tasks = [Task("t1", "a", "x", site="shop"), Task("t1", "b", "y", site="blog"),
             Task("t2", "c", "z", site="shop"), Task("t2", "d", "w", site="blog"), Task("t3", "e", "v", site="shop")]
    # an old run that stopped before its first episode: nothing tells t1's site; t2 is not the run's
    said = evaluate(tasks, [], plan=RunPlan(task_ids=("t1", "t3"))).warnings
    assert [w for w in said if "sites" in w] == [
        "task id 't1' is on 2 sites (shop, blog) and nothing says which one's the run used: its episodes are "
        "scored against site blog's task and compared with that task's reference"]
    # its episode's site tells: nothing to say, and it is scored by shop's t1
    episode = Trajectory("t1", "agent:m", [], answer="x", run=0)
    result = evaluate(tasks, [episode], plan=RunPlan(task_ids=("t1",)), sites=["shop"])
    assert not [w for w in result.warnings if "sites" in w] and result.episodes[0]["success"] is True
