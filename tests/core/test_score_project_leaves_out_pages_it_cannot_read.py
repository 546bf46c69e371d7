"""`score --project P --run ID` of a damaged project, one of whose pages' saved copies is gone (deleted by hand) or
cannot be read (emptied): the rule of `score` and `bench` for a dataset's page they cannot read (`LEFT_OUT_UNREAD`),
not a refusal of every page. The other pages are scored (and their scores stored), the page is named with why in one
line (its copy's path as a hint writes it), the figures are over N of M pages, `--json` holds `pages_not_read`, and
the command exits 1; with no page left to score, it is refused (exit 2). The figures are those `score` gives of the
same run's folder on a dataset that lacks the page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.runs.evaluate import pages_not_read_message
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, EXTRACT, demo_project, run

pytestmark = pytest.mark.timeout(300)


def project_with_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo project, in a folder whose name holds a space, with run 1 (mdr) of its four pages, scored once (so
    that each page has a score stored)."""
    project = demo_project(capsys, tmp_path / "my project")
    assert run(capsys, *EXTRACT, str(tmp_path / "run"), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "run"))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    return project


def saved_copy(project: Path, page: str) -> Path:
    with open_project(project) as opened:
        return opened.snapshot_file(page)


def test_a_page_whose_saved_copy_is_gone_is_left_out_and_the_others_scored(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    copy = saved_copy(project, "3")
    copy.unlink()
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 1, err
    assert "pages 3 of 4 (1 left out, below)" in out
    assert "pages left out of the figures (1; their saved page or their labels cannot be read):" in out
    said = [line for line in out.splitlines() if line.startswith("  3: ")]
    assert len(said) == 1 and f"its saved copy {hint_path(copy)} is missing" in said[0], out
    assert hint_path(copy).startswith("'")  # the folder's name quoted as a hint quotes it
    assert f"warning: {pages_not_read_message({'3': ''}, 4)}" in err
    assert "Traceback" not in err
    with open_project(project) as opened:  # the others' scores stored; page 3's, from before, as it was
        assert [score.page for score in opened.runs.scores(1)] == ["1", "2", "3", "4"]

    code, out, _ = run(capsys, "score", "--project", str(project), "--run", "1", "-q", "--json")
    assert code == 1
    document = json.loads(out)
    assert list(document["pages_not_read"]) == ["3"] and hint_path(copy) in document["pages_not_read"]["3"]
    assert [page["page"] for page in document["pages"]] == ["1", "2", "4"]

    # the same figures as `score` gives of the run's folder on the dataset without page 3
    pages = tmp_path / "pages"
    shutil.copytree(DEMO / "html", pages)
    (pages / "3.html").unlink()
    code, out, err = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(DEMO / "gt"), "--pages",
                         str(pages), "-q", "--json")
    assert code == 1, err
    of_the_folder = json.loads(out)
    assert list(of_the_folder["pages_not_read"]) == ["3"]
    assert of_the_folder["mean"] == pytest.approx(document["mean"])


def test_a_saved_copy_that_cannot_be_read_is_left_out_too(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    saved_copy(project, "2").write_bytes(b"")  # emptied by hand
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q", "--ceiling")
    assert code == 1, err
    assert "pages 3 of 4 (1 left out, below)" in out and "\n  2: " in out
    assert "over 3 pages" in out  # the ceiling, over the pages that can be read, as the figures are
    assert "Traceback" not in err


def test_no_page_left_to_score_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    for page in "1234":
        saved_copy(project, page).unlink()
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 2 and out == ""
    message = " ".join(err.split())
    assert f"none of the 4 pages with ground truth in the project {hint_path(project)} can be scored" in message
    assert "Traceback" not in err
