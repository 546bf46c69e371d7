"""Ctrl+O on a folder inside a project (a new project's empty snapshots/, say) does not offer to make a project
there: it names the project the folder lies in (a project made there would nest inside it)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from recordlens.core.store import init_project
from tests.app.test_open_empty_folder_offers_a_project import open_with_ctrl_o, project_dir  # noqa: F401
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app


def test_ctrl_o_on_a_new_projects_snapshots_folder_names_the_project_and_makes_none(
        qtbot, tmp_path, project_dir, monkeypatch):  # noqa: F811 - the fixture
    new = tmp_path / "P"
    with init_project(new):
        pass
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        answering, warned = open_with_ctrl_o(window, monkeypatch, new / "snapshots", Qt.Key.Key_C)
        assert not (new / "snapshots" / "project.db").exists()
        assert not answering.asked
        assert any("lies inside the RecordLens project" in w for w in warned), warned
    finally:
        window.close()
