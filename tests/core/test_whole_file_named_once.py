"""A whole file given its name beside others, never over one: a new project's `project.db`, a copy kept in
`removed/` (a removed page's, the database before an upgrade), a restored page's copy moved aside. Each was named
by a function of its own (`project._name_it`, `removed_files._name_taken_by`), which differed where the file
system has no hard links and the rename fails: init left its empty placeholder under the name `project.db` (the
folder then looked like a project being made, and a failed init left more than nothing); it went on without links
after any refusal of the link, not only the file system's "no hard links"; and a copy moved aside was not written
through to the disk. One function (`removed_files.name_file`) now names them all, as the safer of the two did."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from recordlens.core.store import removed_files
from recordlens.core.store.project import PROJECT_DB, init_project
from recordlens.core.store.removed_files import move_new


def no_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object, **__: object) -> None:
        raise PermissionError(errno.EPERM, "Operation not permitted")  # what vfat says to link(2)

    monkeypatch.setattr(os, "link", refused)


def test_an_init_whose_rename_fails_without_hard_links_leaves_no_project_db(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "P"
    no_hard_links(monkeypatch)
    real_replace = os.replace

    def failing(source: str | Path, target: str | Path) -> None:
        if Path(target).name == PROJECT_DB:
            raise OSError(errno.EIO, "Input/output error")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OSError, match="Input/output error"):
        init_project(folder)
    assert not folder.exists()  # not even an empty project.db: a failed init leaves nothing of itself


def test_a_link_refused_for_another_reason_than_no_hard_links_is_said_as_it_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "P"

    def failing(*_: object, **__: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "link", failing)
    with pytest.raises(OSError, match="Input/output error"):
        init_project(folder)
    assert not folder.exists()


def test_a_copy_moved_aside_is_named_through_to_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, into = tmp_path / "bea.2026-01-02T03-04-05.json", tmp_path / "restored"
    source.write_text("{}", encoding="utf-8")
    synced: list[Path] = []
    real_sync = removed_files.sync_folder

    def sync(folder: Path) -> None:
        synced.append(folder)
        real_sync(folder)

    monkeypatch.setattr(removed_files, "sync_folder", sync)
    moved = move_new(source, into)
    assert moved == into / source.name and moved.read_text(encoding="utf-8") == "{}" and not source.exists()
    assert synced == [into]


def test_an_interrupt_just_after_the_rename_leaves_the_file_under_its_new_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without hard links the file is renamed over the empty file that holds its name, which is given back when
    the rename fails: an interrupt that comes once the rename is done must not take the file itself away."""
    source, into = tmp_path / "bea.2026-01-02T03-04-05.json", tmp_path / "restored"
    source.write_text("{}", encoding="utf-8")
    no_hard_links(monkeypatch)
    real_replace = os.replace

    def interrupted_after(source: str | Path, target: str | Path) -> None:
        real_replace(source, target)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted_after)
    with pytest.raises(KeyboardInterrupt):
        move_new(source, into)
    assert (into / source.name).read_text(encoding="utf-8") == "{}"


def test_a_name_taken_meanwhile_is_never_written_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both ways (a hard link, or an empty file taken first): the next free name, the file there untouched."""
    for links in (True, False):
        into = tmp_path / f"links-{links}"
        into.mkdir()
        (into / "bea.json").write_text("another's", encoding="utf-8")
        source = tmp_path / f"bea-{links}.json"
        source.write_text("mine", encoding="utf-8")
        with monkeypatch.context() as patched:
            if not links:
                no_hard_links(patched)
            moved = removed_files.name_file(source, into, ["bea.json", "bea-1.json"])
        assert moved == into / "bea-1.json" and moved.read_text(encoding="utf-8") == "mine"
        assert (into / "bea.json").read_text(encoding="utf-8") == "another's"
        with pytest.raises(FileExistsError):
            removed_files.name_file(source if source.exists() else moved, into, ["bea.json", "bea-1.json"])
