"""What reads a page's name back from a project or a dataset holds it to one rule only: its files must land in
the folder asked for. Import refused only names that are paths until 2026-12-05, so an older project may hold a
page named `1<TAB>copy`, and a dataset may hold a file `a<TAB>b.html`: export, synth and restore-page take them as
they always did. A saved copy's name that is no hash fails its own page (`project copy` names it), and a trajectory
step's screenshot named `step-1` is no screenshot of the project, not a fault."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.page.dataset import lands_outside, page_name_is_path, page_name_problem
from recordlens.core.store.files import stored_file
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, demo_project, folder_files, run

OLD_NAME = "1\tcopy"  # as an import before 2026-12-05 stored a file `1<TAB>copy.html`


def an_older_project(capsys: pytest.CaptureFixture[str], folder: Path) -> Path:
    """The demo project with page 1 named as an older import could name it."""
    project = demo_project(capsys, folder)
    with sqlite3.connect(project / "project.db") as db:
        db.execute("UPDATE pages SET name = ? WHERE name = '1'", (OLD_NAME,))
    return project


def test_the_path_rule_is_where_the_file_lands_not_the_names_characters(tmp_path: Path) -> None:
    folder = tmp_path / "out" / "html"
    folder.mkdir(parents=True)
    for kept in ("a\tb.html", "C:notes.html", "...html", "x (2).html"):  # `C:` names a drive on Windows only
        assert lands_outside(folder, kept, kept) is None, kept
    (folder / "link.html").symlink_to(tmp_path / "elsewhere.html")  # resolved: it would land elsewhere
    for refused in ("../../notes.html", str(tmp_path / "abs.html"), "a/../b.html", "link.html"):
        assert "outside" in (lands_outside(folder, refused, refused) or ""), refused
    assert "names no file" in (lands_outside(folder, "a\0b.html", "a\0b") or "")
    assert page_name_is_path(OLD_NAME) is None and "holds a tab" in (page_name_problem(OLD_NAME) or "")
    assert "is a path" in (page_name_is_path("../x") or "")


def test_export_writes_an_older_projects_page_named_with_a_tab(tmp_path: Path, capsys) -> None:
    project = an_older_project(capsys, tmp_path / "P")
    code, out, err = run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out",
                         str(tmp_path / "out"), "-q")
    assert code == 0, err
    assert "exported 4 page(s)" in out and "not exported" not in out + err
    assert (tmp_path / "out" / "html" / f"{OLD_NAME}.html").is_file()
    assert (tmp_path / "out" / "gt" / f"{OLD_NAME}.json").is_file()


def test_synth_of_an_older_project_takes_its_page_named_with_a_tab(tmp_path: Path, capsys) -> None:
    project = an_older_project(capsys, tmp_path / "P")
    code, _, err = run(capsys, "synth", "--project", str(project), "--out", str(tmp_path / "syn"), "--variants", "1",
                       "--formats", "html", "-q")
    assert code == 0, err
    assert (tmp_path / "syn" / "html" / f"{OLD_NAME}_v1.html").is_file()
    assert (tmp_path / "syn" / "gt" / f"{OLD_NAME}_v1.json").is_file()


def test_synth_of_a_dataset_takes_a_file_named_with_a_tab(tmp_path: Path, capsys) -> None:
    dataset = tmp_path / "D"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gt").mkdir()
    shutil.copy(DEMO / "html" / "1.html", dataset / "html" / "a\tb.html")
    shutil.copy(DEMO / "gt" / "1.json", dataset / "gt" / "a\tb.json")
    code, _, err = run(capsys, "synth", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"), "--out",
                       str(tmp_path / "syn"), "--variants", "1", "--formats", "html", "-q")
    assert code == 0, err
    assert set(folder_files(tmp_path / "syn")) >= {"html/a\tb_v1.html", "gt/a\tb_v1.json"}


def test_restore_page_puts_back_an_older_projects_page_named_with_a_tab(tmp_path: Path, capsys) -> None:
    project = an_older_project(capsys, tmp_path / "P")
    assert run(capsys, "project", "remove-page", OLD_NAME, "--project", str(project))[0] == 0
    (copy,) = (project / "removed").glob("*.json")
    code, _, err = run(capsys, "project", "restore-page", str(copy), "--project", str(project))
    assert code == 0, err
    with open_project(project) as opened:
        assert opened.has_page(OLD_NAME)


def test_project_copy_names_the_page_whose_saved_copy_is_named_by_no_hash(tmp_path: Path, capsys) -> None:
    project = demo_project(capsys, tmp_path / "P")
    with sqlite3.connect(project / "project.db") as db:
        (digest,) = db.execute("SELECT snapshot FROM pages WHERE name = '2'").fetchone()
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("UPDATE snapshots SET hash = 'h' WHERE hash = ?", (digest,))
        db.execute("UPDATE pages SET snapshot = 'h' WHERE snapshot = ?", (digest,))
    code, _, err = run(capsys, "project", "copy", str(project), str(tmp_path / "copy"))
    assert code == 2
    assert "lacks the saved page of 1 page(s) (2;" in err, err
    assert "'h' is not the name of a saved copy" in err and "remove-page" in err, err


def test_a_screenshot_named_by_no_hash_is_none_of_the_projects(tmp_path: Path, capsys) -> None:
    project = demo_project(capsys, tmp_path / "P")
    assert stored_file(project, "step-1", ".png") is None
    assert stored_file(project, "../../x", ".png") is None
    with open_project(project) as opened:
        assert opened.agent.screenshot_file("step-1") is None  # the trajectory viewer asks so of every step
        assert opened.agent.screenshot_file("ab" * 32) is None
        info = opened.page("1")
        assert stored_file(project, info.snapshot, info.suffix) == opened.snapshot_file("1")
