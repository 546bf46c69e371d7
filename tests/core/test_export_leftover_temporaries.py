"""A JSONL or CSV export killed part way (kill -9) leaves its hidden temporary file beside the target (`.NAME.*.tmp`,
as large as the export was when killed), which nothing else removes: the next export of that same file removes
those untouched for STALE_TEMPORARY_S by the folder's own clock (an export running now streams into its own and
keeps it fresh), and says so; the hidden files of any other name are left alone."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.cli.command import main
from recordlens.core.store import open_project
from recordlens.core.store.exporter import export_file, export_project
from recordlens.core.store.files import STALE_TEMPORARY_S, Removed
from tests.core.cli_runs import demo_project
from tests.core.stalled_exports import export_stalled_at_its_last_page

EARLIER = b"the earlier export\n"
HALF = b'{"page": "half an export"}\n' * 10  # 270 bytes


def aged(path: Path, data: bytes, age_s: float) -> Path:
    """`path` holding `data`, last modified `age_s` ago by the folder's clock (this machine's, for tmp_path)."""
    path.write_bytes(data)
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def earlier_export(capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str) -> tuple[Path, Path, Path]:
    """The demo project, an export folder, and in it the target of a `fmt` export holding an earlier export."""
    project = demo_project(capsys, tmp_path / "P")
    out = tmp_path / "out"
    out.mkdir()
    target = export_file(out, fmt)
    target.write_bytes(EARLIER)
    return project, out, target


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_next_export_removes_its_own_stale_leftovers_only_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    project, out, target = earlier_export(capsys, tmp_path, fmt)
    other = "csv" if fmt == "jsonl" else "jsonl"
    stale = aged(out / f".labels.{fmt}.k1ll3d_x.tmp", HALF, STALE_TEMPORARY_S + 60)
    kept = [
        aged(out / f".labels.{fmt}.runn1ng_.tmp", HALF, 10),  # an export of the same file, running now
        aged(out / f".labels.{other}.k1ll3d_x.tmp", HALF, 3600),  # the other format's: its own export's to judge
        aged(out / f".labels.{fmt}.old.k1ll3d_x.tmp", HALF, 3600),  # a file named labels.FMT.old's
        aged(out / f".labels.{fmt}.k1ll3d.tmp", HALF, 3600),  # not a name mkstemp makes (6 random characters)
        aged(out / f"labels.{fmt}.k1ll3d_x.tmp", HALF, 3600),  # not hidden
        aged(out / "notes.txt", HALF, 3600),
    ]
    capsys.readouterr()
    assert main(["export", "--project", str(project), "--format", fmt, "--out", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    assert not stale.exists()
    assert all(path.read_bytes() == HALF for path in kept)
    assert target.read_bytes() != EARLIER  # the export itself went ahead
    assert f"removed 1 hidden file ({len(HALF):,} bytes) beside {target}" in err


def test_an_export_with_no_leftover_says_nothing_of_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    out = tmp_path / "out"
    capsys.readouterr()
    assert main(["export", "--project", str(project), "--format", "jsonl", "--out", str(out), "-q"]) == 0
    assert "hidden file" not in capsys.readouterr().err
    assert [path.name for path in out.iterdir()] == ["labels.jsonl"]


@pytest.mark.parametrize("name", ["labels.jsonl", "x" * 240 + ".jsonl", "[a*]?.csv"], ids=["plain", "long", "glob"])
def test_temporaries_of_finds_the_file_a_write_of_that_target_is_streaming_into(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    found: list[list[Path]] = []

    def pieces() -> Iterator[str]:
        yield "first\n"
        found.append(atomic.temporaries_of(target))
        yield "second\n"

    atomic.write_text_pieces(target, pieces())
    [[in_flight]] = found
    assert in_flight.parent == tmp_path and in_flight.name.startswith(".") and in_flight.name.endswith(".tmp")
    assert atomic.temporaries_of(target) == []  # renamed over the target once whole
    assert atomic.temporaries_of(tmp_path / "no folder" / name) == []


def killed_export(project: Path, fmt: str, out: Path) -> Path:
    """Run an export in a child process, kill -9 it part way; the hidden file it left."""
    with export_stalled_at_its_last_page(project, fmt, out):
        pass
    [leftover] = atomic.temporaries_of(export_file(out, fmt))
    return leftover


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_leftover_of_a_killed_export_is_removed_by_a_later_export_once_stale(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    project, out, target = earlier_export(capsys, tmp_path, fmt)
    leftover = killed_export(project, fmt, out)
    size = leftover.stat().st_size
    assert size > 0 and target.read_bytes() == EARLIER

    with open_project(project) as opened:
        right_after = export_project(opened, fmt, out)  # as fresh as an export running now: left alone
    assert right_after.leftovers_removed == Removed(0, 0) and leftover.exists()

    then = time.time() - STALE_TEMPORARY_S - 60
    os.utime(leftover, (then, then))
    with open_project(project) as opened:
        later = export_project(opened, fmt, out)
    assert later.leftovers_removed == Removed(1, size)
    assert not leftover.exists()
    assert sorted(path.name for path in out.iterdir()) == [target.name]


@pytest.mark.parametrize("offset", [3600.0, -3600.0], ids=["local-ahead", "local-behind"])
def test_a_leftovers_age_is_judged_on_the_export_folders_clock(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, offset: float) -> None:
    project = demo_project(capsys, tmp_path / "P")
    out = tmp_path / "out"
    out.mkdir()
    fresh = aged(out / ".labels.jsonl.runn1ng_.tmp", HALF, 10)
    stale = aged(out / ".labels.jsonl.k1ll3d_x.tmp", HALF, STALE_TEMPORARY_S + 60)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + offset)  # this machine's clock off the folder's (a share's)
    with open_project(project) as opened:
        summary = export_project(opened, "jsonl", out)
    assert summary.leftovers_removed == Removed(1, len(HALF))
    assert fresh.exists() and not stale.exists()
