"""A temporary snapshot file's age is judged on the clock of the folder it is in: on a network share that two
machines use, one machine's clock minutes off the server's neither removes the other machine's write in flight
(its import then failed) nor keeps a killed write's leftover for ever."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.store import files
from recordlens.core.store.files import SNAPSHOTS, STALE_TEMPORARY_S, remove_stale_temporaries

HOUR = 3600.0


@pytest.fixture
def snapshots(tmp_path: Path) -> Iterator[Path]:
    """A project's snapshots folder while another import writes into it (it holds the writers' lock), so that only
    temporaries old enough are removed."""
    (tmp_path / SNAPSHOTS / "ab").mkdir(parents=True)
    with files._writers_lock(tmp_path, exclusive=False, wait=True):
        yield tmp_path / SNAPSHOTS


def temporaries(folder: Path) -> tuple[Path, Path]:
    """A write in flight (touched 10 s ago by the folder's clock) and a killed write's leftover (an hour ago).
    The tmp_path folder's clock is this machine's real one: the folder's own clock in what follows."""
    folder_now = time.time()
    in_flight = folder / "ab" / ".ab12.html.other1.tmp"
    leftover = folder / "ab" / ".ab34.html.killed.tmp"
    for path, age in ((in_flight, 10.0), (leftover, HOUR)):
        path.write_bytes(b"half a page")
        os.utime(path, (folder_now - age, folder_now - age))
    return in_flight, leftover


def local_clock_off_by(monkeypatch: pytest.MonkeyPatch, offset: float) -> None:
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + offset)


@pytest.mark.parametrize("offset", [HOUR, -HOUR, 0.0], ids=["local-ahead", "local-behind", "same-clock"])
def test_a_temporarys_age_is_judged_on_its_folders_clock(snapshots: Path, monkeypatch: pytest.MonkeyPatch,
                                                         offset: float) -> None:
    in_flight, leftover = temporaries(snapshots)
    local_clock_off_by(monkeypatch, offset)
    assert remove_stale_temporaries(snapshots.parent) == 1
    assert in_flight.exists(), "another machine's write in flight was removed"
    assert not leftover.exists(), "a killed write's leftover was kept"
    assert {p.name for p in snapshots.rglob("*")} == {"ab", in_flight.name}  # the clock's probe is gone


def test_the_limit_is_kept_to_the_second_as_on_one_machine(snapshots: Path) -> None:
    folder_now = time.time()
    nearly = snapshots / "ab" / ".ab56.html.nearly.tmp"
    just = snapshots / "ab" / ".ab78.html.just.tmp"
    for path, age in ((nearly, STALE_TEMPORARY_S - 30), (just, STALE_TEMPORARY_S + 30)):
        path.write_bytes(b"x")
        os.utime(path, (folder_now - age, folder_now - age))
    assert remove_stale_temporaries(snapshots.parent) == 1
    assert nearly.exists() and not just.exists()


def test_a_probe_left_by_a_cleaning_that_was_killed_is_removed_but_not_counted(snapshots: Path) -> None:
    """The count is the importer's "N temporary snapshot file(s) left by an import that was stopped": a probe is
    none of those."""
    probe = snapshots / ".clock.x1y2z3.tmp"
    probe.write_bytes(b"")
    old = time.time() - HOUR
    os.utime(probe, (old, old))
    assert remove_stale_temporaries(snapshots.parent) == 0
    assert not probe.exists()
    leftover = snapshots / "ab" / ".ab12.html.k9.tmp"
    for path in (probe, leftover):
        path.write_bytes(b"")
        os.utime(path, (old, old))
    assert remove_stale_temporaries(snapshots.parent) == 1
    assert not probe.exists() and not leftover.exists()


def test_a_folder_that_takes_no_new_file_is_judged_by_the_local_clock_as_before(
        snapshots: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    in_flight, leftover = temporaries(snapshots)

    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError("read-only share")

    monkeypatch.setattr(files.tempfile, "mkstemp", refused)
    assert remove_stale_temporaries(snapshots.parent) == 1
    assert in_flight.exists() and not leftover.exists()


def test_with_no_write_under_way_a_leftover_stamped_by_a_clock_ahead_goes_too(tmp_path: Path) -> None:
    """No write holds the lock: every leftover goes, one whose time is ahead of this machine's clock as well."""
    (tmp_path / SNAPSHOTS / "ab").mkdir(parents=True)
    leftover = tmp_path / SNAPSHOTS / "ab" / ".ab90.html.ahead.tmp"
    leftover.write_bytes(b"half a page")
    ahead = time.time() + HOUR
    os.utime(leftover, (ahead, ahead))
    assert remove_stale_temporaries(tmp_path) == 1
    assert not leftover.exists()


def test_an_import_says_nothing_of_a_probe_it_removed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The leftover of a cleaning, not of an import: "temporary snapshot file(s) left by an import" would be untrue."""
    from recordlens.core.resource_files import resource_path
    from tests.core.cli_runs import run

    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0
    (project / SNAPSHOTS).mkdir(exist_ok=True)
    probe = project / SNAPSHOTS / ".clock.x1y2z3.tmp"
    probe.write_bytes(b"")
    code, out, err = run(capsys, "import", str(resource_path("demo", "dataset")), "--project", str(project))
    assert code == 0 and "temporary snapshot file" not in out + err
    assert not probe.exists()
