"""A project whose folder's name is not valid UTF-8 (Linux allows any bytes but / in a name) opens in the app:
the window's watch of its database read the path SQLite opened as text and stopped the start with a traceback."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.app.demo_project import ITEM
from tests.app.list_projects import PLAIN_LIST
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def test_a_project_in_a_folder_named_in_bytes_that_are_not_utf8_opens_and_saves(qtbot, tmp_path: Path) -> None:
    made = imported_project(tmp_path, {"html/1.html": PLAIN_LIST, "gt/1.json": json.dumps([[ITEM.format(1)]])})
    folder = tmp_path / os.fsdecode(b"proj-\xff\xfe")
    shutil.move(made, folder)
    window = open_window(folder, tmp_path / "settings.json")
    try:
        assert window.watch.file == folder / "project.db"
        assert window.project.pages()[0].name == "1"
        assert window.windowTitle().startswith("RecordLens — proj-\\xff\\xfe — page 1")  # its bytes shown, not dropped
    finally:
        window.close()
        window.shutdown()
