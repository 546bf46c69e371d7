"""Owner files and locks (core/owner_files.py): a live owner holds, a killed one's lock is taken over."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordlens.core.owner_files import Held, holder, owner_line, process_alive, release, take


def a_finished_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    return int(done.stdout)


def test_a_process_is_alive_while_it_runs_and_another_hosts_is_assumed_to_be() -> None:
    here = socket.gethostname()
    assert process_alive(here, os.getpid()) and not process_alive(here, a_finished_pid())
    assert not process_alive(here, 0) and process_alive("another-host.example", 1)
    assert owner_line() == f"{here} {os.getpid()}\n"


def test_a_lock_is_taken_once_held_while_its_process_lives_and_taken_over_after(tmp_path: Path) -> None:
    lock = tmp_path / ".lock"
    assert holder(lock) is False
    assert take(lock) == [] and holder(lock) == (socket.gethostname(), os.getpid())
    with pytest.raises(Held) as held:
        take(lock)
    assert held.value.owner == (socket.gethostname(), os.getpid())
    release(lock)
    assert not lock.exists() and holder(lock) is False
    gone = a_finished_pid()
    lock.write_text(f"{socket.gethostname()} {gone}\n")  # its process was killed
    assert holder(lock) is False and take(lock) == [(socket.gethostname(), gone)]
    assert lock.read_text().split()[1] == str(os.getpid())


def test_an_empty_lock_is_being_written_while_young_and_stale_when_old(tmp_path: Path) -> None:
    lock = tmp_path / ".lock"
    lock.write_text("")
    assert holder(lock) is None
    with pytest.raises(Held) as held:
        take(lock)
    assert held.value.owner is None
    old = time.time() - 60
    os.utime(lock, (old, old))
    assert holder(lock) is False and take(lock) == [(socket.gethostname(), 0)]
