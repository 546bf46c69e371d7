"""`score_seeds` (core/runs/evaluate.py) gave each seed's warnings with the seed, so a warning alike for every seed
(a page whose true records name nothing: the labels', not the seed's) came back once per seed; `score` made them
one line after (its own `said_once_over_seeds`), while any other caller of `score_seeds` got the repeats. It now
says each warning once itself, with the seeds that gave it; one of the whole run is said as it is."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.runs.evaluate import score_seeds
from tests.core.shop_runs import dataset

NAMING_NOTHING = "page 0: 1 of 3 true record(s) name nothing on the page"


def seeds_run(root: Path, methods: list[str]) -> Path:
    """A run of the shop pages 0 to 2, one seed per method named, each predicting the first item of every page;
    seed 1 also an empty record on page 0, which pairs with page 0's true record that names nothing."""
    for seed, method in enumerate(methods):
        folder = root / f"seed-{seed}"
        (folder / "_run").mkdir(parents=True)
        (folder / "_run" / "run.json").write_text(json.dumps({"method": method, "parameters": {"seed": seed}}))
        for page in "012":
            records = [["/body[1]/ul[1]/li[1]"], *([[]] if seed == 1 and page == "0" else [])]
            (folder / f"{page}.json").write_text(json.dumps(records))
    return root


def test_a_warning_alike_for_every_seed_comes_back_once_with_its_seeds(tmp_path: Path) -> None:
    data = dataset(tmp_path / "data", 3)
    _, warnings = score_seeds(seeds_run(tmp_path / "run", ["handmade"] * 3), data / "gt", data / "html")
    said = [warning for warning in warnings if NAMING_NOTHING in warning]
    assert len(said) == 2, warnings  # seeds 0 and 2 alike; seed 1's empty record pairs with it, said apart
    assert said[0].startswith(f"seeds 0, 2: {NAMING_NOTHING} ") and "they lower its figures" in said[0]
    assert said[1].startswith(f"seed 1: {NAMING_NOTHING} ") and "do not lower its figures" in said[1]
    assert len(set(warnings)) == len(warnings), warnings


def test_a_warning_of_the_whole_run_is_said_as_it_is_first(tmp_path: Path) -> None:
    data = dataset(tmp_path / "data", 3)
    _, warnings = score_seeds(seeds_run(tmp_path / "run", ["handmade", "handmade", "other"]), data / "gt",
                              data / "html")
    assert warnings[0].startswith("seed(s) 2 were made by another method or model than seed 0"), warnings
    assert {warning.split(": ", 1)[0] for warning in warnings[1:]} == {"seeds 0, 2", "seed 1"}, warnings
