"""`export --format nexteval` of a project whose database was changed by hand at one page's snapshot row leaves
that page out and says why as the project says a page's problem, `page '2': ...`: it said `page '2''s saved
copy: ...`, a possessive glued to the quoted name."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.core.store.exporter import about_page
from tests.core.cli_runs import demo_project, run

pytestmark = pytest.mark.timeout(300)

PAGE_2 = "(SELECT snapshot FROM pages WHERE name = '2')"
# Each edit of page 2's row, and the whole line the export says of it
EDITS = {
    "no snapshot row": (["PRAGMA foreign_keys = OFF", "UPDATE pages SET snapshot = 'nothash' WHERE name = '2'"],
                        "not exported: page '2': its saved copy 'nothash' has no row in the project's snapshots "
                        "table: the project's database was changed by hand"),
    "suffix a path": ([f"UPDATE snapshots SET suffix = '../x' WHERE hash = {PAGE_2}"],
                      "not exported: page '2': '../x' is not the suffix of a saved copy (such as .html or .mhtml): "
                      "the project's database or the copy it was read from was changed by hand"),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_page_left_out_is_said_without_a_glued_possessive(edit: str, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    statements, said = EDITS[edit]
    project = demo_project(capsys, tmp_path / "p")
    with sqlite3.connect(project / "project.db") as db:
        for statement in statements:
            db.execute(statement)
    code, out, err = run(capsys, "export", "--project", str(project), "--format", "nexteval",
                         "--out", str(tmp_path / "out"), "-q")
    assert code == 1 and "; 1 not exported" in out
    assert said in err.splitlines()
    assert "''s" not in err and "'s saved copy" not in err


def test_a_page_s_problem_names_the_page_quoted_as_names_are() -> None:
    assert about_page("2", "its saved copy is gone") == "page '2': its saved copy is gone"
    assert about_page("Bob's list", "x") == "page 'Bob\\'s list': x"  # the quote in a name escaped, as names are
