"""`agent eval` rounds every figure of its table half up once, from its exact value: a mean of run rates summed as
floats (0 + 3/12 + 4/12 + 2/12 = 0.18749999999999997 over 4) printed 0.187 where the exact 0.1875 is 0.188, as the
README's rule says. Each run's rate, the success, the steps, the steps of the successful episodes and the spread
of many runs are checked against Fraction arithmetic rounded half up, over small run and task counts; `--json`
gives each figure as the nearest float to its exact value (no 0.4000000000000001)."""

from __future__ import annotations

import json
import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.agent.actions import Step
from recordlens.core.agent.evaluate import PER_RUN_SHOWN, RunPlan, evaluate, format_table
from recordlens.core.agent.model import Task, Trajectory

U = "https://s.org/"
GOLD = "42"
CATEGORIES = ("ca", "cb")


def half_up(value: Fraction, places: int) -> str:
    """The exact value rounded half up at `places`, by Decimal arithmetic at a precision no rate here needs."""
    with localcontext() as context:
        context.prec = 60
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return str(exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def root_half_up(square: Fraction, places: int) -> str:
    with localcontext() as context:
        context.prec = 60
        root = (Decimal(square.numerator) / Decimal(square.denominator)).sqrt()
        return str(root.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def tasks(n: int) -> list[Task]:
    return [Task(f"t{i}", f"Find {i}", GOLD, category=CATEGORIES[i % 2]) for i in range(n)]


def episode(task: int, run: int, right: bool, steps: int) -> Trajectory:
    """An episode of `steps` steps that answers right, or runs out of its budget."""
    if right:
        taken = [Step("wait", url=U)] * (steps - 1) + [Step("answer", None, GOLD, U)]
        return Trajectory(f"t{task}", "agent:m", taken, answer=GOLD, run=run, stop="answer")
    return Trajectory(f"t{task}", "agent:m", [Step("wait", url=U)] * steps, run=run, stop="budget")


def scored(outcomes: list[list[tuple[bool, int]]]):  # noqa: ANN201 - an Evaluation
    n = len(outcomes[0])
    done = [episode(t, r, right, steps) for r, run in enumerate(outcomes) for t, (right, steps) in enumerate(run)]
    return evaluate(tasks(n), done, {}, plan=RunPlan(task_ids=tuple(f"t{i}" for i in range(n)), runs=len(outcomes)))


def expected_row(outcomes: list[list[tuple[bool, int]]], category: str | None) -> dict[str, object]:
    """What the table's row of `category` (None: overall) shows, from Fraction arithmetic."""
    runs = [[(right, steps) for t, (right, steps) in enumerate(run) if category in (None, CATEGORIES[t % 2])]
            for run in outcomes]
    per_run = [Fraction(sum(right for right, _ in run), len(run)) for run in runs]
    steps = [steps for run in runs for _, steps in run]
    good = [steps for run in runs for right, steps in run if right]
    row: dict[str, object] = {
        "success": half_up(sum(per_run, Fraction(0)) / len(per_run), 3),
        "steps": half_up(Fraction(sum(steps), len(steps)), 2),
        "steps ok": half_up(Fraction(sum(good), len(good)), 2) if good else "-",
        "exact": per_run,
    }
    if len(per_run) <= PER_RUN_SHOWN:
        row["per run"] = [half_up(rate, 2) for rate in per_run]
    else:
        mean = sum(per_run, Fraction(0)) / len(per_run)
        square = sum(((rate - mean) ** 2 for rate in per_run), Fraction(0)) / (len(per_run) - 1)
        row["per run"] = ["±", root_half_up(square, 3),
                          f"({half_up(min(per_run), 2)}-{half_up(max(per_run), 2)})"]
    return row


def shown_row(table: str, category: str) -> dict[str, object]:
    """The row of `category` as the table prints it: category, tasks, runs, success, per run..., steps, steps ok,
    agreement (none here: "-")."""
    cells = next(line for line in table.splitlines() if line.split()[0] == category).split()
    return {"success": cells[3], "per run": cells[4:-3], "steps": cells[-3], "steps ok": cells[-2]}


def test_the_verifiers_mean_of_run_rates_prints_as_its_exact_value_rounds() -> None:
    # 12 tasks, 4 runs: 0, 3, 4 and 2 right, so the runs' rates are 0, 3/12, 4/12, 2/12 and their mean 9/48 = 0.1875
    outcomes = [[(t < right, 3) for t in range(12)] for right in (0, 3, 4, 2)]
    result = scored(outcomes)
    row = shown_row(format_table(result), "overall")
    assert row["success"] == "0.188", row
    assert row["per run"] == ["0.00", "0.25", "0.33", "0.17"]
    figures = json.loads(json.dumps(result.as_dict()))["overall"]
    assert figures["success_rate"] == 0.1875
    assert figures["per_run"] == {"0": 0.0, "1": 0.25, "2": 4 / 12, "3": 2 / 12}
    assert figures["average_steps"] == 3.0 and figures["average_steps_successful"] == 3.0


def test_json_figures_carry_no_float_sums_error() -> None:
    # 5 tasks, 3 runs of 1, 2 and 3 right: summed as floats, 0.2 + 0.4 + 0.6 over 3 is 0.4000000000000001
    outcomes = [[(t < right, 2) for t in range(5)] for right in (1, 2, 3)]
    assert (0.2 + 0.4 + 0.6) / 3 != 0.4  # the float sum this guards against
    figures = json.loads(json.dumps(scored(outcomes).as_dict()))["overall"]
    assert figures["success_rate"] == 0.4
    assert figures["success_sd"] == math.sqrt(Fraction(1, 25))


@st.composite
def run_outcomes(draw: st.DrawFn) -> list[list[tuple[bool, int]]]:
    """2 to 6 runs of the same 1 to 12 tasks, each episode right or not, in 1 to 15 steps."""
    runs = draw(st.integers(2, 6))
    n = draw(st.integers(1, 12))
    episode_outcome = st.tuples(st.booleans(), st.integers(1, 15))
    return [draw(st.lists(episode_outcome, min_size=n, max_size=n)) for _ in range(runs)]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(run_outcomes())
def test_every_figure_of_the_table_is_its_exact_value_rounded_half_up_once(outcomes) -> None:  # noqa: ANN001
    result = scored(outcomes)
    table = format_table(result)
    figures = json.loads(json.dumps(result.as_dict()))
    n = len(outcomes[0])
    for category in [c for c in CATEGORIES if any(CATEGORIES[t % 2] == c for t in range(n))] + [None]:
        expected = expected_row(outcomes, category)
        exact_rates = expected.pop("exact")
        assert shown_row(table, category or "overall") == expected, (category, table)
        row = figures["overall"] if category is None else \
            next(f for f in figures["categories"] if f["category"] == category)
        # the nearest float to each exact value: rounded half up at 3 places, as the table does
        assert list(row["per_run"].values()) == [float(rate) for rate in exact_rates]
        assert row["success_rate"] == float(sum(exact_rates, Fraction(0)) / len(exact_rates))
