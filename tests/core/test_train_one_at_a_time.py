"""One training of a project's own model at a time: a second `train --project` (or the app's Learn) while one runs
in another process is refused at once, naming that process, so that no earlier model is set aside and lost; and a
`train --project` that ends with labels edited meanwhile says the model left them out, as the app's Learn does."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordlens.core.errors import RecordLensError
from recordlens.core.store.db import Provenance
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, TRAINING_LOCK, project_model_path, train_on_project
from recordlens.core.store.project import open_project
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

# `recordlens train` whose fit, once its pages are read, says so (a file) and goes on only once told to (a file);
# its fits have few trees, as the `quick_fits` fixture's
PAUSED_BEFORE_THE_FIT = """
import dataclasses, sys, time
from pathlib import Path
from recordlens.core.extract import training
from recordlens.core.cli.command import main

fitting, go = Path(sys.argv[1]), Path(sys.argv[2])
real_fit = training.fit
def fit(examples, seed=0, config=None, **options):
    fitting.touch()
    while not go.exists():
        time.sleep(0.05)
    return real_fit(examples, seed, dataclasses.replace(config or training.FitConfig(), trees=10), **options)
training.fit = fit
sys.exit(main(sys.argv[3:]))
"""


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Six pages imported with their labels (labelled), page 4 set back to in progress."""
    return six_pages_and_page_4_in_progress(tmp_path)


def _paused_training(project_dir: Path, tmp_path: Path, *more: str) -> tuple[subprocess.Popen[str], Path]:
    """`train --project` in a process of its own, paused once its pages are read (before its fit): the process, and
    the file that lets it go on."""
    fitting, go = tmp_path / "fitting", tmp_path / "go"
    child = subprocess.Popen([sys.executable, "-c", PAUSED_BEFORE_THE_FIT, str(fitting), str(go), "train",
                              "--project", str(project_dir), "-q", "--workers", "1", *more],
                             cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "HOME": str(tmp_path)})
    deadline = time.monotonic() + 120
    while not fitting.exists():
        if child.poll() is not None or time.monotonic() > deadline:
            go.touch()
            pytest.fail(f"the training never got to its fit: {child.communicate(timeout=120)}")
        time.sleep(0.05)
    return child, go


def test_a_second_training_of_a_project_is_refused_while_one_runs(project_dir: Path, tmp_path: Path, quick_fits,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1")[0] == 0
    earlier = project_model_path(project_dir).read_bytes()
    child, go = _paused_training(project_dir, tmp_path, "--seed", "1")
    try:
        code, _, err = run(capsys, "train", "--project", str(project_dir), "--seed", "2", "-q", "--workers", "1")
        assert code == 2, err
        assert (f"the project {project_dir} is being trained by process {child.pid} on ") in err, err
        assert "wait for it to end (or stop it), then train again" in err and "kept as" not in err, err
        with pytest.raises(RecordLensError, match=f"being trained by process {child.pid} "):
            train_on_project(project_dir, seed=3)  # the app's Learn
        with pytest.raises(RecordLensError, match=f"being trained by process {child.pid} "):  # named another way
            train_on_project(project_dir, seed=3, out=project_dir / "models" / ".." / "models" / "selector.json")
        assert project_model_path(project_dir).read_bytes() == earlier  # nothing written, nothing set aside
        assert not (project_dir / FORGOTTEN_MODEL).exists()
    finally:
        go.touch()
        _, said = child.communicate(timeout=300)
    assert child.returncode == 0, said
    assert f"the project's earlier model is kept as {project_dir / FORGOTTEN_MODEL}" in said, said
    assert (project_dir / FORGOTTEN_MODEL).read_bytes() == earlier  # the earlier model, kept
    assert not (project_dir / TRAINING_LOCK).exists()
    code, _, err = run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1")
    assert code == 0, err  # the lock gone with it: the next training goes ahead


def test_a_training_says_the_label_edits_made_while_it_ran_are_not_in_its_model(
        project_dir: Path, tmp_path: Path, quick_fits, capsys: pytest.CaptureFixture[str]) -> None:
    child, go = _paused_training(project_dir, tmp_path)
    try:
        with open_project(project_dir) as project:  # an edit while it trains: left out of its model, and said
            project.set_status("4", "labelled", Provenance.person("ana"))
    finally:
        go.touch()
        _, said = child.communicate(timeout=300)
    assert child.returncode == 0, said
    assert said.rstrip().endswith("warning: page 4 marked labelled while training: the model is learnt from the "
                                  "labels as they were read; train again to include the change"), said
    code, _, err = run(capsys, "train", "--project", str(project_dir), "-q", "--workers", "1")
    assert code == 0 and "while training" not in err, err  # none since it read them: nothing said
