"""The shipped selector model missing from the app's folder is an incomplete install, said as any file of the folder
missing is (one line naming it, how to install again, exit status 2), also where the app only meets it as it builds
the demo project's runs: the words are core's, which `recordlens` says too. A copy of the package, as
test_incomplete_install_said.py makes it, from which the model is deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.test_incomplete_install_said import COMMAND_ENTRY, FROZEN_ENTRY, assert_said_in_one_line, start

pytestmark = pytest.mark.app

MODEL = "models/selector.json.gz"


@pytest.mark.parametrize("entry", [FROZEN_ENTRY, COMMAND_ENTRY], ids=["packaged", "app.main"])
def test_the_app_says_the_shipped_model_missing_as_an_incomplete_install(tmp_path: Path, entry: list[str]) -> None:
    assert_said_in_one_line(start(entry, tmp_path, MODEL), tmp_path, MODEL)
