"""A saved page (or another file) given where a project folder goes: the advice must be one that works. It said
"create one with `recordlens project init page.html`", which is then refused ("exists and is not a folder")."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import StoreError
from recordlens.core.store.project import init_project, open_project
from tests.core.cli_runs import DEMO, run


@pytest.fixture
def page(tmp_path: Path) -> Path:
    path = tmp_path / "101.html"
    path.write_bytes((DEMO / "html" / "1.html").read_bytes())
    return path


def test_a_page_given_as_the_project_is_told_to_be_imported_into_one(
        page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "runs", "--project", str(page))
    assert code == 2
    assert f"{page} is a file, not a RecordLens project" in err
    assert f"`recordlens import {shlex.quote(str(page))} --project P`" in err
    assert f"project init {page}" not in err  # refused, if followed


def test_project_init_of_a_page_says_how_to_make_a_project_of_it(page: Path) -> None:
    with pytest.raises(StoreError, match=r"exists and is not a folder \(a saved page: .*recordlens import"):
        init_project(page)
    assert page.is_file()


def test_another_file_is_not_offered_a_project_init_on_itself(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("kept", encoding="utf-8")
    with pytest.raises(StoreError) as raised:
        open_project(notes)
    assert f"{notes} is a file, not a RecordLens project" in str(raised.value)
    assert "`recordlens project init DIR`" in str(raised.value) and f"init {notes}" not in str(raised.value)
    assert notes.read_text(encoding="utf-8") == "kept"
    assert main(["project", "init", str(tmp_path / "p")]) == 0  # a folder is still made a project as before
