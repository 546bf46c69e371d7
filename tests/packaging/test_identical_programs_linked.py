"""The build's link step (packaging/build.py `link_identical_programs`): PyInstaller writes `recordlens` and
`recordlens-annotator` as the same 29 MB file twice on Linux; the second becomes a hard link to the first, which the
folder's size, the archive and an unpacked copy carry once. Run on a temporary folder of stand-in programs."""

from __future__ import annotations

import os
import stat
import tarfile
from pathlib import Path

from .helpers import packaging_module

build = packaging_module("build")

PROGRAM = b"\x7fELF stand-in" + bytes(range(256)) * 400  # ~100 KB


def folder_of(tmp_path: Path, first: bytes, second: bytes) -> Path:
    folder = tmp_path / "RecordLens"
    folder.mkdir()
    for name, content in zip(build.PROGRAMS, (first, second), strict=True):
        (folder / name).write_bytes(content)
        (folder / name).chmod(0o755)
    return folder


def test_identical_programs_become_one_file_under_both_names(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, PROGRAM, PROGRAM)
    assert build.link_identical_programs(folder)
    cli, app = (folder / name for name in build.PROGRAMS)
    assert os.path.samefile(cli, app) and not app.is_symlink() and cli.stat().st_nlink == 2
    assert app.read_bytes() == PROGRAM and app.stat().st_mode & stat.S_IXUSR
    assert sorted(p.name for p in folder.iterdir()) == sorted(build.PROGRAMS)  # nothing staged left behind
    assert build.folder_size(folder) == len(PROGRAM)
    assert build.link_identical_programs(folder)  # a second run: already one file

    archive = build.write_archive(folder, tmp_path / "RecordLens.tar.gz")
    assert archive.stat().st_size < len(PROGRAM)  # once, compressed
    with tarfile.open(archive) as tar:
        member = tar.getmember("RecordLens/recordlens-annotator")
        assert member.islnk() and member.linkname == "RecordLens/recordlens"
        tar.extractall(tmp_path / "unpacked", filter="data")
    unpacked = tmp_path / "unpacked" / "RecordLens"
    assert os.path.samefile(unpacked / "recordlens", unpacked / "recordlens-annotator")
    assert (unpacked / "recordlens-annotator").read_bytes() == PROGRAM


def test_programs_that_differ_are_both_kept(tmp_path: Path) -> None:
    folder = folder_of(tmp_path, PROGRAM, PROGRAM[:-1] + b"x")  # Windows: the app has no console window
    assert not build.link_identical_programs(folder)
    cli, app = (folder / name for name in build.PROGRAMS)
    assert not os.path.samefile(cli, app) and app.read_bytes().endswith(b"x")
    assert build.folder_size(folder) == 2 * len(PROGRAM)
