"""Propose → Propose with the shipped model again while a training of the project runs elsewhere (another window's
Learn, `recordlens train --project` in a terminal) is refused in the training lock's words, naming its process:
said as done, it would be undone unsaid a moment later, when that training writes its model. Once the training
has ended, the model is set aside as before."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store import project_model_path
from tests.app.window_helpers import said
from tests.training_held_elsewhere import training_held_elsewhere

pytestmark = pytest.mark.app

FORGET = "forget_model"


def test_the_shipped_model_is_not_chosen_while_another_process_trains(window: MainWindow,
                                                                       project_dir: Path) -> None:
    model = project_model_path(project_dir)
    model.parent.mkdir(parents=True, exist_ok=True)
    model.write_text(SelectorModel([]).to_json(), encoding="utf-8")
    learnt = model.read_bytes()
    lock = project_dir / "models" / ".training.lock"
    with training_held_elsewhere(project_dir) as pid:
        window.actions_by_name[FORGET].trigger()
        assert said(window) == (
            f"Propose with the shipped model again refused: the project {project_dir} is being trained by process "
            f"{pid} on {socket.gethostname()} right now ({lock}): its learnt model is not set aside, as that "
            "training writes one as it ends, which Propose would use; wait for it to end (or stop it), then set "
            "the model aside")
        assert model.read_bytes() == learnt and not (project_dir / "models" / "selector.forgotten.json").exists()
    window.actions_by_name[FORGET].trigger()  # the training over
    assert said(window) == ("Propose uses the shipped model again; the learnt one is kept as "
                            "models/selector.forgotten.json")
    assert not model.exists()


def test_a_project_without_a_model_yet_is_not_said_to_use_the_shipped_one_while_it_is_trained(
        window: MainWindow, project_dir: Path) -> None:
    assert not project_model_path(project_dir).exists()
    with training_held_elsewhere(project_dir) as pid:
        window.actions_by_name[FORGET].trigger()
        assert said(window).startswith("Propose with the shipped model again refused: the project "
                                       f"{project_dir} is being trained by process {pid} on "), said(window)
    window.actions_by_name[FORGET].trigger()
    assert said(window) == "this project has learnt no model: Propose already uses the shipped one"
