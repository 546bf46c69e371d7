"""`score` of a run written with --seeds N said each page's warning once per seed: a page whose true records name
nothing (the labels', alike for every seed) gave as many lines as the run has seeds. Such a warning is said once,
with the seeds that gave it; one a seed gave alone keeps its seed (`score_seeds` says each once itself:
test_score_seeds_says_each_warning_once_itself.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import run
from tests.core.shop_runs import dataset

NAMING_NOTHING = "page 0: 1 of 3 true record(s) name nothing on the page"


def seeds_run(root: Path, seeds: int) -> Path:
    """A run of the shop pages 0 to 2 with `seeds` seeds, each predicting the first item of every page; seed 1 also
    an empty record on page 0, which pairs with page 0's true record that names nothing."""
    for seed in range(seeds):
        folder = root / f"seed-{seed}"
        (folder / "_run").mkdir(parents=True)
        (folder / "_run" / "run.json").write_text(json.dumps({"method": "handmade", "parameters": {"seed": seed}}))
        for page in "012":
            records = [["/body[1]/ul[1]/li[1]"], *([[]] if seed == 1 and page == "0" else [])]
            (folder / f"{page}.json").write_text(json.dumps(records))
    return root


def test_a_pages_warning_alike_for_every_seed_is_said_once(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = dataset(tmp_path / "data", 3)  # page 0: one of its three true records names nothing
    code, out, err = run(capsys, "score", "--pred", str(seeds_run(tmp_path / "run", 3)), "--gt", str(data / "gt"),
                         "--pages", str(data / "html"), "-q")
    assert code == 0, err
    said = [line for line in err.splitlines() if NAMING_NOTHING in line]
    assert len(said) == 2, err  # seeds 0 and 2 alike; seed 1's empty record pairs with it, said apart
    assert said[0].startswith(f"warning: seeds 0, 2: {NAMING_NOTHING} ") and "they lower its figures" in said[0]
    assert said[1].startswith(f"warning: seed 1: {NAMING_NOTHING} ") and "do not lower its figures" in said[1]
    assert "3 seeds, 3 pages each" in out

