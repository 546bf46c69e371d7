"""What `runs --add`, `score` and `export --all-pages` say: an unreadable run description as such, the predictions a
score leaves out, and the pages an export wrote, counted as written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


@pytest.fixture
def truth_run(tmp_path: Path) -> Path:
    """A run folder that predicted the true records of the demo's 4 pages, with a run.json to spoil."""
    shutil.copytree(DEMO / "gt", tmp_path / "run")
    (tmp_path / "run" / "_run").mkdir()
    return tmp_path / "run"


@pytest.mark.parametrize(("description", "said"), [
    ("{broken", "run.json cannot be read: Expecting property name enclosed in double quotes"),
    ("[1, 2]", "run.json cannot be read: it holds a list, not a run's description"),
    ('{"version": 1}', "run.json names no method"),
])
def test_a_run_description_that_is_there_but_says_no_method_is_not_called_missing(
        project: Path, truth_run: Path, description: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    (truth_run / "_run" / "run.json").write_text(description, encoding="utf-8")
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(truth_run))
    assert code == 2 and out == ""
    assert f"{truth_run} does not say which method made it ({truth_run / '_run'}/" in err and said in err
    assert "no _run/run.json" not in err and "give its name (--method)" in err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(truth_run), "--method", "oracle")
    assert code == 0 and "stored" in err  # with its name, the run is stored (its unreadable description said)
    assert ("cannot be read" in err) == description.startswith(("{b", "["))


def test_a_folder_without_a_run_description_is_still_said_to_have_none(
        project: Path, truth_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(truth_run))
    assert code == 2 and "does not say which method made it (no _run/run.json); give its name (--method)" in err


def test_score_names_the_predictions_it_leaves_out_for_want_of_ground_truth(
        tmp_path: Path, truth_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gt = tmp_path / "gt"
    gt.mkdir()
    shutil.copy(DEMO / "gt" / "1.json", gt / "1.json")  # labels of one page: the run's 3 others are not scored
    code, _, err = run(capsys, "score", "--pred", str(truth_run), "--gt", str(gt), "--pages", str(DEMO / "html"),
                       "-q")
    assert code == 0
    assert (f"warning: {truth_run} holds predictions for 3 pages without ground truth in {gt} (2, 3, 4): not scored "
            f"(is {gt} the labels of the pages this run was made on?)") in err
    code, _, err = run(capsys, "score", "--pred", str(truth_run), "--gt", str(DEMO / "gt"), "--pages",
                       str(DEMO / "html"), "-q")
    assert code == 0 and "not scored" not in err


def test_score_of_a_stored_run_names_its_pages_not_labelled_in_one_line(
        project: Path, truth_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["project", "remove-page", "3", "--project", str(project)]) == 0
    shutil.copy(DEMO / "html" / "3.html", project.parent / "3.html")
    assert main(["import", str(project.parent / "3.html"), "--project", str(project), "-q"]) == 0  # new: unlabelled
    (truth_run / "_run" / "run.json").write_text(json.dumps({"method": "oracle"}), encoding="utf-8")
    assert run(capsys, "runs", "--project", str(project), "--add", str(truth_run))[0] == 0
    code, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0
    assert "warning: run 1 holds predictions for 1 page not marked labelled or reviewed (3): not scored" in err


def test_export_of_all_pages_counts_the_unlabelled_pages_it_wrote_apart(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "extra.html").write_text("<html><body><p>A page not labelled yet</p></body></html>",
                                         encoding="utf-8")
    assert main(["import", str(tmp_path / "extra.html"), "--project", str(project), "-q"]) == 0
    capsys.readouterr()
    out_dir = tmp_path / "out"
    code, out, _ = run(capsys, "export", "--project", str(project), "-f", "nexteval", "-o", str(out_dir),
                       "--all-pages", "-q")
    assert code == 0 and len(list((out_dir / "html").iterdir())) == 5 and len(list((out_dir / "gt").iterdir())) == 4
    assert out.startswith("exported 4 labelled page(s) with their ")
    assert "record(s) as ground truth and 1 more page(s) without (html only) as nexteval to" in out
