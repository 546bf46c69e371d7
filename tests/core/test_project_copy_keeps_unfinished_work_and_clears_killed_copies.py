"""`project copy` and what earlier work left unfinished (a verifier's findings):
- a project whose import was stopped part way was copied without the import's mark (kept in the hidden
  `.running/`), so nothing run on the copy said that pages were missing: the copy now carries the mark, says it as
  the project does (naming the copy, where the same import finishes it), and the command says it too (`notes`);
- a copy killed part way left its hidden `.DEST.partial-*` beside DEST, removed only by a later copy to that very
  DEST: a copy into the same folder now removes those of copies whose process is gone, whatever their DEST, and
  names them; a copy running now, and a hidden folder that does not say it is a copy's, are left be."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from recordlens.core.store.import_marks import AskedImport, mark_import, stopped_imports_said, unmark_import
from recordlens.core.store.project import open_project
from recordlens.core.store.project_copy import copy_project
from tests.core.cli_runs import demo_project, run

KILLED = 999_999_999  # a process id no process has


def stopped_import(project: Path, source: Path) -> None:
    """The mark an import of `source` stopped part way leaves: its pages named, two of them never brought in."""
    with open_project(project) as opened:
        held = [page.name for page in opened.pages()]
    mark = mark_import(project, AskedImport.of([source]), [*held, "never-1", "never-2"])
    assert mark is not None
    unmark_import(mark, finished=False)


def test_the_copy_of_a_project_with_a_stopped_import_says_it(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    stopped_import(project, tmp_path / "dataset")
    assert len(stopped_imports_said(project)) == 1
    dest = tmp_path / "C"
    copied = copy_project(project, dest)
    said = stopped_imports_said(dest)
    assert len(said) == 1
    assert "was stopped part way" in said[0] and "--project " + str(dest) in said[0]
    assert copied.notes == tuple(said)
    assert len(stopped_imports_said(project)) == 1  # the project copied keeps its own


def test_a_copy_of_a_project_with_nothing_unfinished_says_nothing(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    copied = copy_project(project, tmp_path / "C")
    assert copied.notes == ()
    assert not (tmp_path / "C" / ".running").exists()


def partial(folder: Path, name: str, owner: str | None) -> Path:
    left = folder / name
    (left / "snapshots").mkdir(parents=True)
    (left / "project.db").write_bytes(b"x" * 1000)
    if owner is not None:
        (left / ".copying").write_text(owner, encoding="utf-8")
    return left


def test_a_copy_removes_and_names_the_hidden_folders_of_killed_copies_beside_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    copies = tmp_path / "copies"
    killed = partial(copies, ".X.partial-ab12cd34", f"{socket.gethostname()} {KILLED}\n")
    running = partial(copies, ".Z.partial-ef56gh78", f"{socket.gethostname()} {os.getpid()}\n")
    unsaid = partial(copies, ".W.partial-ij90kl12", None)  # not known to be a copy's
    copied = copy_project(project, copies / "Y")
    assert not killed.exists()
    assert running.exists() and unsaid.exists()
    assert copied.notes == (f"removed 1 hidden folder left by copies killed part way ({killed})",)


def test_the_copy_command_says_the_unfinished_import_the_copy_holds(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    stopped_import(project, tmp_path / "dataset")
    dest = tmp_path / "C"
    status, _, err = run(capsys, "project", "copy", str(project), str(dest))
    assert status == 0, err
    assert "was stopped part way" in err and f"--project {dest}" in err
