"""`recordlens project copy DIR DEST` advised in the order it reads its two folders, the project first
(`core/cli/argument_advice.py`, `core/cli/project.py`): `project copy DEST --project P` was told to type `recordlens
project copy DEST P`, the destination as the project; and `project copy DEST P`, the two swapped, was told that P
"exists and is not an empty folder". Each advised command line is run, and copies the project."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from recordlens.core.cli.command import main


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project `P` in the current folder, beside a folder of other files `full`."""
    monkeypatch.chdir(tmp_path)
    assert main(["project", "init", "P"]) == 0
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine", encoding="utf-8")
    capsys.readouterr()
    return tmp_path / "P"


def said_by(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What `recordlens ARGV` said as it refused its arguments (exit 2), argparse's refusal or the command's."""
    try:
        code = main(list(argv))
    except SystemExit as stopped:
        code = stopped.code
    assert code == 2
    return capsys.readouterr().err.rstrip().splitlines()[-1]


def run_the_advised(capsys: pytest.CaptureFixture[str], said: str) -> list[str]:
    """The one `recordlens ...` command line the message names, run: it copies the project (exit 0)."""
    lines = re.findall(r"`recordlens ([^`]*)`", said)
    assert len(lines) == 1, said
    argv = shlex.split(lines[0])
    assert main(argv) == 0, capsys.readouterr().err
    capsys.readouterr()
    return argv


def copied(folder: Path) -> bool:
    return (folder / "project.db").is_file()


def test_the_project_given_as_an_option_goes_first_whichever_order_it_was_given_in(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for n, given in enumerate((["copy{n}", "--project", "P"], ["--project", "P", "copy{n}"],
                               ["copy{n}", "--project=P"], ["my copé {n}", "--project", "P"])):
        dest = given[0 if not given[0].startswith("--") else 2].format(n=n)
        argv = [word.format(n=n) for word in given]
        said = said_by(capsys, "project", "copy", *argv)
        assert f"`recordlens project copy P {shlex.quote(dest)}`" in said, said
        assert run_the_advised(capsys, said) == ["project", "copy", "P", dest]
        assert copied(project.parent / dest) and not copied(project.parent / "P" / dest)


def test_a_destination_missing_is_named_in_the_advised_line(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = said_by(capsys, "project", "copy", "--project", "P")
    assert said.endswith("as in `recordlens project copy P DEST`"), said


def test_a_destination_that_is_not_empty_is_said_refused_with_a_new_one(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = said_by(capsys, "project", "copy", "full", "--project", "P")
    assert ("full is a folder project copy refuses as DEST: it is not empty, and a project is copied into a new or "
            "empty folder; give a new one, as in `recordlens project copy P full-2`") in said, said
    assert "`recordlens project copy P full`" not in said
    run_the_advised(capsys, said)
    assert copied(project.parent / "full-2")
    # and the command given so says it too (its own words named the folder by its absolute path, and no way on)
    said = said_by(capsys, "project", "copy", "P", "full")
    assert said == ("recordlens: error: full is a folder project copy refuses as DEST: it is not empty, and a project "
                    "is copied into a new or empty folder; give a new one, as in "
                    "`recordlens project copy P full-3`"), said
    run_the_advised(capsys, said)
    assert sorted(path.name for path in (project.parent / "full").iterdir()) == ["notes.txt"]


def test_the_two_folders_swapped_are_advised_in_their_order(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = said_by(capsys, "project", "copy", "copied", "P")
    assert said == ("recordlens: error: P is the project, and copied is none: project copy takes the project first, "
                    "then the folder to copy it to, as in `recordlens project copy P copied`"), said
    run_the_advised(capsys, said)
    assert copied(project.parent / "copied")
    # swapped onto a folder of other files: the new one named
    said = said_by(capsys, "project", "copy", "full", "P")
    assert said.endswith("project copy takes the project first, then the folder to copy it to (full is not empty, "
                         "and a project is copied into a new or empty folder), as in "
                         "`recordlens project copy P full-2`"), said
    run_the_advised(capsys, said)


def test_a_folder_inside_the_project_is_advised_the_project(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: "P/snapshots is not a RecordLens project (no project.db); create one with `recordlens project init
    # P/snapshots`", a project inside the project
    said = said_by(capsys, "project", "copy", "P/snapshots", "copied")
    assert said == ("recordlens: error: P/snapshots lies in the project P: copy the project itself, as in "
                    "`recordlens project copy P copied`"), said
    run_the_advised(capsys, said)


def test_a_destination_inside_the_project_or_a_file_is_advised_a_new_folder_the_copy_takes(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = said_by(capsys, "project", "copy", "P/snapshots", "--project", "P")
    assert said.endswith("P/snapshots is a folder project copy refuses as DEST: it lies inside the project P, and a "
                         "copy is made outside it; give a new one, as in `recordlens project copy P P-2`"), said
    run_the_advised(capsys, said)
    (project.parent / "notes.txt").write_text("mine", encoding="utf-8")
    said = said_by(capsys, "project", "copy", "P", "notes.txt")
    assert said == ("recordlens: error: notes.txt is a file project copy refuses as DEST: a project is copied into a "
                    "new or empty folder; give a new one, as in `recordlens project copy P notes-2`"), said
    run_the_advised(capsys, said)
