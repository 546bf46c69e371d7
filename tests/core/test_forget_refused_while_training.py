"""Setting a project's learnt model aside (the app's Propose → Propose with the shipped model again) while a training
of the project runs in another process is refused in the training lock's words, naming that process: the
training writes a model as it ends, which would undo the setting aside unsaid. Whether or not a model is in place
yet; once the training has ended, it is set aside as before, and a killed training's lock does not stand in the
way."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.errors import RecordLensError
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store.learnt_model import (
    FORGOTTEN_MODEL,
    TRAINING_LOCK,
    forget_project_model,
    project_model_path,
    training_the_project,
)
from tests.child_lines import first_line
from tests.training_held_elsewhere import training_held_elsewhere


def refusal(project_dir: Path, pid: int) -> str:
    return (f"the project {project_dir} is being trained by process {pid} on {socket.gethostname()} right now "
            f"({project_dir / TRAINING_LOCK}): its learnt model is not set aside, as that training writes one as "
            "it ends, which Propose would use; wait for it to end (or stop it), then set the model aside")


@pytest.fixture
def with_a_model(tmp_path: Path) -> Path:
    model = project_model_path(tmp_path)
    model.parent.mkdir(parents=True)
    model.write_text(SelectorModel([]).to_json(), encoding="utf-8")
    return tmp_path


def test_setting_the_model_aside_while_another_process_trains_is_refused_naming_it(with_a_model: Path) -> None:
    model = project_model_path(with_a_model)
    learnt = model.read_bytes()
    with training_held_elsewhere(with_a_model) as pid:
        with pytest.raises(RecordLensError) as refused:
            forget_project_model(with_a_model)
        assert str(refused.value) == refusal(with_a_model, pid)
        assert model.read_bytes() == learnt and not (with_a_model / FORGOTTEN_MODEL).exists()
    kept = forget_project_model(with_a_model)  # the training over: set aside as ever
    assert kept == with_a_model / FORGOTTEN_MODEL and kept.read_bytes() == learnt and not model.exists()
    assert not (with_a_model / TRAINING_LOCK).exists()  # the lock taken for the move is given back


def test_a_project_that_has_no_model_yet_but_is_being_trained_is_refused_too(tmp_path: Path) -> None:
    """"this project has learnt no model" would be false a moment later, when the training writes one."""
    with training_held_elsewhere(tmp_path) as pid:
        with pytest.raises(RecordLensError) as refused:
            forget_project_model(tmp_path)
        assert str(refused.value) == refusal(tmp_path, pid)
    assert forget_project_model(tmp_path) is None
    assert not (tmp_path / TRAINING_LOCK).exists()


def test_a_killed_trainings_lock_does_not_refuse(with_a_model: Path, caplog: pytest.LogCaptureFixture) -> None:
    lock = with_a_model / TRAINING_LOCK
    killed = os.getpid() + 10_000_000  # no such process: the file's line, and no process holding the lock
    lock.write_text(f"{socket.gethostname()} {killed}\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="recordlens.core.store.learnt_model"):
        assert forget_project_model(with_a_model) == with_a_model / FORGOTTEN_MODEL
    assert not project_model_path(with_a_model).exists()
    assert not lock.exists()  # taken over, and given back
    assert caplog.messages == [f"a training of the project {with_a_model} by process {killed} ended without "
                               "releasing its lock (it was killed); the lock is taken over"]


# Sets the model aside, holding the lock for its move until its stdin closes (the move made slow), then ends
SETTING_ASIDE = """
import sys
from recordlens.core.store import learnt_model

real = learnt_model._set_aside
def slow(project_dir, path):
    print("setting aside", flush=True)
    sys.stdin.read()
    return real(project_dir, path)
learnt_model._set_aside = slow
learnt_model.forget_project_model(sys.argv[1])
"""


def test_a_training_refused_while_the_model_is_set_aside_is_told_that_not_a_training(with_a_model: Path) -> None:
    """The lock `forget_project_model` holds for its move refused a training in a training's words ("is being
    trained by process N ... then train again if its labels changed"): untrue, no training ran. Its line now says
    what holds it; a second setting aside is told so too, and a killed one's lock is said as that when taken over."""
    child = subprocess.Popen([sys.executable, "-c", SETTING_ASIDE, str(with_a_model)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert first_line(child) == "setting aside\n", child.communicate(timeout=60)
        holding = (f"the learnt model of the project {with_a_model} is being set aside by process {child.pid} on "
                   f"{socket.gethostname()} right now ({with_a_model / TRAINING_LOCK})")
        with pytest.raises(RecordLensError) as training, training_the_project(with_a_model):
            pass
        assert str(training.value) == f"{holding}: train once that is done (it takes a moment)"
        with pytest.raises(RecordLensError) as forgetting:
            forget_project_model(with_a_model)
        assert str(forgetting.value) == (f"{holding}: nothing more to do, it is kept in "
                                         f"{with_a_model / FORGOTTEN_MODEL} once that is done")
        child.kill()  # killed in the middle of its move: its lock's line stays, naming it
    finally:
        child.communicate(timeout=60)
    assert (with_a_model / TRAINING_LOCK).exists() and project_model_path(with_a_model).exists()
    with training_the_project(with_a_model) as notes:
        assert notes == [f"a setting aside of the learnt model of the project {with_a_model} by process {child.pid} "
                         "ended without releasing its lock (it was killed); the lock is taken over"]
