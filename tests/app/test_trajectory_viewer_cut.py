"""Open stored trajectory… on a run that was cut and resumed: the cut episode is marked cut, with why, and is not
"wrong"; the episode that replaced it is the one that counts; run indices are those `agent eval` names; and the rows
that count give the verdicts `agent eval` counts. The cut episode used to be listed as "wrong" under "run 2" beside
its replacement, nothing telling them apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.agent.trajectory_viewer import StoredTrajectoryPicker, TrajectoryViewer
from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.demo_agent import REFERENCES, TASK_IDS, agent_run, respond
from tests.fake_gemini import FakeGemini, answer_with

pytestmark = pytest.mark.app



def agent_eval(project: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--json", "--include-incomplete"]) == 0
    return json.loads(capsys.readouterr().out)


def rows(picker: StoredTrajectoryPicker) -> list[dict[str, str]]:
    group = picker.tree.topLevelItem(0)
    return [{"label": group.child(i).text(0), "result": group.child(i).text(4), "tip": group.child(i).toolTip(0)}
            for i in range(group.childCount())]


def counted_verdicts(picker: StoredTrajectoryPicker) -> dict[tuple[str, int], bool]:
    """(task, run index) -> correct, of the rows the picker does not mark as not counted."""
    return {(e.trajectory.task_id, e.trajectory.run): e.result == "correct" for e in picker.entries
            if "not counted" not in e.label}


def eval_verdicts(report: dict) -> dict[tuple[str, int], bool]:
    return {(e["task"], e["run"]): e["success"] for e in report["episodes"] if not e["cut"]}


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def test_a_cut_episode_is_marked_cut_and_the_picker_counts_what_agent_eval_counts(
        qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    with FakeGemini(default=answer_with(respond)) as server:
        # Run 0 whole; in run 1 lookup-1 answers, lookup-2 is cut by the budget, rules-1 is not run.
        assert agent_run(project, server, "--max-requests", str(run0_requests + 1)) == 3
        cut_report = agent_eval(project, capsys)
        assert "cut: lookup-2 (model budget)" in cut_report["incomplete_runs"]["1"]

        with open_project(project) as opened:
            picker = StoredTrajectoryPicker(opened)
            qtbot.addWidget(picker)
            shown = rows(picker)
            group = picker.tree.topLevelItem(0).text(0)
            assert group.endswith(" · 1 cut episode, not counted")
            cut = next(r for r in shown if r["label"].startswith("lookup-2 · run 1"))
            assert cut["label"] == "lookup-2 · run 1 · cut: not counted"  # run 1, as agent eval names it
            assert cut["result"] == "cut (model budget)"  # why, and not "wrong"
            assert "the model budget (--max-requests) ran out" in cut["tip"]
            assert "stays incomplete until agent run 1 is resumed" in cut["tip"]
            assert "A cut episode" in picker.note.text()
            assert counted_verdicts(picker) == eval_verdicts(cut_report)

            viewer = TrajectoryViewer()
            qtbot.addWidget(viewer)
            viewer.set_trajectory(next(e for e in picker.entries if e.cut).trajectory)
            assert "cut (model budget): not scored" in viewer.title.text()
            assert "wrong" not in viewer.title.text() and "run 1" in viewer.title.text()
            viewer.close()
            picker.close()

        assert agent_run(project, server, "--resume", "1") == 0
    resumed = agent_eval(project, capsys)
    assert resumed["complete"]
    with open_project(project) as opened:
        picker = StoredTrajectoryPicker(opened)
        qtbot.addWidget(picker)
        shown = rows(picker)
        labels = [r["label"] for r in shown]
        assert labels == ["lookup-1 · run 0", "lookup-1 · run 1", "lookup-2 · run 0",
                          "lookup-2 · run 1 · cut, run again: not counted", "lookup-2 · run 1", "rules-1 · run 0",
                          "rules-1 · run 1"]
        again = shown[3]
        assert again["result"] == "cut (model budget)" and "the later episode counts" in again["tip"]
        assert shown[4]["result"] == "wrong" and shown[4]["tip"] == ""  # its replacement, scored
        assert counted_verdicts(picker) == eval_verdicts(resumed)
        assert sum(r["result"] == "correct" for r in shown if "not counted" not in r["label"]) == \
            resumed["overall"]["per_run"]["0"] * 3 + resumed["overall"]["per_run"]["1"] * 3
        picker.close()
