"""The shipped selector model missing from the app's folder is said at the app's start, in one line naming it, exit
status 2, as `recordlens extract` says it: the start check once left it out, so the app started and only Propose
failed. Run through the packaged folder's entry script (packaging/frozen_main.py) on a copy of the package without
the model, as tests/app/test_incomplete_install_said.py runs it for the other files the app reads at start."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from recordlens.annotator.install_check import start_files
from recordlens.core.extract.selector import DEFAULT_MODEL
from recordlens.core.store.project import init_project
from tests.app.test_incomplete_install_said import CHILD_TIMEOUT_S, FROZEN_ENTRY, app_folder, assert_said_in_one_line

pytestmark = pytest.mark.app

MODEL = "models/selector.json.gz"  # DEFAULT_MODEL, inside resources/


def test_the_shipped_model_is_among_the_files_checked_at_start() -> None:
    assert DEFAULT_MODEL.as_posix().endswith(f"resources/{MODEL}")
    assert DEFAULT_MODEL in start_files()


def test_the_shipped_model_missing_is_said_in_one_line_at_the_start(tmp_path: Path) -> None:
    """On a project of the user's (the demo's build reads the model, and so said it already): nothing else at the
    start reads the model, which Propose reads only when asked."""
    init_project(tmp_path / "project").close()
    env = {
        **os.environ,
        "PYTHONPATH": str(app_folder(tmp_path, MODEL)),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    done = subprocess.run(
        [*FROZEN_ENTRY, str(tmp_path / "project"), "--screenshot", str(tmp_path / "shot.png")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT_S,
    )
    assert_said_in_one_line(done, tmp_path, MODEL)
