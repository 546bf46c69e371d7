"""A page the window itself removed, put back with the `recordlens project restore-page` command its status bar
gives, is said restored, not added: the window's own edits make history entries that no look at the project
records, and its own removal is not a look either. Its history's oldest entry is what tells it from a page
imported under its name."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.cli.command import main as recordlens
from tests.app.demo_project import ITEM
from tests.app.list_projects import TITLED_LIST, import_elsewhere, two_lists
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, each with two true records (items 1 and 2)."""
    return two_lists(tmp_path)


def label_the_page_on_show(window: MainWindow) -> None:
    """Record 1 deleted and item 3 added as a record, through the window (its undo stack, its history)."""
    window.select_records([window.labels[0].id])
    window.record_actions.do_delete()
    window.edit("add a record", lambda: window.project.add_record(window.page_name or "", [ITEM.format(3)],
                                                                  window.person))
    window.reload_labels()


def remove_in_the_window(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The page on show removed with the window's own command (yes to its question); the restore command the
    status bar then gives, as its words."""
    monkeypatch.setattr(window, "ask", lambda *_, **__: True)
    window.do_remove_page()
    found = re.search(r"\(`(recordlens project restore-page [^`]+)` puts it back\)", said(window))
    assert found, said(window)
    return shlex.split(found.group(1))


def test_a_page_labelled_and_removed_in_the_window_then_restored_is_said_restored(
        qtbot, tmp_path: Path, project_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("2")
        label_the_page_on_show(window)
        command = remove_in_the_window(window, monkeypatch)
        assert window.page_list.all_names() == ["1"]

        assert recordlens(command[1:]) == 0  # as the user runs it, in a terminal
        capsys.readouterr()
        window.check_project()
        assert window.page_list.all_names() == ["1", "2"]
        assert "page 2 restored elsewhere" in said(window) and "added" not in said(window), said(window)
    finally:
        window.close()


def test_a_page_imported_under_the_name_of_one_removed_in_the_window_is_said_added(
        qtbot, tmp_path: Path, project_dir: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("2")
        label_the_page_on_show(window)
        remove_in_the_window(window, monkeypatch)
        import_elsewhere(tmp_path, project_dir, range(2, 3))  # a new page 2: new history
        capsys.readouterr()
        window.check_project()
        assert "page 2 added elsewhere" in said(window) and "restored" not in said(window), said(window)
    finally:
        window.close()


def test_a_page_first_labelled_in_the_window_removed_and_restored_elsewhere_is_said_restored(
        qtbot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Page 2 had no history when the window looked: every entry of it is the window's own."""
    folder = imported_project(tmp_path, {"html/1.html": TITLED_LIST.format(title="One"),
                                         "gt/1.json": f'[["{ITEM.format(1)}"]]',
                                         "html/2.html": TITLED_LIST.format(title="Two")})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("2")
        assert window.project.last_change_id("2") is None
        window.edit("add a record", lambda: window.project.add_record("2", [ITEM.format(3)], window.person))
        window.reload_labels()
        window.open_page("1")
        assert recordlens(["project", "remove-page", "--project", str(folder), "2"]) == 0
        window.check_project()
        assert "page 2 removed elsewhere" in said(window)
        copy = next((folder / "removed").glob("*-2.*.json"))
        assert recordlens(["project", "restore-page", "--project", str(folder), str(copy)]) == 0
        capsys.readouterr()
        window.check_project()
        assert "page 2 restored elsewhere" in said(window), said(window)
    finally:
        window.close()
