"""Owner files and locks (core/owner_files.py): one process holds a lock; a killed holder's is taken over."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.owner_files import Held, holder, owner_line, process_alive, purpose_of, release, take
from tests.child_lines import first_line

HOLD = """
import sys, time
from pathlib import Path
from recordlens.core.owner_files import take
lock = take(Path(sys.argv[1]))
print("held", flush=True)
time.sleep(60)
"""


def a_finished_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def test_a_process_is_alive_while_it_runs_and_another_hosts_is_assumed_to_be() -> None:
    here = socket.gethostname()
    assert process_alive(here, os.getpid()) and not process_alive(here, a_finished_pid())
    assert not process_alive(here, 0) and process_alive("another-host.example", 1)
    assert owner_line() == f"{here} {os.getpid()}\n"


def test_one_holder_at_a_time_and_the_file_goes_with_the_release(tmp_path: Path) -> None:
    path = tmp_path / ".lock"
    assert holder(path) is False
    lock = take(path)
    assert lock.stale == [] and holder(path) == (socket.gethostname(), os.getpid())
    with pytest.raises(Held) as held:  # a second taker (another open file, as another process has)
        take(path)
    assert held.value.owner == (socket.gethostname(), os.getpid())
    release(lock)
    assert not path.exists() and holder(path) is False
    release(take(path))  # free again


def test_a_lock_left_by_a_killed_holder_is_taken_over_and_named(tmp_path: Path) -> None:
    path = tmp_path / ".lock"
    holding = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert first_line(holding).strip() == "held"
        with pytest.raises(Held) as held:
            take(path)
        assert held.value.owner == (socket.gethostname(), holding.pid)
    finally:
        holding.kill()  # killed: it never releases, its file stays, the system frees its lock
        holding.wait(timeout=30)
    assert path.exists() and holder(path) is False
    lock = take(path)
    assert lock.stale == [(socket.gethostname(), holding.pid)]
    release(lock)


def test_a_file_naming_a_live_process_but_holding_no_lock_holds_nothing(tmp_path: Path) -> None:
    path = tmp_path / ".lock"
    path.write_text(owner_line())  # a reused process id, or a copied folder: the lock is what counts
    assert holder(path) is False
    release(take(path))


def test_a_lock_held_for_a_moment_is_waited_for_a_little(tmp_path: Path) -> None:
    import threading

    path = tmp_path / ".lock"
    looking = take(path)  # another process looking who holds it: it lets go at once
    threading.Timer(0.05, release, (looking,)).start()
    # a minute of tries, taken as soon as it is let go: a busy machine may run the timer's thread later than the
    # 0.4 s that 20 tries gave it
    lock = take(path, attempts=3000, pause_s=0.02)
    assert holder(path) == (socket.gethostname(), os.getpid())
    release(lock)


def a_flock_failing_with(code: int):
    def flock(fd: int, operation: int) -> None:
        raise OSError(code, os.strerror(code))
    return flock


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_a_file_system_without_locks_is_told_apart_from_a_held_lock(tmp_path: Path, monkeypatch) -> None:
    import errno

    from recordlens.core import owner_files

    path = tmp_path / ".lock"
    monkeypatch.setattr(owner_files.fcntl, "flock", a_flock_failing_with(errno.EWOULDBLOCK))
    with pytest.raises(Held):  # what flock says of a lock another process holds
        take(path, attempts=1)
    for code in (errno.ENOLCK, errno.EOPNOTSUPP):  # an SMB or FUSE mount: no lock to be had, nobody holds it
        monkeypatch.setattr(owner_files.fcntl, "flock", a_flock_failing_with(code))
        with pytest.raises(OSError) as failed:
            take(path)
        assert failed.value.errno == code and not isinstance(failed.value, Held)
        # the file is judged by its line alone: a live process named holds it, a finished one nothing
        path.write_text(owner_line())
        assert holder(path) == (socket.gethostname(), os.getpid())
        path.write_text(f"{socket.gethostname()} {a_finished_pid()}\n")
        assert holder(path) is False
        path.write_text("")
        assert holder(path) is False


def test_a_lock_says_what_its_holder_does_when_its_taker_said(tmp_path: Path) -> None:
    """One lock guarding two kinds of work (a project's training, and setting its model aside) names which holds it:
    to the taker refused, to one looking, and to the taker of a killed holder's lock. A line that says nothing (an
    earlier RecordLens's) still names its holder."""
    path = tmp_path / ".lock"
    lock = take(path, purpose="setting-aside")
    assert path.read_text(encoding="utf-8") == f"{socket.gethostname()} {os.getpid()} setting-aside\n"
    with pytest.raises(Held) as held:
        take(path, purpose="training")
    assert (held.value.owner, held.value.purpose) == ((socket.gethostname(), os.getpid()), "setting-aside")
    assert holder(path) == (socket.gethostname(), os.getpid()) and purpose_of(path) == "setting-aside"
    os.close(lock.fd)  # as a killed holder leaves it: the line stays, the system's lock goes
    taken = take(path, purpose="training")
    assert (taken.stale, taken.stale_purpose) == ([(socket.gethostname(), os.getpid())], "setting-aside")
    release(taken)
    path.write_text(owner_line())
    earlier = take(path)
    assert (earlier.stale, earlier.stale_purpose) == ([(socket.gethostname(), os.getpid())], "")
    assert purpose_of(path) == ""
    release(earlier)
