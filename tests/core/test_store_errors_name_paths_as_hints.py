"""The store's errors and messages name a path as a hint names one (`command_hints.hint_path`): for a project folder
whose name holds a space and a byte that is not UTF-8 (`caf\\xe9 x`), the form a POSIX shell reads back as those
bytes, never the raw name (which a UTF-8 terminal cannot show, Qt drops a byte of, and a space makes ambiguous).
One error or message of each module that says them: the project's, the database's, a removed page's copy, a
project's copy, a label set set aside, the learnt model's, an import's (of a folder of pages and of a run folder),
the files kept in `removed/`, a full disk's wording and the output paths' checks."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.errors import DatasetError, RecordLensError, full_disk
from recordlens.core.output_paths import OutputPathError, writable_file
from recordlens.core.path_text import shown_bytes
from recordlens.core.store import StoreError
from recordlens.core.store.db import cannot_open
from recordlens.core.store.importer import import_paths, import_run_folder
from recordlens.core.store.label_sets import SetAside
from recordlens.core.store.learnt_model import project_pages_to_read
from recordlens.core.store.page_removal import restore_page
from recordlens.core.store.project import PROJECT_DB, init_project, open_project
from recordlens.core.store.project_copy import copy_project
from recordlens.core.store.removed_files import REMOVED, name_file
from tests.core.cli_runs import DEMO
from tests.shell_words import made_folder, read_back

ODD = "caf\udce9 x"  # a space, and the byte 0xe9 of a Latin-1 name (os.fsdecode's surrogateescape)


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    """A folder named with a space and a byte that is not UTF-8."""
    return made_folder(tmp_path / ODD)


@pytest.fixture
def project(odd: Path) -> Path:
    """A project in `odd`, holding the demo dataset's pages and labels."""
    root = odd / "P"
    with init_project(root) as made:
        assert not import_paths(made, [DEMO]).problems
    return root


def named_as_a_hint(message: str, path: Path) -> None:
    """`message` names `path` as a hint does, which `sh` reads back as the path's bytes, and never as it is."""
    hint = hint_path(path)
    assert hint in message, message
    assert read_back(hint) == [os.fsencode(path)]
    assert str(path) not in message and shown_bytes(str(path)) not in message, message


def test_the_project_s_refusal_names_its_folder_as_a_hint(odd: Path) -> None:
    with pytest.raises(StoreError) as refused:
        open_project(odd)
    named_as_a_hint(str(refused.value), odd)
    assert str(refused.value).startswith(f"{hint_path(odd)} is not a RecordLens project")


def test_a_damaged_database_is_named_as_a_hint(odd: Path) -> None:
    database = odd / PROJECT_DB
    said = cannot_open(database, sqlite3.DatabaseError("file is not a database"))
    named_as_a_hint(said, database)
    named_as_a_hint(said, odd / "snapshots")


def test_a_removed_page_s_copy_is_named_as_a_hint(project: Path) -> None:
    copy = project / REMOVED / "junk.json"
    copy.parent.mkdir()
    copy.write_text("not JSON", encoding="utf-8")
    with open_project(project) as opened, pytest.raises(StoreError) as refused:
        restore_page(opened, copy)
    named_as_a_hint(str(refused.value), copy)


def test_a_copy_s_destination_is_named_as_a_hint(project: Path) -> None:
    dest = project.parent / "taken"
    dest.mkdir()
    (dest / "file").write_text("x", encoding="utf-8")
    with pytest.raises(StoreError) as refused:
        copy_project(project, dest)
    named_as_a_hint(str(refused.value), dest.resolve())


def test_labels_not_set_aside_name_their_folder_as_a_hint(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def cannot_write(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    with open_project(project) as opened:
        opened.annotators.store("bea", {"1": ([["/html/body"]], None)})
        monkeypatch.setattr(SetAside, "keep", cannot_write)
        with pytest.raises(StoreError) as refused:
            opened.annotators.remove("bea")
    named_as_a_hint(str(refused.value), project / REMOVED / "annotators")


def test_the_learnt_model_s_refusal_names_the_project_as_a_hint(odd: Path) -> None:
    init_project(odd / "P").close()
    with pytest.raises(DatasetError) as refused:
        project_pages_to_read(odd / "P")
    named_as_a_hint(str(refused.value), odd / "P")


def test_an_import_names_its_folders_and_files_as_hints(project: Path, odd: Path) -> None:
    pages = odd / "pages"
    pages.mkdir()
    (pages / "a.html").write_text("<html><body><p>a</p></body></html>", encoding="utf-8")
    (pages / "notes.txt").write_text("notes", encoding="utf-8")
    (odd / "b.txt").write_text("not a page", encoding="utf-8")
    run_dir = odd / "run"
    run_dir.mkdir()
    with open_project(project) as opened:
        report = import_paths(opened, [pages, odd / "b.txt"])
        with pytest.raises(RecordLensError) as refused:
            import_run_folder(opened, run_dir, method="mdr")
    named_as_a_hint("\n".join(report.warnings), pages)  # its file that is no page (import_layout)
    named_as_a_hint("\n".join(map(str, report.problems)), odd / "b.txt")
    named_as_a_hint(str(refused.value), run_dir)


def test_a_name_all_taken_in_removed_is_said_with_its_folder_as_a_hint(odd: Path) -> None:
    (odd / "taken").write_text("", encoding="utf-8")
    whole = odd / "whole"
    whole.write_text("", encoding="utf-8")
    with pytest.raises(FileExistsError) as refused:
        name_file(whole, odd, ["taken"])
    named_as_a_hint(str(refused.value), odd)


def test_a_full_disk_names_the_folder_as_a_hint(odd: Path) -> None:
    named_as_a_hint(full_disk(odd, detail="No space left on device"), odd)
    assert full_disk("the project") == "the disk that holds the project is full"  # words stay words


def test_an_output_path_refused_is_named_as_a_hint(odd: Path) -> None:
    with pytest.raises(OutputPathError) as refused:
        writable_file(odd, "the model")
    named_as_a_hint(str(refused.value), odd)
