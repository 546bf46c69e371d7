"""What the user is told after a project is brought up from an earlier schema reads well on a terminal and in a
message box: short lines, one thing each (the schemas, that earlier versions can no longer open it, what is kept,
how to go back), not one line of 600 characters. Going back is given as commands to run as printed, in a POSIX
shell, whatever the project's folder is called (a space in it, say); the files kept are named from the project's
folder, so that no name in the text runs into the words around it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.store import open_project, take_upgrades
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, PROJECT_MODEL
from recordlens.core.store.schema import SCHEMA_VERSION
from tests.core.cli_runs import run
from tests.core.old_projects import a_version_3_project, version_of

COMMAND_INDENT = "    "  # the lines of the message that are commands, one each
LONGEST_LINE = 105  # a line of words, without the project's own folder in it: whatever a terminal's width, it reads


def going_back(said: str) -> list[str]:
    """The commands the message gives to go back, as printed."""
    return [line.removeprefix(COMMAND_INDENT) for line in said.splitlines() if line.startswith(COMMAND_INDENT)]


def gone_back_as_said(said: str, shell: str = "sh") -> None:
    """Go back to the project as it was as a user does: the message's commands pasted into a shell."""
    done = subprocess.run([shell, "-c", "\n".join(going_back(said))], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done


def an_upgrade_said(old: Path) -> str:
    open_project(old).close()
    (upgrade,) = take_upgrades()
    return upgrade.message()


def test_the_upgrade_is_said_in_short_lines(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "my shop")
    said = an_upgrade_said(old)
    lines = said.splitlines()
    assert lines[0] == f"{hint_path(old)}: project brought up from schema 3 to {SCHEMA_VERSION}."  # quoted: a space
    assert len(lines) >= 5
    assert all(len(line.replace(hint_path(old), "P").replace(str(old), "P")) <= LONGEST_LINE for line in lines), said
    assert "earlier recordlens versions can no longer open it" in said.lower()
    (kept,) = (old / "removed").glob("project-schema-3.*.db")
    assert f"The database as it was is kept in removed/{kept.name}." in [line.strip() for line in lines]


def test_going_back_is_commands_that_run_as_printed_from_a_folder_named_with_a_space(tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "my shop")
    (old / "models").mkdir()
    (old / PROJECT_MODEL).write_bytes(b'{"said": "earlier"}')
    (old / FORGOTTEN_MODEL).write_bytes(b'{"said": "set aside earlier"}')
    said = an_upgrade_said(old)
    commands = going_back(said)
    assert commands[0] == f"cd '{old}' &&"  # quoted: the space is part of the folder's name
    (old / PROJECT_MODEL).write_bytes(b'{"said": "learnt since"}')
    with open_project(old) as project:  # a crash leaves a write-ahead log beside the database
        with project.writing() as db:
            db.execute("INSERT INTO pages (name, snapshot, imported_at, updated_at) SELECT '8', snapshot, 't', 't' "
                       "FROM pages WHERE name = '7'")
        shutil.copy(old / "project.db-wal", tmp_path / "wal")
    shutil.copy(tmp_path / "wal", old / "project.db-wal")
    gone_back_as_said(said)
    assert version_of(old / "project.db") == 3 and not (old / "project.db-wal").exists()
    assert (old / PROJECT_MODEL).read_bytes() == b'{"said": "earlier"}'
    assert (old / FORGOTTEN_MODEL).read_bytes() == b'{"said": "set aside earlier"}'
    assert list((old / "removed").glob("project-schema-3.*")) != []  # what was kept is kept still


def test_a_project_that_had_no_model_is_said_so_and_goes_back_without_the_models_learnt_since(
        tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "my shop")
    said = an_upgrade_said(old)
    assert "It had no learnt model." in [line.strip() for line in said.splitlines()]
    (old / "models").mkdir()
    (old / PROJECT_MODEL).write_bytes(b'{"said": "learnt since"}')
    gone_back_as_said(said)
    assert not (old / "models").exists() and version_of(old / "project.db") == 3


def test_a_folder_named_in_bytes_not_utf8_is_shown_by_its_bytes_and_gone_back_to_in_sh_and_bash(
        tmp_path: Path) -> None:
    old = a_version_3_project(tmp_path / "lat\udce9n1")
    said = an_upgrade_said(old)
    assert said.startswith(f"{hint_path(old)}: project brought up") and "\udce9" not in said  # as a hint writes it
    assert "lat\\0351n1" in said.splitlines()[0]  # the byte, as `printf %b` reads it back
    for shell in ("sh", "bash"):  # the commands run as printed in a POSIX shell (dash here), and in bash
        (old / "models").mkdir()
        (old / PROJECT_MODEL).write_bytes(b'{"said": "learnt since"}')
        gone_back_as_said(said, shell)
        assert not (old / "models").exists() and version_of(old / "project.db") == 3


def test_going_back_from_a_folder_since_moved_stops_at_the_cd(tmp_path: Path) -> None:
    """Pasted whole, the commands stop at the first that fails: the project moved since, its `cd` fails, and the
    folder the shell is in keeps its own models/ and database."""
    old = a_version_3_project(tmp_path / "my shop")
    said = an_upgrade_said(old)
    old.rename(tmp_path / "moved")
    here = tmp_path / "another project"
    (here / "models").mkdir(parents=True)
    (here / "models" / "precious.json").write_bytes(b"{}")
    (here / "project.db").write_bytes(b"another")
    done = subprocess.run(["sh", "-c", "\n".join(going_back(said))], cwd=here, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode != 0 and "my shop" in done.stderr
    assert (here / "models" / "precious.json").exists() and (here / "project.db").read_bytes() == b"another"


def test_the_command_line_says_it_once_each_line_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = a_version_3_project(tmp_path / "my shop")
    code, _, err = run(capsys, "project", "remove-page", "7", "--project", str(old))
    assert code == 0
    assert f"recordlens: {hint_path(old)}: project brought up from schema 3 to {SCHEMA_VERSION}.\n" in err
    said = err[err.index("recordlens: ") + len("recordlens: "):]
    assert going_back(said)[0] == f"cd '{old}' &&"
