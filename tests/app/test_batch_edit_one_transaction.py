"""A list of records judged at once (A on a selection) is one undo step and one transaction: a write the
database refuses on one of its records leaves none of them stored and no undo step, and the same list judged
again is stored whole, undone whole and redone whole."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store.project import Project, open_project
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app

REFUSED_AT = 3  # the record of the four whose write the database refuses


def stored_statuses(project_dir: Path) -> list[str]:
    """Page 2's record statuses as another connection reads them: what the project file holds."""
    with open_project(project_dir) as other:
        return [label.status for label in other.labels("2")]


def four_proposals_selected(window: MainWindow) -> list[int]:
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    ids = [window.project.add_record("2", [ITEM.format(k)], MDR).record.id for k in range(1, 5)]
    window.reload_labels(ids)
    return ids


def test_a_list_accepted_with_a_write_refused_part_way_stores_none_of_it(qtbot, window, project_dir, monkeypatch):
    four_proposals_selected(window)
    entries = len(window.project.history("2"))
    update = Project._update
    writes: list[int] = []

    def refused_on_the_third(self: Project, row: dict[str, object]) -> None:
        writes.append(1)
        if len(writes) == REFUSED_AT:
            raise sqlite3.OperationalError("disk I/O error")
        update(self, row)

    with monkeypatch.context() as patch:
        patch.setattr(Project, "_update", refused_on_the_third)
        key(window, "A")
    assert len(writes) == REFUSED_AT
    assert stored_statuses(project_dir) == ["proposed"] * 4  # the two accepted before the refusal rolled back
    assert len(window.project.history("2")) == entries
    assert not window.undo_group.canUndo()  # no undo step stands for what the project does not hold
    assert "NOT saved" in said(window) and "(none of the 4 changes stored)" in said(window)
    assert window.saved_label.text() == "last edit NOT SAVED"

    window.select_records([label.id for label in window.labels])
    key(window, "A")  # nothing refused now: all four, one step
    assert stored_statuses(project_dir) == ["accepted"] * 4
    assert len(window.project.history("2")) == entries + 4
    stack = window.undo_group.activeStack()
    assert stack.count() == 1 and stack.text(0) == "accept record ×4"
    key(window, "Ctrl+Z")
    assert stored_statuses(project_dir) == ["proposed"] * 4
    key(window, "Ctrl+Shift+Z")
    assert stored_statuses(project_dir) == ["accepted"] * 4
