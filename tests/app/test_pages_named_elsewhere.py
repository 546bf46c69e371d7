"""Pages removed, restored or added from the command line while the app is open: the status bar names them (a
few, and how many in all), and a page put back with `recordlens project restore-page` is called restored, not
added, when it comes back with its labels' history."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main as recordlens
from tests.app.list_projects import import_elsewhere, two_lists
from tests.app.window_helpers import open_window, said

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, each with two true records (items 1 and 2)."""
    return two_lists(tmp_path)


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

        import_elsewhere(tmp_path, project_dir, range(3, 10))
        window.check_project()
        assert "7 pages added (3, 4, 5, 6, 7, ...) elsewhere" in said(window)

        assert recordlens(["project", "remove-page", "--project", str(project_dir), "3", "4"]) == 0
        capsys.readouterr()
        window.check_project()
        assert "2 pages removed (3, 4) elsewhere" in said(window)
    finally:
        window.close()
