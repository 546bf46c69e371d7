"""`project copy` writes every file it copies through to the disk, and each folder of the copy, before it renames
the copy into place, then the destination's folder after the rename (a verifier's finding, by strace: the saved
pages were written and the hidden folder renamed with no fsync but SQLite's of the database, so a power cut soon
after could leave a copy that looks whole, its database naming saved pages left empty). Checked by what
`os.fsync` is called on, as the strace showed it, each file and folder known by its inode."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from recordlens.core.store.project_copy import copy_project
from tests.core.cli_runs import demo_project

Inode = tuple[int, int]


def inode(path: Path) -> Inode:
    found = path.stat()
    return found.st_dev, found.st_ino


@pytest.mark.skipif(sys.platform == "win32", reason="a folder is fsynced on POSIX only")
def test_a_copy_is_written_through_before_and_after_its_rename(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    project = demo_project(capsys, tmp_path / "P")
    (project / "models").mkdir()
    (project / "models" / "selector.json").write_text("{}", encoding="utf-8")  # a model beside the pages
    events: list[tuple[str, Inode]] = []
    real_fsync, real_rename = os.fsync, os.rename

    def fsync(fd: int) -> None:
        found = os.fstat(fd)
        events.append(("fsync", (found.st_dev, found.st_ino)))
        real_fsync(fd)

    def rename(source: str | Path, target: str | Path, **kwargs: object) -> None:
        real_rename(source, target, **kwargs)
        events.append(("rename", inode(Path(target))))

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "rename", rename)
    dest = tmp_path / "copies" / "C"
    copied = copy_project(project, dest)
    monkeypatch.undo()

    renamed = events.index(("rename", inode(dest)))
    before, after = {i for _, i in events[:renamed]}, {i for _, i in events[renamed + 1:]}
    files = [path for path in dest.rglob("*") if path.is_file() and path.name != "project.db"]
    assert copied.files == len(files) >= 5  # four saved pages and the model
    assert [path for path in files if inode(path) not in before] == []
    folders = [dest, *(path for path in dest.rglob("*") if path.is_dir())]
    assert [path for path in folders if inode(path) not in before] == []
    assert inode(dest.parent) in after  # the rename itself survives a power cut
