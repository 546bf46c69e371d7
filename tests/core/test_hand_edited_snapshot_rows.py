"""A project whose database was edited by hand at one page's snapshot row (a snapshot that is no hash, no row of
the snapshot, a suffix that is a path, warnings that are no JSON) or whose saved copy is gone: the commands that
walk every page say that page, with what is wrong, and go on with the others (`labels check`: exit 1; the page
list lists every page; `score` of a run, as of a dataset's page it cannot read: the figures over the others, said
as over N of M pages, exit 1). Nothing of the project's pages is changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store.project import open_project
from tests.core.cli_runs import EXTRACT, demo_project, run

pytestmark = pytest.mark.timeout(300)

NOT_A_HASH = "nothash"
PAGE_2 = "(SELECT snapshot FROM pages WHERE name = '2')"
# Each edit of page 2's row, and what the commands say of it
EDITS = {
    "no snapshot row": (["PRAGMA foreign_keys = OFF", f"UPDATE pages SET snapshot = '{NOT_A_HASH}' WHERE name = '2'"],
                        f"its saved copy '{NOT_A_HASH}' has no row in the project's snapshots table"),
    "not a hash": (["PRAGMA foreign_keys = OFF", f"UPDATE snapshots SET hash = '{NOT_A_HASH}' WHERE hash = {PAGE_2}",
                    f"UPDATE pages SET snapshot = '{NOT_A_HASH}' WHERE name = '2'"],
                   f"'{NOT_A_HASH}' is not the name of a saved copy"),
    "suffix a path": ([f"UPDATE snapshots SET suffix = '../x' WHERE hash = {PAGE_2}"],
                      "'../x' is not the suffix of a saved copy"),
}


def edited(folder: Path, capsys: pytest.CaptureFixture[str], statements: list[str]) -> Path:
    """The demo project in `folder` with run 1 of its pages, then the `statements` run on its database."""
    project = demo_project(capsys, folder / "p")
    assert run(capsys, *EXTRACT, str(folder / "run"), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(folder / "run"))[0] == 0
    db = sqlite3.connect(project / "project.db")
    try:
        for statement in statements:
            db.execute(statement)
        db.commit()
    finally:
        db.close()
    return project


def pages_and_snapshots(project: Path) -> list[tuple]:
    db = sqlite3.connect(project / "project.db")
    try:
        return [*db.execute("SELECT * FROM pages ORDER BY id"), *db.execute("SELECT * FROM snapshots ORDER BY hash")]
    finally:
        db.close()


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_labels_check_says_the_page_and_checks_the_others(edit: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    statements, wrong = EDITS[edit]
    project = edited(tmp_path, capsys, statements)
    before = pages_and_snapshots(project)
    code, out, err = run(capsys, "labels", "check", "--project", str(project))
    assert code == 1, err
    assert f"page 2: cannot be checked: {wrong}" in out
    assert "3 pages:" in out and "1 page(s) could not be checked" in out  # the summary, with the findings
    assert pages_and_snapshots(project) == before


def test_labels_check_says_a_copy_gone_and_checks_the_others(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    project = edited(tmp_path, capsys, [])
    with open_project(project) as opened:
        opened.snapshot_file("3").unlink()
    code, out, err = run(capsys, "labels", "check", "--project", str(project))
    assert code == 1
    assert "page 3: cannot be checked: its saved copy" in out and "is missing" in out
    assert "3 pages:" in out


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_score_names_every_such_page_and_scores_the_others(edit: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    statements, wrong = EDITS[edit]
    project = edited(tmp_path, capsys, statements)
    with open_project(project) as opened:
        opened.snapshot_file("3").unlink()  # and another page's copy gone: both said at once
    before = pages_and_snapshots(project)
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 1
    assert f"  2: {wrong}" in out and "pages 2 of 4 (2 left out, below)" in out
    assert "  3: its saved copy" in out and "is missing" in out
    assert "2 pages of 4 with ground truth cannot be scored" in err
    assert "Traceback" not in err
    with open_project(project) as opened:
        assert [score.page for score in opened.runs.scores(1)] == ["1", "4"]
    assert pages_and_snapshots(project) == before


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_page_list_holds_every_page(edit: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    project = edited(tmp_path, capsys, EDITS[edit][0])
    with open_project(project) as opened:
        assert [info.name for info in opened.pages()] == ["1", "2", "3", "4"]
        assert opened.saved_copy_problem("1") is None
        assert EDITS[edit][1] in (opened.saved_copy_problem("2") or "")


def test_warnings_that_are_no_json_are_said_and_the_pages_listed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    project = edited(tmp_path, capsys, ["UPDATE pages SET warnings = 'not json' WHERE name = '2'"])
    with open_project(project) as opened:
        assert [info.name for info in opened.pages()] == ["1", "2", "3", "4"]
        assert "cannot be read: the project's database was changed by hand" in opened.page("2").warnings[0]
    assert run(capsys, "labels", "check", "--project", str(project))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_copy_of_the_project_is_refused_naming_the_page(edit: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """`project copy` would lack page 2's saved copy: refused before anything is written, the page and the fault
    named (a page whose snapshot row is gone was left out of the check, and its copy out of the copy)."""
    project = edited(tmp_path, capsys, EDITS[edit][0])
    before = pages_and_snapshots(project)
    code, _out, err = run(capsys, "project", "copy", str(project), str(tmp_path / "copy"))
    assert code != 0
    assert "lacks the saved page of 1 page(s) (2;" in err and EDITS[edit][1] in err, err
    assert not (tmp_path / "copy").exists() and pages_and_snapshots(project) == before


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_command_that_stops_at_such_a_page_names_it(edit: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """`train --project` reads every labelled page and stops at one it cannot read: which page is said."""
    project = edited(tmp_path, capsys, EDITS[edit][0])
    code, _out, err = run(capsys, "train", "--project", str(project), "--out", str(tmp_path / "m.json"))
    assert code != 0
    assert f"page 2: {EDITS[edit][1]}" in err, err


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_synth_of_the_project_leaves_such_a_page_out_naming_it_once(edit: str, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    project = edited(tmp_path, capsys, EDITS[edit][0])
    _code, _out, err = run(capsys, "synth", "--project", str(project), "--out", str(tmp_path / "synth"))
    assert f"page 2: {EDITS[edit][1]}" in err and "page 2: page 2:" not in err, err
