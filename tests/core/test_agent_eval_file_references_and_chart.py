"""`agent eval --references DIR` says which tasks' references it took from the folder instead of the project's (as
`agent run --references` says what it stores and leaves out), and its chart draws the spread of the runs' success
rates (as the table gives it) and a bar of 0.0 as a value, not as a missing one."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent import evaluate as evaluate_module
from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import RunPlan, evaluate, write_chart
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.cli.command import main
from recordlens.core.runs.charts import MISSING_MARK, SPREAD_COLOUR, ZERO_MARK, draw_grouped_bars
from tests.demo_agent import REFERENCES, SITE_DIR, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with


def run_with_references(project: Path, references: Path) -> None:
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     "--task", "lookup-1", "--task", "rules-1", "--runs", "1", "--browser", "text",
                     "--base-url", server.url, "--references", str(references)]) == 0


def write_references(folder: Path, **trajectories: Trajectory) -> Path:
    folder.mkdir()
    for task_id, trajectory in trajectories.items():
        (folder / f"{task_id}.json").write_text(trajectory.to_json(), encoding="utf-8")
    return folder


def test_eval_names_the_tasks_whose_reference_the_folder_gives_instead_of_the_projects(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = tmp_path / "p"
    run_with_references(project, write_references(tmp_path / "stored", **{"lookup-1": REFERENCES["lookup-1"]}))
    # lookup-1's reference with a Wait first (it differs from the project's); rules-1's, which the project lacks
    waiting = replace(REFERENCES["lookup-1"], steps=[Step("wait", url=REFERENCES["lookup-1"].steps[0].url),
                                                     *REFERENCES["lookup-1"].steps])
    folder = write_references(tmp_path / "other", **{"lookup-1": waiting, "rules-1": REFERENCES["rules-1"]})
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--references", str(folder)]) == 0
    err = capsys.readouterr().err
    assert (f"warning: the reference of lookup-1 in {folder} differs from the project's: agreement is measured "
            "against the file here, not against the project's reference (which agent eval compares with without "
            "--references)") in err
    assert (f"agreement of rules-1 is measured against the reference in {folder} (the project holds none of the "
            "task as it is now)") in err

    assert main(["agent", "eval", "--project", str(project), "--references", str(folder), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["file_references"], report["file_references_over_project"]) == (["lookup-1", "rules-1"],
                                                                                     ["lookup-1"])
    assert {e["task"]: e["agreement"] for e in report["episodes"]}["lookup-1"] == pytest.approx(3 / 4)

    # The folder the run stored, given again: the same path as the project's, nothing replaced, nothing warned.
    assert main(["agent", "eval", "--project", str(project), "--references", str(tmp_path / "stored")]) == 0
    said = capsys.readouterr().err
    assert "differs from the project's" not in said
    assert main(["agent", "eval", "--project", str(project)]) == 0
    assert "measured against" not in capsys.readouterr().err


TASKS = [Task(id=f"t{i}", instruction="?", answer="yes", category="c" if i < 2 else "zero") for i in range(4)]


def five_runs() -> list[Trajectory]:
    """Category c: t0 right in every run, t1 right in runs 0-1 only; category zero: never right."""
    return [Trajectory(t.id, "agent:m", [], answer="yes" if t.id == "t0" or (t.id == "t1" and run < 2) else "no",
                       run=run, stop="answer") for run in range(5) for t in TASKS]


def test_the_chart_draws_the_runs_spread_and_a_zero_as_a_value(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    result = evaluate(TASKS, five_runs(), plan=RunPlan(runs=5))
    drawn: dict[str, object] = {}
    monkeypatch.setattr(evaluate_module, "grouped_bars",
                        lambda path, labels, series, **kw: drawn.update(kw, labels=labels, series=series))
    write_chart(result, tmp_path / "c.png")
    assert drawn["labels"] == ["c", "zero", "overall"]
    assert drawn["spreads"] == {0: [(0.5, 1.0), (0.0, 0.0), (0.25, 0.5)]}  # the lowest and highest run's rate
    assert drawn["series"][0][0] == "success (mean over runs; whisker: lowest-highest run)"  # type: ignore[index]
    assert drawn["show_zero"] is True

    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    figure = draw_grouped_bars(["c", "zero", "overall"], drawn["series"], marks=drawn["marks"],  # type: ignore[arg-type]
                               spreads=drawn["spreads"], show_zero=True)  # type: ignore[arg-type]
    try:
        axis = figure.axes[0]
        texts = [t.get_text() for t in axis.texts]
        # The zero category's success bar is marked as a value; its agreement (no reference) is missing, n/a
        assert texts.count(ZERO_MARK) == 1 and texts.count(MISSING_MARK) == 3
        whiskers = [c for c in axis.collections if to_rgba(SPREAD_COLOUR) == tuple(c.get_colors()[0])]
        spans = sorted((round(s[0][1], 3), round(s[1][1], 3)) for c in whiskers for s in c.get_segments())
        assert spans == [(0.0, 0.0), (0.25, 0.5), (0.5, 1.0)]
        flat = [c for c in axis.collections if c not in whiskers]  # the zero drawn as a flat bar of its colour
        assert len(flat) == 1 and [round(y, 3) for s in flat[0].get_segments() for _, y in s] == [0.0, 0.0]
        assert axis.get_ylim()[1] > 1.0  # the whisker's cap at 1.0 is inside the frame
    finally:
        plt.close(figure)
    assert write_chart(result, tmp_path / "real.png") is None  # (grouped_bars is the stand-in above)


def test_one_run_draws_no_whisker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = evaluate(TASKS, [t for t in five_runs() if t.run == 0], plan=RunPlan(runs=1))
    assert write_chart(result, tmp_path / "one.png").read_bytes().startswith(b"\x89PNG")
    drawn: dict[str, object] = {}
    monkeypatch.setattr(evaluate_module, "grouped_bars",
                        lambda path, labels, series, **kw: drawn.update(kw, series=series))
    write_chart(result, tmp_path / "c.png")
    assert drawn["spreads"] == {0: [None, None, None]}
    assert drawn["series"][0][0] == "success (mean over runs)"  # type: ignore[index]
