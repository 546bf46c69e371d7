"""The one atomic-write helper: whole files or none, the umask's mode, nothing left behind on failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core import atomic


@pytest.fixture
def umask_027():
    old = os.umask(0o027)
    yield
    os.umask(old)


def test_written_files_get_the_umask_mode_not_mkstemps(tmp_path: Path, umask_027: None) -> None:
    target = atomic.write_text(tmp_path / "sub" / "a.json", "[]")
    assert target.read_text() == "[]"
    assert target.stat().st_mode & 0o777 == 0o640
    copied = atomic.copy_file(target, tmp_path / "b.json")
    assert copied.stat().st_mode & 0o777 == 0o640


def test_an_explicit_mode_wins(tmp_path: Path) -> None:
    target = atomic.write_bytes(tmp_path / "ro.bin", b"x", mode=0o444)
    assert target.stat().st_mode & 0o777 == 0o444


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = atomic.write_text(tmp_path / "a.txt", "old")


    with pytest.raises(TypeError):
        atomic.write_bytes(target, object())  # type: ignore[arg-type]
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def test_a_write_that_need_not_survive_a_power_cut_skips_the_fsyncs_and_is_still_whole(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr(atomic.os, "fsync", lambda fd: synced.append(fd))
    target = atomic.write_text(tmp_path / "settings.json", "{}", durable=False)
    assert target.read_text() == "{}" and synced == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"]
    atomic.write_text(target, "[]")
    assert len(synced) == 2  # the file and its folder


def test_a_file_with_a_name_near_the_limit_is_written_through_a_temporary_that_fits(tmp_path: Path) -> None:
    name = "é" * 120 + ".json"  # 245 bytes: a legal name, which the temporary's prefix and suffix would pass
    target = atomic.write_text(tmp_path / name, "[]")
    assert target.read_text(encoding="utf-8") == "[]" and [p.name for p in tmp_path.iterdir()] == [name]

    def fail(_handle: object) -> None:
        [temporary] = [p.name for p in tmp_path.iterdir() if p.name != name]
        assert temporary.startswith(".") and ".json." in temporary  # still found as an unfinished N.json
        assert len(temporary.encode("utf-8")) <= 255
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic._write_with(tmp_path / name, fail, None)
    assert [p.name for p in tmp_path.iterdir()] == [name]
