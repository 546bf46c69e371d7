"""`score` of a run written with `--seeds N` that was stopped (Ctrl+C) as a seed began, before any page of it was
extracted: that seed is no seed the run ran, so it is left out of the seeds scored and of the mean and sd over seeds
(said), not counted as a model scoring 0. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs import run_files
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")  # pages 1 to 4, labelled
KEY = "test-key-not-real-seed-begun"
TRUTH = [json.loads((DEMO / "gt" / f"{name}.json").read_text("utf-8")) for name in "1234"]
BEGUN = "seed 1 was begun but stopped before any page of it was extracted, so left out of the seeds scored"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def interrupted_in_seed_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl+C as seed 1's first page is written: seed 0 whole, seed 1 begun with no page extracted."""
    real = run_files.save_records

    def save_records(path: Path, records: object) -> None:
        if path.parent.name == "seed-1":
            raise KeyboardInterrupt
        real(path, records)

    monkeypatch.setattr(run_files, "save_records", save_records)


def test_a_seed_begun_without_a_page_extracted_is_left_out_of_the_mean_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir = tmp_path / "run"
    # seed 0 answers each page with its labels, in the pages' order: its F1 is 1
    with FakeGemini([answer(json.dumps(truth)) for truth in TRUTH], default=answer("[]")) as server, \
            monkeypatch.context() as patch:
        interrupted_in_seed_1(patch)
        code, _, _ = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out",
                         str(run_dir), "--seeds", "3", "--base-url", server.url, "-q")
    assert code == 130
    assert not list((run_dir / "seed-1").glob("*.json")) and (run_dir / "seed-1" / "_run" / "run.json").is_file()

    score = ("score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q")
    _, out, err = run(capsys, *score)
    assert BEGUN in err, err
    assert "3 seeds asked (0, 1, 2), seeds 1, 2 not run" in err and "the mean over seeds is over 1 seed" in err
    rows = {cells[0]: cells[1:] for cells in map(str.split, out.splitlines()) if len(cells) == 5}  # the table
    assert rows["0"][2] == "1.0000" and "1" not in rows, out
    assert rows["mean"] == rows["0"] and rows["sd"] == ["0.0000"] * 4, out
    assert "1 of the 3 seeds asked, 4 pages each" in out
    _, out, _ = run(capsys, *score, "--json")
    report = json.loads(out)
    assert [seed["seed"] for seed in report["seeds"]] == [0] and report["seeds_not_run"] == [1, 2]
    assert report["mean"] == report["seeds"][0]["mean"] and report["mean"]["f1"] == 1.0


def test_a_run_whose_every_seed_was_begun_without_a_page_is_refused_as_nothing_to_score(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    for seed in (0, 1):  # each seed's folder as a stop before its first page leaves it: its description only
        (run_dir / f"seed-{seed}" / "_run").mkdir(parents=True)
        (run_dir / f"seed-{seed}" / "_run" / "run.json").write_text(json.dumps(
            {"method": "gemini", "version": "1", "parameters": {"seed": seed}, "seeds": [0, 1],
             "stopped": run_files.UNFINISHED}), "utf-8")
    code, _, err = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert code == 2 and "no seed of the run (0, 1) has a page extracted or failed yet" in err, err


def a_run_stopped_in_seed_1_and_a_project(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A run of 3 seeds stopped as seed 1 began (`interrupted_in_seed_1`), and a project of the demo's pages."""
    run_dir = tmp_path / "run"
    with FakeGemini(default=answer("[]")) as server, monkeypatch.context() as patch:
        interrupted_in_seed_1(patch)
        assert run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(run_dir),
                   "--seeds", "3", "--base-url", server.url, "-q")[0] == 130
    project = tmp_path / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(project), "-q")[0] == 0
    return run_dir, project


def test_runs_add_leaves_out_the_seed_score_leaves_out_and_says_it_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir, project = a_run_stopped_in_seed_1_and_a_project(tmp_path, capsys, monkeypatch)
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0, err
    assert f"{run_dir}: 3 seeds asked (0, 1, 2), seeds 1, 2 not run (the run stopped before them; {BEGUN})" in err
    assert "stored" in err and "seed-1" not in err.split("only the seeds run are stored")[1], err
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert len(json.loads(out)) == 1  # seed 0 only


def test_runs_add_of_the_seed_folder_score_leaves_out_stores_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run_dir, project = a_run_stopped_in_seed_1_and_a_project(tmp_path, capsys, monkeypatch)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir / "seed-1"))
    assert code == 2 and "seed 1 was begun but stopped before any page of it was extracted" in err, err
    code, out, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert json.loads(out) == []
