"""`recordlens runs`: a run stored by mistake is deleted with everything it holds, two runs are compared page by
page, and the list shows how much of the project a run covers and where it came from."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def predictions(folder: Path, pages: dict[str, bool]) -> Path:
    """A run folder written by hand: each page's true records (right) or no record (wrong)."""
    folder.mkdir(parents=True)
    for name, right in pages.items():
        records = (DEMO / "gt" / f"{name}.json").read_text(encoding="utf-8") if right else "[]"
        (folder / f"{name}.json").write_text(records, encoding="utf-8")
    return folder


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo dataset's 4 labelled pages, with run 1 right on all of them and run 2 (from `part`) right on
    page 1, wrong on page 2 and without pages 3 and 4."""
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    whole = predictions(tmp_path / "whole", dict.fromkeys(["1", "2", "3", "4"], True))
    part = predictions(tmp_path / "part", {"1": True, "2": False})
    for folder in (whole, part):
        assert main(["runs", "--project", str(tmp_path / "p"), "--add", str(folder), "--method", "oracle"]) == 0
    capsys.readouterr()
    return tmp_path / "p"


def rows(project: Path, table: str, run_id: int) -> int:
    with sqlite3.connect(project / "project.db") as db:
        return db.execute(f"SELECT COUNT(*) FROM {table} WHERE {'id' if table == 'runs' else 'run_id'} = ?",
                          (run_id,)).fetchone()[0]


def test_a_run_is_deleted_with_its_predictions_and_scores_and_the_command_says_what_went(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "score", "--project", str(project), "--run", "2", "-q")[0] == 0
    code, out, err = run(capsys, "runs", "--project", str(project), "--delete", "2")
    assert code == 0
    assert "deleted run 2 (oracle, from part), started " in err and ": 2 page predictions and 4 page scores" in err
    assert f"; its predictions are kept in {project / 'removed' / 'runs'}/2-oracle." in err
    assert (tmp_path / "part" / "1.json").is_file()  # the folder it came from is left as it is
    assert [line.split()[0] for line in out.splitlines()[1:] if line[:3].strip().isdigit()] == ["1"]
    assert (rows(project, "runs", 2), rows(project, "predictions", 2), rows(project, "scores", 2)) == (0, 0, 0)
    assert rows(project, "predictions", 1) == 4  # the other run is untouched

    code, out, err = run(capsys, "runs", "--project", str(project), "--delete", "2")
    assert code == 2 and out == ""
    assert f"no run 2 in the project {project}: its runs are 1 (`recordlens runs --project {project}` lists them)" \
        in err
    # its id is not given to the next run: a removed page's copy that names run 2 cannot reach another run
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "part"), "--method", "oracle")[0] == 0
    assert [r["id"] for r in json.loads(run(capsys, "runs", "--project", str(project), "--json")[1])] == [1, 3]


def test_two_runs_are_compared_page_by_page_after_scoring_the_ones_not_scored_yet(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2")
    assert code == 0
    for run_id in (1, 2):  # neither was scored: both are, as `score --project` does, and said
        assert (f"run {run_id} (oracle, from {'whole' if run_id == 1 else 'part'}): not scored yet: scored now "
                f"against the project's labels, as `recordlens score --project {project} --run {run_id}` does") in err
    lines = out.splitlines()
    assert lines[0] == ("F1 per page of run 1 (oracle, from whole) and run 2 (oracle, from part), by difference "
                        "(run 2 less run 1, lowest first):")
    table = [line.split()[:4] for line in lines[2:6]]
    assert table == [["2", "1.0000", "0.0000", "-1.0000"], ["3", "1.0000", "0.0000", "-1.0000"],
                     ["4", "1.0000", "0.0000", "-1.0000"], ["1", "1.0000", "1.0000", "+0.0000"]]
    assert "(no prediction in run 2: scored as an empty one)" in lines[3] and "no prediction" not in lines[2]
    assert lines[6].split() == ["mean", "1.0000", "0.2500", "-0.7500", "(the", "4", "pages", "both", "scored)"]
    assert lines[7].startswith("mean") and "(the 2 pages both hold a prediction for)" in lines[7]
    assert lines[7].split()[1:4] == ["1.0000", "0.5000", "-0.5000"]

    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "2", "1", "--json")
    compared = json.loads(out)
    assert code == 0 and "scored" not in err  # scored already, and the labels did not change since
    assert compared["runs"] == [2, 1] and compared["pages"][0]["page"] == "1"  # run 1 gains nothing there
    assert compared["mean"] == {"pages": 4, "f1": [0.25, 1.0], "difference": 0.75}
    assert compared["mean_both_predicted"]["pages"] == 2 and compared["left_out_pages"] == []


def test_a_comparison_of_a_run_with_itself_or_with_no_such_run_is_refused(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "1")
    assert code == 2 and out == "" and "--compare needs two different runs (run 1 twice)" in err
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "9")
    assert code == 2 and out == "" and "no run 9 in the project" in err and "its runs are 1, 2" in err
    assert rows(project, "scores", 1) == 0  # nothing scored before the refusal


def test_the_runs_list_shows_how_much_of_the_project_a_run_covers_and_where_it_came_from_in_80_columns(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for run_id in ("1", "2"):
        assert run(capsys, "score", "--project", str(project), "--run", run_id, "-q")[0] == 0
    code, out, _ = run(capsys, "runs", "--project", str(project))
    lines = out.splitlines()
    assert code == 0 and lines[0].split()[-4:] == ["all", "predicted", "F1", "pred"]
    # run 2 predicted 2 of the 4 pages: 0.25 over all of them, 0.5 over its own, each said
    assert lines[1].split()[-3:] == ["1.0000", "4/4", "1.0000"] and lines[2].strip() == "from whole"
    assert lines[3].split()[-3:] == ["0.2500", "2/4", "0.5000"] and lines[4].strip() == "from part"
    assert lines[3].split()[3].endswith("Z") and lines[3].split()[3][:2] == "20"  # the date it started
    assert all(len(line) <= 80 for line in lines[:5])
    assert "F1 pred is the mean over the scored pages it has one for" in out
    listed = json.loads(run(capsys, "runs", "--project", str(project), "--json")[1])
    assert [(r["scored_with_prediction"], r["f1_with_prediction"]) for r in listed] == [(4, 1.0), (2, 0.5)]


def test_a_long_method_and_long_settings_keep_the_row_within_80_columns(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = predictions(tmp_path / ("a-folder-with-a-rather-long-name-" * 3), {"1": True})
    (folder / "_run").mkdir()
    (folder / "_run" / "run.json").write_text(json.dumps({
        "method": "a-method-with-a-long-name", "parameters": {f"setting_{n}": n for n in range(20)}}),
        encoding="utf-8")
    assert run(capsys, "runs", "--project", str(project), "--add", str(folder))[0] == 0
    lines = run(capsys, "runs", "--project", str(project))[1].splitlines()
    assert lines[5].split()[:2] == ["3", "a-metho…"] and lines[6].strip().startswith("from a-folder-with")
    assert all(len(line) <= 80 for line in lines[:7])
    shutil.rmtree(folder)


def test_a_comparison_says_which_pages_a_run_predicted_on_other_pages_of_the_same_names(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = predictions(tmp_path / "other", dict.fromkeys(["1", "2"], True))
    (other / "_run").mkdir()
    (other / "_run" / "run.json").write_text(json.dumps({"method": "oracle"}), encoding="utf-8")
    made_on = {"status": "done", "page": {"sha256": "0" * 64, "texts": "another page's texts"}}
    (other / "_run" / "2.json").write_text(json.dumps(made_on), encoding="utf-8")
    assert run(capsys, "runs", "--project", str(project), "--add", str(other))[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "3")
    assert code == 0 and "warning: run 3: 1 page of the run (2) was predicted on another page" in err
    assert "warning: run 1:" not in err
