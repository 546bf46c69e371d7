"""Pages removed, restored or added from the command line while the app is open: the status bar names them (a
few, and how many in all), and a page put back with `recordlens project restore-page` is called restored, not
added, when it comes back with its labels' history."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as recordlens
from tests.app.test_history_dialog import ITEM
from tests.app.test_live_project import PAGE, project_dir
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app

__all__ = ["project_dir"]


def said(window) -> str:
    return window.statusBar().currentMessage()


def test_pages_removed_restored_and_added_elsewhere_are_named(qtbot, tmp_path: Path, project_dir: Path, capsys):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        assert recordlens(["project", "remove-page", "--project", str(project_dir), "2"]) == 0
        window.check_project()
        assert "page 2 removed elsewhere (another window, or the command line)" in said(window)

        copy = next((project_dir / "removed").glob("*-2.*.json"))
        assert recordlens(["project", "restore-page", "--project", str(project_dir), str(copy)]) == 0
        window.check_project()
        assert window.page_list.all_names() == ["1", "2"]
        assert "page 2 restored elsewhere" in said(window)

        more = tmp_path / "more"
        (more / "html").mkdir(parents=True)
        (more / "gt").mkdir()
        for k in range(3, 10):
            (more / "html" / f"{k}.html").write_text(PAGE.format(title=f"Page {k}"), encoding="utf-8")
            (more / "gt" / f"{k}.json").write_text(json.dumps([[ITEM.format(1)]]), encoding="utf-8")
        assert recordlens(["import", str(more), "--project", str(project_dir)]) == 0
        window.check_project()
        assert "7 pages added (3, 4, 5, 6, 7, ...) elsewhere" in said(window)

        assert recordlens(["project", "remove-page", "--project", str(project_dir), "3", "4"]) == 0
        capsys.readouterr()
        window.check_project()
        assert "2 pages removed (3, 4) elsewhere" in said(window)
    finally:
        window.close()
