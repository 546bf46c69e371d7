"""A file kept in `removed/` (and a new project's `project.db`) is named by a hard link, and where the file system
has none by an empty file taken first, then the file renamed over it (`removed_files.name_file`). Only the
refusals of Linux and macOS were taken for "no hard links": on Windows a FAT or exFAT drive (a USB stick) answers
CreateHardLink with ERROR_INVALID_FUNCTION, which Python says as EINVAL, so nothing could be removed, kept or made
there. A page's copy given from another drive (`project restore-page E:/bea.json`) could be neither linked nor
renamed into the project (EXDEV): it is copied in whole, then named."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from recordlens.core.store import removed_files
from recordlens.core.store.project import PROJECT_DB, init_project

NO_HARD_LINKS = {"EPERM": errno.EPERM, "ENOTSUP": errno.ENOTSUP, "EOPNOTSUPP": errno.EOPNOTSUPP,
                 "EMLINK": errno.EMLINK, "ENOSYS": errno.ENOSYS, "EINVAL (Windows: FAT, exFAT)": errno.EINVAL}


def link_refused_with(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    def refused(*_: object, **__: object) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "link", refused)


@pytest.mark.parametrize("code", NO_HARD_LINKS.values(), ids=NO_HARD_LINKS.keys())
def test_a_file_is_named_where_the_file_system_has_no_hard_links(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    link_refused_with(monkeypatch, code)
    kept = removed_files.write_new(tmp_path / "removed", "bea.T", '{"page": 1}')
    assert kept == tmp_path / "removed" / "bea.T.json" and kept.read_text(encoding="utf-8") == '{"page": 1}'
    assert [p.name for p in kept.parent.iterdir()] == ["bea.T.json"]  # no hidden copy left beside
    again = removed_files.write_new(tmp_path / "removed", "bea.T", "{}")
    assert again.name == "bea.T-1.json" and kept.read_text(encoding="utf-8") == '{"page": 1}'  # never over one


@pytest.mark.parametrize("code", NO_HARD_LINKS.values(), ids=NO_HARD_LINKS.keys())
def test_a_project_is_made_where_the_file_system_has_no_hard_links(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    link_refused_with(monkeypatch, code)
    with init_project(tmp_path / "P") as project:
        assert project.schema_version() > 0
    assert (tmp_path / "P" / PROJECT_DB).is_file()


def test_a_file_of_another_file_system_is_copied_in_then_named(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    source, into = tmp_path / "stick" / "bea.2026-01-02T03-04-05.json", tmp_path / "P" / "removed" / "restored"
    source.parent.mkdir()
    source.write_text('{"page": 1}', encoding="utf-8")
    (into / source.name).parent.mkdir(parents=True)
    (into / source.name).write_text("another's", encoding="utf-8")
    real_link, real_replace = os.link, os.replace

    def across(real):  # what link() and rename() say of a file of the stick, taken into the project's drive
        def refused(a: str | Path, b: str | Path, **options: object) -> None:
            if Path(a).parent != Path(b).parent:
                raise OSError(errno.EXDEV, "Invalid cross-device link")
            real(a, b, **options)
        return refused

    monkeypatch.setattr(os, "link", across(real_link))
    monkeypatch.setattr(os, "replace", across(real_replace))
    moved = removed_files.move_new(source, into)
    assert moved == into / "bea.2026-01-02T03-04-05-1.json" and moved.read_text(encoding="utf-8") == '{"page": 1}'
    assert not source.exists() and (into / source.name).read_text(encoding="utf-8") == "another's"
    assert sorted(p.name for p in into.iterdir()) == sorted([source.name, moved.name])  # no hidden copy left beside


def test_another_refusal_of_a_link_is_still_said_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    link_refused_with(monkeypatch, errno.EIO)
    with pytest.raises(OSError, match=os.strerror(errno.EIO)):
        removed_files.write_new(tmp_path, "bea.T", "{}")
    assert list(tmp_path.iterdir()) == []
