"""Agent evaluation: the figures `recordlens agent eval` prints are the ones computed here by hand (success per
category over 3 runs, steps, agreement with the reference), and the whole command chain on the demo site."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step, format_action
from recordlens.core.agent.evaluate import RunPlan, agreement, evaluate, format_table, runs_named, write_chart
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.targets import Target
from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.charts import MISSING_MARK, draw_grouped_bars
from recordlens.core.store.project import init_project
from tests.fake_gemini import FakeGemini, answer

U = "https://s.org/"
A = Task("a", "Find a", "Ana", category="lookup", normalise=("case",))
B = Task("b", "Find b", "1,024", category="lookup", normalise=("numbers",))
C = Task("c", "Compare", "X", category="comparison")
LINK = Target(label=1, xpath="/body[1]/a[1]", text="Go", role="link", name="Go")
OTHER = Target(label=2, xpath="/body[1]/a[2]", text="Stay", role="link", name="Stay")
REFERENCE_A = Trajectory("a", "person:ana", [Step("click", LINK, url=U), Step("answer", None, "Ana", U + "x")])


def episode(task: str, run: int, answer: str | None, steps: int, first: Target | None = None) -> Trajectory:
    taken = [Step("click", first or OTHER, url=U)] + [Step("wait", url=U + "x")] * (steps - 2)
    if answer is not None:
        taken.append(Step("answer", None, answer, U + "x"))
    else:
        taken.append(Step("wait", url=U + "x"))
    return Trajectory(task, "agent:m", taken, answer=answer, run=run)


EPISODES = [
    # run 0: a right, b right (numbers rule), c wrong
    episode("a", 0, "ana", 2, LINK), episode("b", 0, "1024", 3), episode("c", 0, "Y", 4),
    # run 1: a wrong (no answer), b right, c right
    episode("a", 1, None, 5), episode("b", 1, "1,024", 2), episode("c", 1, "X", 3),
    # run 2: a right but by another way, b wrong, c right
    episode("a", 2, "ANA", 4), episode("b", 2, "1025", 2), episode("c", 2, "X", 2),
]


def test_the_figures_are_those_computed_by_hand() -> None:
    result = evaluate([A, B, C], EPISODES, {"a": REFERENCE_A})
    lookup = next(f for f in result.categories if f.category == "lookup")
    comparison = next(f for f in result.categories if f.category == "comparison")
    # lookup per run: run 0 2/2, run 1 1/2, run 2 1/2 -> mean (1 + 0.5 + 0.5) / 3
    assert lookup.per_run == {0: 1.0, 1: 0.5, 2: 0.5} and lookup.success_rate == pytest.approx(2 / 3)
    # comparison per run: 0, 1, 1
    assert comparison.per_run == {0: 0.0, 1: 1.0, 2: 1.0} and comparison.success_rate == pytest.approx(2 / 3)
    # overall per run: 2/3, 2/3, 2/3
    assert result.overall.per_run == pytest.approx({0: 2 / 3, 1: 2 / 3, 2: 2 / 3})
    assert result.overall.success_rate == pytest.approx(2 / 3)
    # steps: 2+3+4+5+2+3+4+2+2 = 27 over 9; successful: a0 2, b0 3, b1 2, c1 3, a2 4, c2 2 -> 16 / 6
    assert result.overall.average_steps == pytest.approx(27 / 9)
    assert result.overall.average_steps_successful == pytest.approx(16 / 6)
    assert lookup.average_steps == pytest.approx((2 + 3 + 5 + 2 + 4 + 2) / 6)
    # agreement (task a only has a reference): run 0 matches both steps (1.0); run 1 neither the click (other
    # target) nor the answer (none) (0.0); run 2 only the answer "ANA" = "Ana" under the case rule (0.5)
    assert [e["agreement"] for e in result.episodes if e["task"] == "a"] == [1.0, 0.0, 0.5]
    assert lookup.agreement == pytest.approx(0.5) and comparison.agreement is None
    assert result.overall.agreement == pytest.approx(0.5)
    table = format_table(result)
    assert [row.split()[0] for row in table.splitlines()[1:4]] == ["comparison", "lookup", "overall"]
    assert "0.667" in table and "0.500" in table


def test_the_agreement_says_over_how_many_tasks_and_episodes_with_a_reference_it_is_taken() -> None:
    result = evaluate([A, B, C], EPISODES, {"a": REFERENCE_A})
    assert (result.overall.agreement_tasks, result.overall.agreement_episodes) == (1, 3)
    assert result.as_dict()["overall"]["agreement_tasks"] == 1  # type: ignore[index]
    lines = format_table(result).splitlines()
    assert lines[3].startswith("overall") and lines[3].endswith("0.500 (1/3)")  # 1 of the 3 tasks
    assert lines[4] == "note: agreement: taken over 1 of 3 tasks (3 of 9 episodes), those with a reference trajectory"
    everywhere = evaluate([A], [e for e in EPISODES if e.task_id == "a"], {"a": REFERENCE_A})
    assert format_table(everywhere).splitlines()[-1].endswith("0.500 (1/1)")  # no note when every task has one


def test_a_reference_that_answers_otherwise_than_the_gold_answer_is_said() -> None:
    astray = Trajectory("a", "person:ana", [Step("answer", None, "Bob", U)], answer="Bob")
    said = [w for w in evaluate([A, B, C], EPISODES, {"a": astray}).warnings if "answers otherwise" in w]
    assert said == ["the reference of task(s) a answers otherwise than the gold answer: agreement is measured "
                    "against a path to another answer; record it again"]
    matching = Trajectory("a", "person:ana", [Step("answer", None, "ANA", U)], answer="ANA")  # case: normalised
    assert not [w for w in evaluate([A], EPISODES, {"a": matching}).warnings if "answers otherwise" in w]


def test_an_interrupted_200_run_job_warns_once_per_reason_and_the_table_summarises_many_runs() -> None:
    # Runs 0-92 whole, run 93 with task a only, runs 94-199 never started; task c cut in run 5.
    done = [episode(t, r, "x", 2) for r in range(93) for t in "abc"] + [episode("a", 93, "Ana", 2)]
    done[5 * 3 + 2] = Trajectory("c", "agent:m", [Step("", url=U, error="budget")], run=5, stop="model budget")
    result = evaluate([A, B, C], done, {}, plan=RunPlan(task_ids=("a", "b", "c"), runs=200, ended=False))
    incomplete = [w for w in result.warnings if "incomplete" in w]
    assert incomplete == [
        "run 5 is incomplete: cut: c (model budget); left out of the figures",
        "run 93 is incomplete: no episode of b, c; left out of the figures",
        "runs 94-199 (106) are incomplete: no episode of any of their 3 tasks; left out of the figures",
    ]
    assert runs_named([1, 2, 3, 7, 9, 10]) == "runs 1-3, 7, 9-10 (6)" and runs_named([4]) == "run 4"

    rates = [1.0 if r % 4 else 0.0 for r in range(92)]  # each run's success rate over a, b, c: 0 or 1
    many = evaluate([A, B, C], [episode(t, r, "Ana" if t == "a" and r % 4 else None, 2) for r in range(92)
                                for t in "a"], {})
    assert many.overall.per_run == dict(enumerate(rates))
    assert json.loads(json.dumps(many.as_dict()))["overall"]["per_run"] == {str(r): v for r, v in enumerate(rates)}
    assert many.overall.success_sd == pytest.approx(statistics.stdev(rates))
    table = format_table(many).splitlines()
    assert max(len(line) for line in table) <= 120
    assert f"± {statistics.stdev(rates):.3f} (0.00-1.00)" in table[-2]
    assert table[-1].startswith("note: per run: ± the sample standard deviation of the 92 runs' rates")
    few = format_table(evaluate([A, B, C], EPISODES, {})).splitlines()
    assert "0.67 0.67 0.67" in few[-1] and not any(line.startswith("note") for line in few)


def test_with_no_complete_run_the_table_says_nothing_was_measured() -> None:
    cut = Trajectory("a", "agent:m", [Step("", url=U, error="model error")], run=0, stop="model error")
    result = evaluate([A], [cut], {})
    assert result.overall.runs == 0 and result.overall.success_rate is None and result.overall.average_steps is None
    overall = format_table(result).splitlines()[-1].split()
    assert overall[:5] == ["overall", "0", "0", "-", "-"], overall  # no success rate, no steps


def test_agreement_is_an_in_order_match_by_target_identity() -> None:
    drifted = Target(label=7, xpath="/body[1]/div[1]/a[1]", text="Go", role="link", name="Go")
    taken = Trajectory("a", "agent:m", [Step("wait", url=U), Step("click", drifted, url=U),
                                        Step("", url=U, error="no action"), Step("answer", None, "ana", U + "x")])
    assert agreement(A, REFERENCE_A, taken) == 1.0
    backwards = Trajectory("a", "agent:m", [Step("answer", None, "Ana", U + "x"), Step("click", LINK, url=U)])
    assert agreement(A, REFERENCE_A, backwards) == 0.5
    elsewhere = Trajectory("a", "agent:m", [Step("click", LINK, url=U + "other"), Step("answer", None, "Ana", U)])
    assert agreement(A, REFERENCE_A, elsewhere) == 0.0


def test_the_chart_is_a_png(tmp_path: Path) -> None:
    path = write_chart(evaluate([A, B, C], EPISODES, {"a": REFERENCE_A}), tmp_path / "chart.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _luminance(rgb: tuple[float, ...]) -> float:
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb[:3]]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_the_chart_series_are_told_apart_and_its_n_a_marks_stay_inside_the_figure() -> None:
    import colorsys

    import matplotlib.pyplot as plt

    # The overall has no agreement (no reference): its n/a mark is in the rightmost slot.
    result = evaluate([A, B, C], EPISODES, {})
    figure = draw_grouped_bars([f.category for f in [*result.categories, result.overall]], [
        ("success", [f.success_rate for f in [*result.categories, result.overall]]),
        ("agreement", [f.agreement for f in [*result.categories, result.overall]]),
    ])
    try:
        axis = figure.axes[0]
        success, agreeing = (bar.get_facecolor() for bar in axis.get_legend().get_patches())
        # Apart in lightness (greyscale, print) and in hue, not two blues.
        assert abs(_luminance(success) - _luminance(agreeing)) > 0.2
        hues = [colorsys.rgb_to_hsv(*c[:3])[0] * 360 for c in (success, agreeing)]
        assert min(abs(hues[0] - hues[1]), 360 - abs(hues[0] - hues[1])) > 90
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        marks = [t for t in axis.texts if t.get_text() == MISSING_MARK]
        assert len(marks) == 3
        inside = axis.get_window_extent(renderer)
        for mark in marks:
            box = mark.get_window_extent(renderer)
            assert inside.x0 <= box.x0 and box.x1 <= inside.x1, "an n/a mark is cut off at the axis' edge"
    finally:
        plt.close(figure)


def test_agent_run_then_eval_on_the_demo_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    tasks = tmp_path / "tasks.jsonl"
    lines = resource_path("agent", "demo-tasks.jsonl").read_text("utf-8").splitlines()
    tasks.write_text("\n".join(line for line in lines if '"rules-' in line) + "\n", encoding="utf-8")
    reference = Trajectory.from_json(resource_path("agent", "reference", "rules-1.json").read_text("utf-8"))
    right = [answer(format_action(s)) for s in reference.steps]
    # 3 runs x (rules-1, rules-2): rules-1 right in runs 0 and 2; rules-2 right only in run 1.
    script = (right + [answer("Click [5]"), answer("ANSWER; 50 GB")]
              + [answer("ANSWER; 2000")] + [answer("Click [5]"), answer("ANSWER; 50 megabytes")]
              + right + [answer("hmm")] * 3)
    with FakeGemini(script) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(resource_path("agent",
                     "demo-site")), "--tasks", str(tasks), "--browser", "text", "--base-url", server.url,
                     "--references", str(resource_path("agent", "reference")), "--max-failures", "3"])
    assert code == 0
    assert "agent run 1: 3 of 6 episodes succeeded" in capsys.readouterr().out
    chart = tmp_path / "eval.png"
    assert main(["agent", "eval", "--project", str(tmp_path / "p"), "--json", "--chart", str(chart)]) == 0
    figures = json.loads(capsys.readouterr().out)
    rules = figures["categories"][0]
    assert rules["category"] == "rules" and rules["per_run"] == {"0": 0.5, "1": 0.5, "2": 0.5}
    # steps: rules-1 2, 1, 2; rules-2 2, 2, 3 (failures) -> 12 / 6; successful: 2 + 2 + 2 over 3
    assert rules["average_steps"] == pytest.approx(2.0) and rules["average_steps_successful"] == pytest.approx(2.0)
    # agreement with (Click About, ANSWER): rules-1 both, neither (a wrong answer only), both; rules-2 the click
    # but "50 GB", both ("50 megabytes" = "50 MB"), neither
    agreements = [(e["task"], e["run"], e["agreement"]) for e in figures["episodes"]]
    assert agreements == [("rules-1", 0, 1.0), ("rules-2", 0, 0.5), ("rules-1", 1, 0.0), ("rules-2", 1, 1.0),
                          ("rules-1", 2, 1.0), ("rules-2", 2, 0.0)]
    assert rules["agreement"] == pytest.approx(3.5 / 6)
    assert chart.read_bytes()[:4] == b"\x89PNG"
    assert main(["agent", "eval", "--project", str(tmp_path / "p")]) == 0  # the ids below are the site's own
    assert capsys.readouterr().out.startswith("agent run 1 on site demo-site: 6 episodes over 3 runs")
    with init_project(tmp_path / "q"):
        pass
    assert main(["agent", "eval", "--project", str(tmp_path / "q")]) == 2
    assert "no agent run yet" in capsys.readouterr().err
