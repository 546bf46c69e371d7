"""What `score` says beside its table: a page whose true records name nothing on it (it scores 0 whatever the run
predicts), prediction files it cannot read (said as such, apart from the pages the run failed on, and the exit
says so), and how its figures are made (means of per-page figures, pooled shares, rounding)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path

DEMO = resource_path("demo", "dataset")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def copy_demo(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The demo dataset's pages and labels, and a run that predicts the labels themselves."""
    pages, gt, pred = tmp_path / "html", tmp_path / "gt", tmp_path / "run"
    shutil.copytree(DEMO / "html", pages)
    shutil.copytree(DEMO / "gt", gt)
    shutil.copytree(DEMO / "gt", pred)
    return pages, gt, pred


def test_a_page_whose_true_records_name_nothing_is_said(tmp_path: Path, capsys) -> None:
    pages, gt, pred = copy_demo(tmp_path)
    (gt / "2.json").write_text(json.dumps([["/body[1]/div[9]/text()"], ["/body[1]/nav[7]"]]), encoding="utf-8")
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q")
    assert code == 0
    assert ("warning: page 2: 2 of 2 true record(s) name nothing on the page (their XPaths name no element, or one "
            "without text)") in err
    assert "`recordlens labels check` lists them" in err
    assert "page 1:" not in err  # its labels name what they mean


def test_unreadable_prediction_files_are_said_apart_from_failed_pages(tmp_path: Path, capsys) -> None:
    pages, gt, pred = copy_demo(tmp_path)
    (pred / "2.json").write_text("not json", encoding="utf-8")
    (pred / "3.json").write_text(json.dumps({"records": []}), encoding="utf-8")
    (pred / "4.json").unlink()  # a page the run failed on
    (pred / "_run").mkdir()
    (pred / "_run" / "4.json").write_text(json.dumps({"status": "failed", "reason": "the model timed out"}),
                                          encoding="utf-8")
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q")
    assert code == 1  # the work is done, but not all of it: as `runs --add` with an unreadable N.json
    unreadable, failed = out.split("pages without a prediction")
    assert "prediction files that cannot be read (2; counted above as empty predictions" in unreadable
    assert "  2: " in unreadable and "not valid JSON" in unreadable and "  3: " in unreadable
    assert "  4: the model timed out" in failed and "2:" not in failed
    assert "run extract again" not in unreadable
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q",
                         "--json")
    document = json.loads(out)
    assert code == 1 and set(document["unreadable_pages"]) == {"2", "3"}
    # every page without a usable prediction, with why, as a project's stored run lists them
    assert set(document["failed_pages"]) == {"2", "3", "4"}


def test_the_table_says_how_its_figures_are_made(tmp_path: Path, capsys) -> None:
    pages, gt, pred = copy_demo(tmp_path)
    code, out, _ = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "-q")
    assert code == 0
    assert "(mean: the mean of the per-page figures; hallucinated records: pooled over the pages" in out


def test_a_project_run_says_which_pages_true_records_name_nothing_as_folders_do(tmp_path: Path, capsys) -> None:
    pages, gt, pred = copy_demo(tmp_path / "data")
    (gt / "2.json").write_text(json.dumps([["/body[1]/div[9]/text()"], ["/body[1]/nav[7]"]]), encoding="utf-8")
    (pred / "_run").mkdir()
    (pred / "_run" / "run.json").write_text(json.dumps({"method": "the labels"}), encoding="utf-8")
    project = tmp_path / "project"
    assert run(capsys, "project", "init", str(project))[0] == 0
    assert run(capsys, "import", "--project", str(project), str(tmp_path / "data"))[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(pred))[0] == 0
    for scored_again in (False, True):  # the second score keeps the stored one: the warning stays
        code, out, err = run(capsys, "score", "--project", str(project), "--run", "1")
        assert code == 0, (scored_again, err)
        assert ("page 2: 2 of 2 true record(s) name nothing on the page (their XPaths name no element, or one "
                "without text)") in err
        assert "page 1: " not in err.replace("page 1: run", "")
