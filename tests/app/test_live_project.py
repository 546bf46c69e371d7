"""A project open in the app while something else changes it: another window on the same project, the command
line, or the project's folder moved or deleted under the app. What the window shows follows the project, undo
never takes back a change it did not make, and an edit is never called saved when it went nowhere.

The windows look at their project on a timer (`check_project`); the tests call it where the timer would.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.cli.command import main as recordlens
from recordlens.core.store import Provenance, open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import TITLED_LIST, two_lists
from tests.app.window_helpers import open_window, recent_messages

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Pages 1 and 2, each with two true records (items 1 and 2)."""
    return two_lists(tmp_path)


def activate(qtbot, window: MainWindow) -> None:
    """Keys go to the active window's shortcuts: the one a test types into must be it."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def test_a_project_open_in_another_window_is_said_until_that_window_closes(qtbot, tmp_path, project_dir):
    first = open_window(project_dir, tmp_path / "first.json", qtbot=qtbot)
    second = third = None
    try:
        assert "open in another RecordLens window" not in recent_messages(first)
        second = open_window(project_dir, tmp_path / "second.json", qtbot=qtbot)
        assert f"{project_dir.name} is open in another RecordLens window too (process " in recent_messages(second)
        first.close()
        second.check_project()  # the window that had it open is gone: this one takes the mark over
        third = open_window(project_dir, tmp_path / "third.json", qtbot=qtbot)
        assert "open in another RecordLens window too" in recent_messages(third)
    finally:
        for window in (third, second, first):
            if window is not None:
                window.close()


def test_undo_refuses_to_take_back_what_another_window_changed_since(qtbot, tmp_path, project_dir):
    with open_project(project_dir) as project:  # an extractor's proposal, waiting for review
        proposal = project.add_record("1", [ITEM.format(3)], Provenance.extractor("repeats", "1")).after[0].id
    first = open_window(project_dir, tmp_path / "first.json", qtbot=qtbot)
    second = None
    try:
        second = open_window(project_dir, tmp_path / "second.json", qtbot=qtbot)
        # The first window accepts the proposal; the second, once it has looked again, deletes it.
        first.select_records([proposal])
        activate(qtbot, first)
        QTest.keySequence(first, "A")
        assert first.project.labels("1")[-1].status == "accepted"
        second.check_project()  # its look at the project shows the accept: the delete is meant on it
        second.select_records([proposal])
        activate(qtbot, second)
        QTest.keySequence(second, "Del")
        assert proposal not in [label.id for label in second.project.labels("1")]

        # Ctrl+Z in the first window would bring the deleted record back: refused, said, the page as it now is.
        activate(qtbot, first)
        QTest.keySequence(first, "Ctrl+Z")
        assert proposal not in [label.id for label in first.project.labels("1")]
        assert "page 1 changed elsewhere since (delete by tester" in first.statusBar().currentMessage()
        assert "undo refused; the history (Ctrl+H) can restore any earlier state" in recent_messages(first)
        assert proposal not in [label.id for label in first.labels]
        assert not first.undo_group.canUndo()  # its steps went: each would take the delete back too

        # A new step there undoes alone: the delete made elsewhere stays.
        again = first.edit("new record", lambda: first.project.add_record("1", [ITEM.format(4)], first.person))
        assert again is not None and again.record is not None
        QTest.keySequence(first, "Ctrl+Z")
        assert [label.xpaths for label in first.project.labels("1")] == [(ITEM.format(1),), (ITEM.format(2),)]
        assert "undone on page 1: new record" in first.statusBar().currentMessage()
    finally:
        if second is not None:
            second.close()
        first.close()


def test_changes_made_from_the_command_line_reach_the_open_window(qtbot, tmp_path, project_dir, capsys):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        labelled = window.page_list.progress_label.text()
        assert labelled == "2 / 2 labelled"

        more = tmp_path / "more"
        (more / "html").mkdir(parents=True)
        (more / "gt").mkdir()
        (more / "html" / "1.html").write_text(TITLED_LIST.format(title="One"), encoding="utf-8")  # already there
        (more / "html" / "3.html").write_text(TITLED_LIST.format(title="Three"), encoding="utf-8")
        (more / "gt" / "1.json").write_text(json.dumps([[ITEM.format(4)]]), encoding="utf-8")
        assert recordlens(["import", str(more), "--project", str(project_dir), "--replace-labels"]) == 0
        window.check_project()
        assert window.page_list.all_names() == ["1", "2", "3"]
        assert "3" in window.page_list.names()
        assert [label.xpaths for label in window.labels] == [(ITEM.format(4),)]  # the page on show, replaced
        assert "1 accepted" in window.page_list.list.item(0).text()
        assert "page 3 added, page 1 changed elsewhere" in window.statusBar().currentMessage()

        # The page on show removed from the command line: the next key on it says so and moves on.
        window.select_records([window.labels[0].id])
        assert recordlens(["project", "remove-page", "--project", str(project_dir), "1"]) == 0
        capsys.readouterr()
        QTest.keySequence(window, "A")
        assert window.page_name == "2"
        assert window.page_list.all_names() == ["2", "3"]
        assert "page 1 was removed from the project elsewhere" in window.statusBar().currentMessage()

        # ...and one the window has not touched goes at the next look.
        assert recordlens(["project", "remove-page", "--project", str(project_dir), "2"]) == 0
        window.check_project()
        assert window.page_name == "3" and window.page_list.all_names() == ["3"]
    finally:
        window.close()


def test_an_edit_after_the_project_folder_was_deleted_is_not_called_saved(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.open_page("1")
        window.select_records([window.labels[0].id])
        QTest.keySequence(window, "R")
        assert window.saved_label.text().startswith("saved ")

        shutil.rmtree(project_dir)
        window.select_records([window.labels[1].id])
        QTest.keySequence(window, "R")
        assert window.saved_label.text() == "NOT SAVED"
        assert "NOT SAVED" in window.windowTitle()
        assert (f"{project_dir / 'project.db'} is no longer the database this window writes to"
                in window.statusBar().currentMessage())
        assert "edits are not saved" in recent_messages(window)
        assert [label.status for label in window.labels] == ["rejected", "accepted"]  # the edit was refused
    finally:
        window.close()


def test_a_database_moved_away_is_said_at_the_next_look_and_again_when_it_is_back(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        moved = tmp_path / "moved"
        project_dir.rename(moved)
        window.check_project()
        assert window.saved_label.text() == "NOT SAVED"
        assert "open it where it is now (Ctrl+O)" in recent_messages(window)
        moved.rename(project_dir)
        window.check_project()
        assert window.saved_label.text() == "saved" and "NOT SAVED" not in window.windowTitle()
    finally:
        window.close()
