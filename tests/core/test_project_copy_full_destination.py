"""`project copy` onto a full disk names the destination's disk when the copy's database cannot be written (a
verifier's finding: SQLite's "database or disk is full" met while the database was backed up was said in the
store's wording, "the disk that holds the project is full ... what was stored is intact", which points at the disk
that has room). The destination is made full for the database alone: SQLite's own page limit on the copy's
connection gives the real SQLITE_FULL a full disk gives."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import project_copy
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"


def backed_up_onto_a_full_disk(source: sqlite3.Connection, target: Path) -> None:
    copy = sqlite3.connect(target)
    try:
        copy.execute("PRAGMA max_page_count = 2")  # room for two pages of the database, as on a full disk
        source.backup(copy)
    finally:
        copy.close()


def test_a_full_destination_is_named_not_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys) -> None:
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])
    (tmp_path / "full").mkdir()
    monkeypatch.setattr(project_copy, "_back_up", backed_up_onto_a_full_disk)
    code = main(["project", "copy", str(tmp_path / "P"), str(tmp_path / "full" / "P")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"the disk that holds {tmp_path / 'full'} is full" in err and "copy again (nothing was copied)" in err
    assert "holds the project" not in err and "what was stored is intact" not in err
    assert list((tmp_path / "full").iterdir()) == []  # nor the hidden folder the copy was made in


def test_another_database_error_of_the_copy_is_not_taken_for_a_full_disk(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])

    def refused(source: sqlite3.Connection, target: Path) -> None:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(project_copy, "_back_up", refused)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        project_copy.copy_project(tmp_path / "P", tmp_path / "copy")
    assert not (tmp_path / "copy").exists()


def test_a_full_destination_met_while_files_are_copied_is_named_not_the_hidden_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """A verifier's finding: a saved page that did not fit was said as the disk of the hidden `.P.partial-...`
    folder (already removed), because a file copy's full disk names the file read from first (Python's sendfile
    copy sets `filename` to the source, `filename2` to the target), which was taken for the project failing."""
    with init_project(tmp_path / "P") as opened:
        import_paths(opened, [DEMO])
    (tmp_path / "full").mkdir()
    real_copy = project_copy.shutil.copy2

    def copied_onto_a_full_disk(source: Path, target: Path) -> object:
        if "snapshots" in Path(target).parts:
            error = OSError(errno.ENOSPC, "No space left on device")
            error.filename, error.filename2 = str(source), str(target)  # as shutil's sendfile copy says it
            raise error
        return real_copy(source, target)

    monkeypatch.setattr(project_copy.shutil, "copy2", copied_onto_a_full_disk)
    code = main(["project", "copy", str(tmp_path / "P"), str(tmp_path / "full" / "P")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"cannot copy the project to {tmp_path / 'full' / 'P'}: the disk that holds {tmp_path / 'full'} is full" \
        in err and "copy again (nothing was copied)" in err
    assert ".partial-" not in err
    assert list((tmp_path / "full").iterdir()) == []
