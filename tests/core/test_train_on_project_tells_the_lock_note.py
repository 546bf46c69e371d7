"""`train_on_project` (the app's Learn) tells its caller what the project's training lock met, in the words
`train --project` warns of it: the app used to be told nothing, the note went to the log (stderr) only."""

from __future__ import annotations

import logging
import socket
from pathlib import Path

import pytest

from recordlens.core.store import train_on_project
from recordlens.core.store.learnt_model import TRAINING_LOCK
from tests.core.catalogue_pages import project_with_policy

pytestmark = pytest.mark.usefixtures("quick_fits")
KILLED = 999_999_999  # a process id no process has: its training was killed, its lock file stayed


def left_by_a_killed_training(folder: Path) -> str:
    """The lock file a killed training leaves; what taking it over says."""
    (folder / TRAINING_LOCK).parent.mkdir(parents=True, exist_ok=True)
    (folder / TRAINING_LOCK).write_text(f"{socket.gethostname()} {KILLED}\n", encoding="utf-8")
    return (f"a training of the project {folder} by process {KILLED} ended without releasing its lock (it was "
            "killed); the lock is taken over")


def test_the_lock_taken_over_is_told_to_the_caller(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=2)
    note = left_by_a_killed_training(folder)
    told: list[str] = []
    with caplog.at_level(logging.WARNING):
        train_on_project(folder, noted=told.append)
    assert told == [note]
    assert note not in caplog.text  # told once, where the caller says it
    assert not (folder / TRAINING_LOCK).exists()


def test_without_a_caller_to_tell_it_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=2)
    note = left_by_a_killed_training(folder)
    with caplog.at_level(logging.WARNING):
        train_on_project(folder)
    assert note in caplog.text
