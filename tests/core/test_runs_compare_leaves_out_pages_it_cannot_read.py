"""`runs --compare A B` of a project one of whose pages' saved copies is gone (deleted by hand): by the one rule of
`score` for a page it cannot read (`LEFT_OUT_UNREAD`), not a refusal of the whole project. The two runs are compared
over the pages both can be read on, whether they had to be scored first or were scored before the copy went (a
stored score of a copy that is gone is not compared: `score --project` leaves the page out too); the page is named
with why (its copy's path as a hint writes it), the means are said as over N of M pages, `--json` holds
`pages_not_read`, and the command exits 1; with no page left to compare, it is refused (exit 2). The project's folder
is named with a space and a byte that is not UTF-8."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.runs.evaluate import pages_not_read_message
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, run
from tests.core.test_runs_cli_delete_compare import predictions
from tests.shell_words import made_folder

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo dataset's 4 labelled pages in `caf\\xe9/my project`, with run 1 right on every page and run 2 right on
    page 1, wrong on page 2 and without pages 3 and 4 (neither scored yet)."""
    named = tmp_path / os.fsdecode(b"caf\xe9")
    made_folder(named)
    folder = named / "my project"
    assert run(capsys, "project", "init", str(folder))[0] == 0
    assert run(capsys, "import", str(DEMO), "--project", str(folder), "-q")[0] == 0
    whole = predictions(tmp_path / "whole", dict.fromkeys(["1", "2", "3", "4"], True))
    part = predictions(tmp_path / "part", {"1": True, "2": False})
    for runs_folder in (whole, part):
        assert run(capsys, "runs", "--project", str(folder), "--add", str(runs_folder), "--method", "oracle")[0] == 0
    return folder


def delete_copy(project: Path, page: str) -> Path:
    with open_project(project) as opened:
        copy = opened.snapshot_file(page)
    copy.unlink()
    return copy


@pytest.mark.parametrize("scored_before", [False, True], ids=["scored-now", "scored-before"])
def test_the_runs_are_compared_over_the_pages_that_can_be_read(project: Path, scored_before: bool,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    if scored_before:
        for run_id in ("1", "2"):
            assert run(capsys, "score", "--project", str(project), "--run", run_id, "-q")[0] == 0
    copy = delete_copy(project, "3")
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2")
    assert code == 1, err
    assert "Traceback" not in err and "nothing scored" not in err
    assert f"warning: {pages_not_read_message({'3': ''}, 4)}" in err
    lines = out.splitlines()
    assert sorted(line.split()[0] for line in lines[2:5]) == ["1", "2", "4"]
    assert lines[5].split()[:4] == ["mean", "1.0000", "0.3333", "-0.6667"], out
    assert "(the 3 pages both scored; pages 3 of 4: 1 left out, below)" in lines[5], out
    assert "pages left out of the figures (1; their saved page or their labels cannot be read):" in out
    said = [line for line in lines if line.startswith("  3: ")]
    assert len(said) == 1 and f"its saved copy {hint_path(copy)} is missing" in said[0], out
    assert hint_path(copy).startswith('"$(printf %b ')  # the folder's bytes as a shell reads them back

    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 1, err
    compared = json.loads(out)
    assert sorted(page["page"] for page in compared["pages"]) == ["1", "2", "4"]
    assert compared["mean"]["pages"] == 3 and compared["left_out_pages"] == []
    assert list(compared["pages_not_read"]) == ["3"] and hint_path(copy) in compared["pages_not_read"]["3"]


def test_the_figures_are_those_score_gives_of_each_run(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    delete_copy(project, "3")
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2", "--json")
    assert code == 1, err
    compared = json.loads(out)
    for index, run_id in enumerate(("1", "2")):
        code, out, err = run(capsys, "score", "--project", str(project), "--run", run_id, "-q", "--json")
        assert code == 1, err
        assert json.loads(out)["mean"]["f1"] == pytest.approx(compared["mean"]["f1"][index])


def test_no_page_left_to_compare_is_refused(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for run_id in ("1", "2"):  # scored before: the comparison itself finds the copies gone
        assert run(capsys, "score", "--project", str(project), "--run", run_id, "-q")[0] == 0
    for page in "1234":
        delete_copy(project, page)
    code, out, err = run(capsys, "runs", "--project", str(project), "--compare", "1", "2")
    assert code == 2 and out == "", out
    message = " ".join(err.split())
    assert f"none of the 4 pages with ground truth in the project {hint_path(project)} can be scored" in message
    assert "Traceback" not in err
