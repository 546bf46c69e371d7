"""Edit → History of this page: the store's history outlives a session's undo stack, so a page edited in one
window can be brought back to an earlier state in the next one, and that restore is itself undoable.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.history_dialog import ENTRY_ROLE, START
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Provenance
from tests.app.demo_project import ITEM
from tests.app.list_projects import one_list
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """One plain HTML page imported with two true records (items 1 and 2)."""
    return one_list(tmp_path)


def items(window: MainWindow) -> list[tuple[str, ...]]:
    return [label.xpaths for label in window.project.labels("1")]


def drawn_records(window: MainWindow) -> int:
    window.page_view.wait_until_drawn()
    assert window.page_view.last_summary is not None
    return window.page_view.last_summary.records


def test_a_restore_in_a_later_session_goes_back_to_an_earlier_change_and_undoes(qtbot, tmp_path, project_dir):
    # Session one: add item 3, delete item 1, mark the page reviewed; then the window (and its stacks) go.
    first = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        added = first.edit("new record", lambda: first.project.add_record("1", [ITEM.format(3)], first.person))
        assert added is not None
        item_1 = first.project.labels("1")[0]
        first.edit("delete record", lambda: first.project.delete(item_1.id, first.person))
        QTest.keySequence(first, "V")
        assert items(first) == [(ITEM.format(2),), (ITEM.format(3),)]
    finally:
        first.close()

    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        assert not window.undo_group.canUndo()  # a new session: nothing to undo, only the store remembers
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None and dialog.isVisible()
        rows = [[dialog.entries.topLevelItem(r).text(c) for c in range(1, 5)]
                for r in range(dialog.entries.topLevelItemCount())]
        # Newest first: the status change, the delete, the person's add, the import; then the starting point.
        assert [row[2] for row in rows] == ["page labelled → reviewed", "delete", "add (accepted)",
                                            "add (accepted); page new → labelled", "before any change"]
        assert [row[1] for row in rows[:3]] == ["tester"] * 3 and rows[3][1].startswith("dataset ")
        assert rows[1][3] == "record 1" and rows[3][3] == "records 1, 2"  # the numbers the list showed
        assert not dialog.restore_button.isEnabled()

        dialog.choose(added.id)
        assert dialog.restore_button.isEnabled()
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert items(window) == [(ITEM.format(k),) for k in (1, 2, 3)]
        assert [label.id for label in window.labels] == [label.id for label in window.project.labels("1")]
        assert drawn_records(window) == 3
        # The status goes back with the labels: the page was labelled, not yet reviewed, after that change.
        assert window.project.page("1").status == "labelled"
        assert dialog.entries.topLevelItem(0).text(3) == "restore to change 2; page reviewed → labelled"
        assert dialog.chosen() == added.id  # the choice survives the refresh

        # Ctrl+Z works with the dialog in front (where the restore was just made), and from the window.
        QTest.keySequence(dialog, "Ctrl+Z")
        assert items(window) == [(ITEM.format(2),), (ITEM.format(3),)]
        assert drawn_records(window) == 2
        assert window.project.page("1").status == "reviewed"
        QTest.keySequence(dialog, "Ctrl+Shift+Z")
        assert items(window) == [(ITEM.format(k),) for k in (1, 2, 3)]

        dialog.choose(START)
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert items(window) == [] and drawn_records(window) == 0
        assert window.project.page("1").status == "new"  # not a labelled page with none of its records
        window.activateWindow()
        QTest.keySequence(window, "Ctrl+Z")
        assert len(items(window)) == 3
    finally:
        window.close()
    assert not dialog.isVisible()  # closing the window closes its history


def test_history_names_records_and_changes_by_the_numbers_the_user_sees(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        first, second = project.labels("1")
        window.edit("delete record", lambda: project.delete(first.id, window.person))
        added = window.edit("new record", lambda: project.add_record("1", [ITEM.format(4)], window.person))
        window.edit("new record", lambda: project.add_record("1", [ITEM.format(3)], window.person))
        assert added is not None and added.record is not None
        # Record ids are the database's: item 4 has id 3 but is the second record of the list and of the badges.
        assert added.record.id == 3 and [label.id for label in project.labels("1")].index(added.record.id) == 1
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        rows = [[dialog.entries.topLevelItem(r).text(c) for c in range(5)]
                for r in range(dialog.entries.topLevelItemCount())]
        assert [row[0] for row in rows] == ["4", "3", "2", "1", "0"]
        assert [row[4] for row in rows[:4]] == ["record 3", "record 2", "record 1", "records 1, 2"]
        assert "#" not in " ".join(row[4] for row in rows)
        dialog.choose(added.id)
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert dialog.entries.topLevelItem(0).text(3) == "restore to change 3"
        assert "restore to change 3" in window.statusBar().currentMessage()
        assert second.id in [label.id for label in project.labels("1")]
        # Undo and redo are restores underneath, named as the person made them; an edit says what it did.
        QTest.keySequence(window, "Ctrl+Z")
        QTest.keySequence(window, "Ctrl+Shift+Z")
        edited = window.edit("edit record", lambda: project.edit(second.id, [*second.xpaths, ITEM.format(1)],
                                                                 window.person))
        assert edited is not None and edited.id is not None
        window.tools.refresh_history()
        texts = [dialog.entries.topLevelItem(r).text(3) for r in range(3)]
        assert texts[0] == "edit (+1 element)", texts
        assert texts[1].startswith("redo: restore to change 3 (") and texts[1].endswith(" (as after change 5)")
        assert texts[2].startswith("undo: restore to change 3 (") and texts[2].endswith(" (as after change 4)")
        # who and what, cut to their columns' widths, are whole in their tips
        assert [dialog.entries.topLevelItem(r).toolTip(3) for r in range(3)] == texts
        assert dialog.entries.topLevelItem(0).toolTip(2) == dialog.entries.topLevelItem(0).text(2) != ""
    finally:
        window.close()


def test_history_words_a_page_status_as_the_page_list_does():
    from recordlens.annotator.labelling.history_dialog import what
    from recordlens.core.store import Change, Provenance

    moved = Change(1, "1", "", Provenance.person("ana"), "status", (), (), {"from": "new", "to": "proposed"})
    assert what(moved) == "page new → in progress"
    restored = Change(2, "1", "", Provenance.person("ana"), "restore", (), (),
                      {"to": None, "page_status": {"from": "labelled", "to": "new"}})
    assert what(restored) == "restore to before any change; page labelled → new"


def test_an_edit_that_changed_nothing_is_not_called_a_reordering():
    """An older RecordLens stored edits whose XPaths did not change; the history called them "reordered"."""
    from recordlens.annotator.labelling.history_dialog import what
    from recordlens.core.store import Change, Label, Provenance

    ana = Provenance.person("ana")

    def edit(before: tuple[str, ...], after: tuple[str, ...]) -> Change:
        def label(xpaths: tuple[str, ...]) -> Label:
            return Label(5, 3, xpaths, "accepted", ana, ana, (), (), "", "")
        return Change(1, "1", "", ana, "edit", (label(before),), (label(after),), {})

    assert what(edit(("/a[1]", "/b[1]"), ("/a[1]", "/b[1]"))) == "edit (no change)"
    assert what(edit(("/a[1]", "/b[1]"), ("/b[1]", "/a[1]"))) == "edit (reordered)"
    assert what(edit(("/a[1]",), ("/a[1]", "/b[1]"))) == "edit (+1 element)"


def test_a_record_a_restore_took_out_and_put_back_under_one_number_is_named_once():
    from recordlens.annotator.labelling.history_dialog import records_text
    from recordlens.core.store import Change, Label, Provenance

    ana = Provenance.person("ana")

    def label(record_id: int) -> Label:
        return Label(record_id, 3, ("/body[1]/p[1]",), "accepted", ana, ana, (), (), "", "")

    restored = Change(2, "1", "", ana, "restore", (label(5),), (label(9),), {"to": 1})
    assert records_text(restored, {5: 3, 9: 3}) == "record 3"
    assert records_text(restored, {5: 3, 9: 4}) == "records 3, 4"


def test_history_opened_again_starts_from_the_newest_change(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        window.edit("new record", lambda: project.add_record("1", [ITEM.format(3)], window.person))
        window.edit("new record", lambda: project.add_record("1", [ITEM.format(4)], window.person))
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None and dialog.chosen() is None  # nothing chosen: Restore cannot be pressed by mistake
        QTest.keyClick(dialog.entries, Qt.Key.Key_Down)
        second = int(dialog.entries.topLevelItem(1).data(0, ENTRY_ROLE))
        assert dialog.chosen() == second
        dialog.activateWindow()
        qtbot.waitUntil(dialog.isActiveWindow)
        QTest.keyClick(dialog.entries, Qt.Key.Key_Escape)
        assert not dialog.isVisible()

        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)
        QTest.keySequence(window, "Ctrl+H")  # the same keys again choose the same change, not the one below it
        assert dialog.isVisible() and dialog.chosen() is None
        QTest.keyClick(dialog.entries, Qt.Key.Key_Down)
        assert dialog.chosen() == second
        window.edit("new record", lambda: project.add_record("1", [ITEM.format(1)], window.person))
        assert dialog.chosen() == second  # while it stays open, a new change keeps the choice
    finally:
        window.close()


def test_records_judged_together_are_one_step_of_the_history_that_opens_on_its_changes(qtbot, tmp_path,
                                                                                        project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        window.edit("2 proposals", lambda: project.add_records("1", [[ITEM.format(3)], [ITEM.format(4)]],
                                                                Provenance.extractor("repeats", "1"),
                                                                status="proposed"))
        window.reload_labels()
        window.record_panel.select_ids([label.id for label in project.labels("1")])
        window.record_panel.list.setFocus()
        QTest.keyClick(window.record_panel.list, Qt.Key.Key_R)  # all four rejected at once: one step
        assert [label.status for label in project.labels("1")] == ["rejected"] * 4
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        assert dialog.heading.text().startswith("6 changes to page 1 in 3 steps, newest first")
        step = dialog.entries.topLevelItem(0)
        assert [step.text(c) for c in (0, 3, 4)] == ["3–6", "reject record (4 changes)", "records 1, 2, 3, 4"]
        assert step.childCount() == 4 and not step.isExpanded()
        assert [step.child(k).text(3) for k in range(4)] == ["reject"] * 4
        assert dialog.entries.topLevelItemCount() == 4  # the step, the proposals, the import, the start

        dialog.choose(int(step.child(2).data(0, ENTRY_ROLE)))  # inside the step: after the first two rejections
        assert step.isExpanded() and dialog.restore_button.isEnabled()
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert [label.status for label in project.labels("1")] == ["rejected", "rejected", "proposed", "proposed"]
        QTest.keySequence(window, "Ctrl+Z")
        assert [label.status for label in project.labels("1")] == ["rejected"] * 4
        QTest.keySequence(window, "Ctrl+Z")  # the whole step is one undo, as it is one row of the history
        assert [label.status for label in project.labels("1")] == ["accepted", "accepted", "proposed", "proposed"]
    finally:
        window.close()


def test_a_step_that_moves_the_page_status_says_so_whatever_change_moved_it():
    from recordlens.annotator.labelling.history_dialog import step_what
    from recordlens.core.store import Change

    step = {"step": {"id": "s1", "name": "labels replaced from gt/1.json"}}
    ana = Provenance.person("ana")
    changes = [Change(1, "1", "", ana, "delete", (), (), dict(step)),
               Change(2, "1", "", ana, "status", (), (), {"from": "reviewed", "to": "labelled", **step})]
    assert step_what(changes, {}) == "labels replaced from gt/1.json (2 changes); page reviewed → labelled"


def test_the_records_tip_names_every_record_or_how_many_more(qtbot, tmp_path):
    """The cell names the first few records and how many in all; its tip stopped at the sixth, saying nothing of
    the rest."""
    from recordlens.annotator.labelling.history_dialog import HistoryDialog
    from recordlens.core.store import open_project

    items = "".join(f"<li>item {k}</li>" for k in range(1, 31))
    page = f"<!doctype html><html><head><title>Items</title></head><body><ul>{items}</ul></body></html>"

    def tip(count: int) -> str:
        folder = imported_project(tmp_path / str(count), {
            "html/1.html": page, "gt/1.json": json.dumps([[ITEM.format(k)] for k in range(1, count + 1)])})
        with open_project(folder) as project:
            dialog = HistoryDialog()
            qtbot.addWidget(dialog)
            dialog.show_page(project, "1")
        added = dialog.entries.topLevelItem(0)
        assert added.text(4) == f"records 1, 2, 3, 4, 5, 6, … ({count} in all)", added.text(4)
        dialog.close()
        return added.toolTip(4)

    assert tip(10).splitlines() == [f"record {k} accepted: {ITEM.format(k)}" for k in range(1, 11)]
    assert tip(30).splitlines()[-2:] == [f"record 20 accepted: {ITEM.format(20)}", "and 10 more"]
