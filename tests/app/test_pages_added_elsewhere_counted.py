"""Pages imported from the command line while the app is open are each said once, however the window's own edits
fall between its looks: an edit brings the page list up to date, and the next look used to compare the project
with that list, which already held the new pages (40 imported, "19 pages added" said). Pages that arrive over
several looks are said batch by batch, each batch with the total since the first (of one import or more)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recordlens.annotator.labelling import main_window
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.cli.command import main as recordlens
from tests.app.list_projects import import_elsewhere, two_lists
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, each with two true records (items 1 and 2)."""
    return two_lists(tmp_path)


def added_said(window: MainWindow) -> int:
    """How many pages the recent messages have said were added elsewhere, in all."""
    total = 0
    for _, text in window.messages.entries:
        if "elsewhere (another window, or the command line)" in text:
            found = re.search(r"(?:(\d+) pages|page \S+) added", text)
            total += int(found.group(1) or 1) if found else 0
    return total


def delete_first_record(window: MainWindow) -> None:
    window.select_records([window.labels[0].id])
    window.record_actions.do_delete()


def test_pages_imported_elsewhere_are_said_though_an_edit_came_between(qtbot, tmp_path, project_dir, capsys):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        import_elsewhere(tmp_path, project_dir, range(3, 10))
        capsys.readouterr()
        delete_first_record(window)  # the edit refreshes the page list: the 7 pages are in it before the look
        assert "deleted record 1" in window.statusBar().currentMessage()
        window.check_project()
        message = window.statusBar().currentMessage()
        assert "7 pages added (3, 4, 5, 6, 7, ...) elsewhere" in message, message
        assert "restored" not in message  # their history is newer than the last look, whatever the edit read
        assert added_said(window) == 7
        window.check_project()  # nothing new: nothing said again
        assert added_said(window) == 7
    finally:
        window.close()


def test_pages_arriving_over_several_looks_are_each_said_once_with_the_total(qtbot, tmp_path, project_dir,
                                                                              capsys, monkeypatch):
    monkeypatch.setattr(main_window, "ARRIVALS_GAP_S", 1e9)  # the looks are within the gap, however slow the machine
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        import_elsewhere(tmp_path, project_dir, range(3, 6))
        window.check_project()
        assert "3 pages added (3, 4, 5) elsewhere" in window.statusBar().currentMessage()
        import_elsewhere(tmp_path, project_dir, range(6, 10))
        delete_first_record(window)
        window.check_project()
        message = window.statusBar().currentMessage()
        # the bar does not read as if only the last batch came
        assert re.search(r"4 pages added \(6, 7, 8, 9; 7 in all since \d\d:\d\d:\d\d, by one import or more\) "
                         "elsewhere", message), message
        assert added_said(window) == 7
        capsys.readouterr()
    finally:
        window.close()


def test_a_quiet_spell_starts_the_count_again(qtbot, tmp_path, project_dir, capsys, monkeypatch):
    monkeypatch.setattr(main_window, "ARRIVALS_GAP_S", 0.0)  # any look after another is after a quiet spell
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        import_elsewhere(tmp_path, project_dir, range(3, 5))
        window.check_project()
        import_elsewhere(tmp_path, project_dir, range(5, 7))
        window.check_project()
        message = window.statusBar().currentMessage()
        assert "2 pages added (5, 6) elsewhere" in message and "in all" not in message, message
        capsys.readouterr()
    finally:
        window.close()


def test_the_windows_own_removal_is_not_said_as_made_elsewhere(qtbot, tmp_path, project_dir, capsys,
                                                                monkeypatch):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("2")
        monkeypatch.setattr(window, "ask", lambda *_, **__: True)
        window.do_remove_page()
        assert window.page_list.all_names() == ["1"]
        import_elsewhere(tmp_path, project_dir, range(3, 4))
        window.check_project()
        message = window.statusBar().currentMessage()
        assert "page 3 added elsewhere" in message and "removed" not in message, message
        capsys.readouterr()
    finally:
        window.close()


def test_pages_added_as_the_page_on_show_is_removed_elsewhere_are_said_too(qtbot, tmp_path, project_dir, capsys):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("2")
        import_elsewhere(tmp_path, project_dir, range(3, 5))
        assert recordlens(["project", "remove-page", "--project", str(project_dir), "2"]) == 0
        capsys.readouterr()
        window.check_project()
        message = window.statusBar().currentMessage()  # one message: the page on show gone, then the rest
        assert message.startswith("page 2 was removed from the project elsewhere"), message
        assert message.endswith("; also 2 pages added (3, 4) elsewhere"), message
        window.check_project()
        assert window.statusBar().currentMessage() == message  # nothing new: nothing said again
    finally:
        window.close()
