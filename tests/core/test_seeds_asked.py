"""A run written with `--seeds N` records the seeds asked, so that one stopped before its last seed is not taken for
a run of fewer seeds: `extract`, `score` and `runs --add` name the seeds not run. Against the loopback fake in
tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs.evaluate import score_seeds
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")
KEY = "test-key-not-real-seeds"
NOT_RUN = "3 seeds asked (0, 1, 2), seed 2 not run"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def extract_seeds(run_dir: Path, server: FakeGemini, *more: str) -> tuple[str, ...]:
    return ("extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir), "--seeds", "3",
            "--base-url", server.url, "-q", *more)


def test_a_seeded_run_stopped_before_its_last_seed_says_which_seeds_were_not_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        # 4 pages a seed: seed 0 whole, seed 1 half way, seed 2 never started
        code, _, err = run(capsys, *extract_seeds(run_dir, server, "--max-requests", "6"))
    assert code == 3 and sorted(p.name for p in run_dir.iterdir()) == ["seed-0", "seed-1"]
    assert NOT_RUN in err

    score = ("score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q")
    _, out, err = run(capsys, *score)
    assert NOT_RUN in err and "2 of the 3 seeds asked, " in out
    _, out, _ = run(capsys, *score, "--json")
    report = json.loads(out)
    assert (report["seeds_asked"], report["seeds_not_run"]) == ([0, 1, 2], [2])
    scores, warnings = score_seeds(run_dir, DEMO / "gt", DEMO / "html")
    assert (scores.asked, scores.not_run) == ([0, 1, 2], [2]) and any(NOT_RUN in w for w in warnings)

    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project))[0] == 0
    _, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert err.count(NOT_RUN) == 1, err
    assert "holds a run written with --seeds (2 of the 3 seeds asked)" in err

    # the same command runs the seed left, and the run is whole: nothing more is said
    with FakeGemini(default=answer("[]"), port=server.port) as server:
        code, _, err = run(capsys, *extract_seeds(run_dir, server))
    assert code == 0 and "not run" not in err
    _, out, err = run(capsys, *score)
    assert "not run" not in err and "3 seeds" in out
    report = json.loads(run(capsys, *score, "--json")[1])
    assert (report["seeds_asked"], report["seeds_not_run"]) == ([0, 1, 2], [])


@pytest.mark.parametrize("budget", ["4", "8"])
def test_a_budget_spent_at_the_end_of_a_seed_leaves_the_next_one_not_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], budget: str) -> None:
    """4 pages a seed and a budget of 4 or 8 requests: spent as a seed ends. The next seed's folder was made before
    the budget stopped it, and `score` took it for a seed that ran and found nothing (F1 0 in the mean)."""
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, *extract_seeds(run_dir, server, "--max-requests", budget))
    held = int(budget) // 4
    assert code == 3 and sorted(p.name for p in run_dir.iterdir()) == [f"seed-{s}" for s in range(held)]
    not_run = ", ".join(str(s) for s in range(held, 3))
    assert f"3 seeds asked (0, 1, 2), seed{'s' if held < 2 else ''} {not_run} not run" in err
    report = json.loads(run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                            str(DEMO / "html"), "-q", "--json")[1])
    assert report["seeds_not_run"] == list(range(held, 3))


def test_a_seeded_run_written_before_seeds_were_recorded_reads_as_the_seeds_it_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract_seeds(run_dir, server))[0] == 0
    for folder in run_dir.iterdir():  # as an older RecordLens wrote it: no seeds asked in its description
        described = folder / "_run" / "run.json"
        described.write_text(json.dumps({k: v for k, v in json.loads(described.read_text()).items()
                                         if k != "seeds"}), encoding="utf-8")
    scores, warnings = score_seeds(run_dir, DEMO / "gt", DEMO / "html")
    assert (scores.asked, scores.not_run) == ([0, 1, 2], []) and not any("not run" in w for w in warnings)
