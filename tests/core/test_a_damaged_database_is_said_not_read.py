"""A project database damaged under the project (an index that no longer matches its table, a table's page written
over) is said as damaged, in one message that says what SQLite finds and what to do, never read for an answer:
SQLite answers a query over a damaged index wrongly without an error (a page "not there"), so `labels check`, the
command that checks a project, has SQLite check the database first and checks no label of a damaged one; a query
deep inside another command (`score --project`, `export`) that meets the damage is said with the same advice, naming
the project's own files, not a traceback. Real projects, real SQLite files damaged as a crash or two writers would."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store import take_upgrades
from recordlens.core.store.project import PROJECT_DB, open_project
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.cli_runs import EXTRACT, demo_project, run
from tests.core.old_projects import as_earlier_schema

pytestmark = pytest.mark.timeout(300)


def _page_size_and(database: Path, sql: str) -> tuple[int, int]:
    db = sqlite3.connect(database)
    try:
        return db.execute("PRAGMA page_size").fetchone()[0], db.execute(sql).fetchone()[0]
    finally:
        db.close()


def _write_page(database: Path, number: int, size: int, data: bytes) -> None:
    with database.open("r+b") as file:
        file.seek((number - 1) * size)
        file.write(data)


def index_emptied(database: Path, index: str = "sqlite_autoindex_pages_1") -> None:
    """`index` made an empty leaf, its table's rows kept: a lookup through it finds nothing, and says nothing."""
    size, root = _page_size_and(database, f"SELECT rootpage FROM sqlite_master WHERE name = '{index}'")
    page = bytearray(size)
    page[0] = 0x0A  # a leaf index page with no cell
    page[5:7] = size.to_bytes(2, "big")
    _write_page(database, root, size, bytes(page))


def table_page_written_over(database: Path, table: str) -> None:
    """The last leaf page of `table`'s b-tree written over (its page type byte): a query that reaches the rows it
    held raises "database disk image is malformed"; the other rows are read as before."""
    size, leaf = _page_size_and(database, f"SELECT max(pageno) FROM dbstat WHERE name = '{table}' "
                                          "AND pagetype = 'leaf'")
    _write_page(database, leaf, size, b"\xff")


def project_with_a_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The demo project with run 1 (mdr) of its four pages."""
    project = demo_project(capsys, tmp_path / "P")
    assert run(capsys, *EXTRACT, str(tmp_path / "run"), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "run"))[0] == 0
    return project


def said_damaged(code: int, out: str, err: str, project: Path) -> None:
    """One message, on stderr, that the project's database is damaged and what to do with its own files."""
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("recordlens: error: "), err
    assert "Traceback" not in err
    assert "damaged" in err
    assert f"put back a copy from a backup (the pages are still in {project / 'snapshots'})" in err
    assert f"`sqlite3 {project / PROJECT_DB} .recover` may rescue labels made since the backup" in err


def test_labels_check_says_a_damaged_index_rather_than_a_page_not_there(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    index_emptied(project / PROJECT_DB)
    code, out, err = run(capsys, "labels", "check", "--project", str(project))
    said_damaged(code, out, err, project)
    assert "no label was checked" in err and "no page named" not in err
    assert '"row 1 missing from index sqlite_autoindex_pages_1"' in err  # what SQLite's check says, first lines
    assert out == ""


def test_labels_check_refuses_a_damaged_table_it_would_not_have_read(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Damage where the label checks never look (a run's predictions): before, "4 pages: 0 with label problems",
    exit 0, for a project whose database is damaged."""
    project = project_with_a_run(tmp_path, capsys)
    table_page_written_over(project / PROJECT_DB, "predictions")
    code, out, err = run(capsys, "labels", "check", "--project", str(project), "--json")
    said_damaged(code, out, err, project)
    assert "no label was checked" in err and out == ""


def test_the_copy_an_upgrade_kept_is_named_as_a_way_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    as_earlier_schema(project, SCHEMA_VERSION - 1)
    open_project(project).close()  # brought up to date: the database as it was kept in removed/
    take_upgrades()  # said by the command that made it, not by the next one
    [kept] = (project / "removed").glob("*.db")
    index_emptied(project / PROJECT_DB)
    code, out, err = run(capsys, "labels", "check", "--project", str(project))
    said_damaged(code, out, err, project)
    assert f"or, without one, the copy of the database the last upgrade kept, {kept} (as it was before" in err


def test_a_whole_project_is_checked_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    code, out, err = run(capsys, "labels", "check", "--project", str(project))
    assert code == 0 and out.startswith("4 pages: 0 with label problems"), (out, err)


def test_score_meeting_a_damaged_table_part_way_says_it_once(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    project = project_with_a_run(tmp_path, capsys)
    table_page_written_over(project / PROJECT_DB, "predictions")
    code, out, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    said_damaged(code, out, err, project)
    assert "database disk image is malformed" in err
    # what damages a project, the way a user does it unknowing too: the project's folder synced, shared or copied over
    assert ("written by two programs at once without SQLite's locks, as in a network or synced folder or when "
            "copied over while open): ") in err


@pytest.mark.parametrize("form", ["nexteval", "csv"])
def test_export_meeting_a_damaged_table_part_way_says_it_once(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              form: str) -> None:
    project = demo_project(capsys, tmp_path / "P")
    table_page_written_over(project / PROJECT_DB, "records")
    code, out, err = run(capsys, "export", "--project", str(project), "--format", form, "--out",
                         str(tmp_path / "out"), "-q")
    said_damaged(code, out, err, project)


@pytest.mark.parametrize("form", ["nexteval", "jsonl"])
def test_export_refuses_a_damaged_database_before_writing_anything(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   form: str) -> None:
    """Damage no query of the export meets (an index that finds nothing): before, the pages' labels were exported,
    exit 0, from a database SQLite's own check calls damaged."""
    project = demo_project(capsys, tmp_path / "P")
    index_emptied(project / PROJECT_DB, "records_page")
    code, out, err = run(capsys, "export", "--project", str(project), "--format", form, "--out",
                         str(tmp_path / "out"), "-q")
    said_damaged(code, out, err, project)
    assert "nothing was exported" in err and "missing from index records_page" in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*"))


def test_a_page_import_meeting_a_damaged_table_names_the_projects_own_database(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Said per page, as any page not imported: what to do names this project's files, not a bare project.db."""
    project = demo_project(capsys, tmp_path / "P")
    table_page_written_over(project / PROJECT_DB, "pages")
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "5.html").write_text("<html><body><ul><li>a</li><li>b</li></ul></body></html>",
                                             encoding="utf-8")
    code, out, err = run(capsys, "import", str(tmp_path / "new"), "--project", str(project), "-q")
    [said] = [line for line in err.splitlines() if line.startswith("not imported:")]
    assert "database disk image is malformed" in said, err
    assert f"put back a copy from a backup (the pages are still in {project / 'snapshots'})" in said
    assert f"`sqlite3 {project / PROJECT_DB} .recover` may rescue labels made since the backup" in said
