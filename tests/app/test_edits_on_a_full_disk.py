"""Edits, undo and redo when the disk that holds the project is full: the database refuses the write (SQLite's
"database or disk is full", at COMMIT), which the window says, marks as not saved, and keeps off the undo stack;
a failed undo leaves the stack where it was, so the next Ctrl+Z takes back one step, not two."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterator

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store.db import Connection
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


@contextlib.contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every write transaction fails as on a full disk: the changes are made, then the COMMIT is refused (and the
    store rolls them back)."""
    writing = Connection.writing

    @contextlib.contextmanager
    def refused(self: Connection) -> Iterator[object]:
        with writing(self) as db:
            yield db
            raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(Connection, "writing", refused)
        yield


def four_proposals(window: MainWindow) -> list[int]:
    """Page 2 on show with four proposed records, the first selected."""
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    ids = [window.project.add_record("2", [ITEM.format(k)], MDR).record.id for k in range(1, 5)]
    window.reload_labels([ids[0]])
    return ids


def statuses(window: MainWindow) -> list[str]:
    return [label.status for label in window.project.labels("2")]


def test_an_edit_on_a_full_disk_is_said_not_saved_and_takes_no_undo_step(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    key(window, "A")
    assert statuses(window) == ["accepted", "proposed", "proposed", "proposed"]
    assert window.record_panel.selected_ids() == [ids[1]]
    assert window.saved_label.text().startswith("saved ")
    stack = window.undo_group.activeStack()
    steps, entries = stack.count(), len(window.project.history("2"))
    with disk_full(monkeypatch):
        for keys in (["A"], ["Del"], ["L", "L"]):
            for pressed in keys:
                key(window, pressed)
            assert statuses(window) == ["accepted", "proposed", "proposed", "proposed"], keys
            assert window.project.page("2").status == "proposed"
            message = said(window)
            assert "NOT saved" in message and "database or disk is full" in message, (keys, message)
            assert ("the disk that holds the project is full (its database: database or disk is full); free space "
                    "and do it again") in message
            assert window.saved_label.text() == "last edit NOT SAVED"
            assert "database or disk is full" in window.saved_label.toolTip()
            assert stack.count() == steps and stack.index() == steps
            assert len(window.project.history("2")) == entries
            assert ids[1] in [label.id for label in window.labels]
            window.select_records([ids[1]])
    assert said(window).startswith("mark page 2 labelled NOT saved")  # not the question L asked
    key(window, "A")  # the disk has room again: saved, and said so
    assert statuses(window) == ["accepted", "accepted", "proposed", "proposed"]
    assert window.saved_label.text().startswith("saved ") and window.saved_label.toolTip() == ""


def test_a_failed_undo_leaves_the_stack_as_it_was_and_the_next_undo_takes_back_one_step(qtbot, window,
                                                                                        monkeypatch):
    four_proposals(window)
    for _ in range(3):
        key(window, "A")
    assert statuses(window) == ["accepted", "accepted", "accepted", "proposed"]
    stack = window.undo_group.activeStack()
    assert stack.index() == 3
    entries = len(window.project.history("2"))
    with disk_full(monkeypatch):
        key(window, "Ctrl+Z")
        assert statuses(window) == ["accepted", "accepted", "accepted", "proposed"]
        assert stack.index() == 3 and stack.count() == 3
        assert "undone" not in said(window)
        assert "“undo: accept record” NOT saved" in said(window) and "database or disk is full" in said(window)
        assert window.saved_label.text() == "last edit NOT SAVED"
        assert len(window.project.history("2")) == entries
    key(window, "A")  # room again: record 4
    assert statuses(window) == ["accepted"] * 4
    key(window, "Ctrl+Z")
    assert statuses(window) == ["accepted", "accepted", "accepted", "proposed"]
    key(window, "Ctrl+Z")
    assert statuses(window) == ["accepted", "accepted", "proposed", "proposed"]  # record 3 alone, not 2 as well
    assert said(window) == "undone on page 2: accept record 3"
    assert window.saved_label.text().startswith("saved ")


def test_a_failed_redo_leaves_the_stack_as_it_was(qtbot, window, monkeypatch):
    four_proposals(window)
    key(window, "A")
    key(window, "A")
    key(window, "Ctrl+Z")
    stack = window.undo_group.activeStack()
    assert stack.index() == 1 and statuses(window) == ["accepted", "proposed", "proposed", "proposed"]
    with disk_full(monkeypatch):
        key(window, "Ctrl+Shift+Z")
        assert stack.index() == 1 and statuses(window) == ["accepted", "proposed", "proposed", "proposed"]
        assert "“redo: accept record” NOT saved" in said(window)
        assert window.saved_label.text() == "last edit NOT SAVED"
    key(window, "Ctrl+Shift+Z")
    assert stack.index() == 2 and statuses(window) == ["accepted", "accepted", "proposed", "proposed"]
    key(window, "Ctrl+Z")
    key(window, "Ctrl+Z")
    assert stack.index() == 0 and statuses(window) == ["proposed"] * 4


def test_a_database_gone_after_a_refused_edit_is_said_as_before(qtbot, window, monkeypatch, project_dir):
    four_proposals(window)
    with disk_full(monkeypatch):
        key(window, "A")
    assert window.saved_label.text() == "last edit NOT SAVED"
    shutil.rmtree(project_dir)
    key(window, "A")
    assert window.saved_label.text() == "NOT SAVED" and "NOT SAVED" in window.windowTitle()
    assert f"{project_dir / 'project.db'} is no longer the database this window writes to" in said(window)
    assert "is no longer the database" in window.saved_label.toolTip()


def test_a_failed_undo_of_a_step_of_several_records_leaves_them_all(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    window.select_records(ids[:3])
    key(window, "A")  # one step of three accepts
    key(window, "A")  # and record 4
    stack = window.undo_group.activeStack()
    assert stack.index() == 2 and statuses(window) == ["accepted"] * 4
    key(window, "Ctrl+Z")
    with disk_full(monkeypatch):
        key(window, "Ctrl+Z")
        assert stack.index() == 1 and statuses(window) == ["accepted", "accepted", "accepted", "proposed"]
        assert "“undo: accept record ×3” NOT saved" in said(window)
    key(window, "Ctrl+Z")
    assert stack.index() == 0 and statuses(window) == ["proposed"] * 4


def test_a_step_of_several_records_refused_part_way_stores_none_and_stays_said_not_saved(qtbot, window,
                                                                                         monkeypatch):
    four_proposals(window)
    key(window, "Ctrl+A")
    writing = Connection.writing
    writes = []

    @contextlib.contextmanager
    def refused_after_the_first(self: Connection) -> Iterator[object]:
        with writing(self) as db:
            yield db
            writes.append(1)
            if len(writes) > 1:
                raise sqlite3.OperationalError("database or disk is full")

    with monkeypatch.context() as patch:
        patch.setattr(Connection, "writing", refused_after_the_first)
        key(window, "A")
    assert statuses(window) == ["proposed"] * 4  # one transaction: those before the refusal rolled back with it
    assert not window.undo_group.canUndo()
    assert "NOT saved" in said(window)
    assert window.saved_label.text() == "last edit NOT SAVED", window.saved_label.text()


def test_a_refused_delete_keeps_the_record_selected_for_a_second_try(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    with disk_full(monkeypatch):
        key(window, "Del")
    assert "NOT saved" in said(window) and len(window.project.labels("2")) == 4
    assert window.record_panel.selected_ids() == [ids[0]]  # still selected: Del again once space is freed
    key(window, "Del")
    assert len(window.project.labels("2")) == 3 and window.record_panel.selected_ids() == []
