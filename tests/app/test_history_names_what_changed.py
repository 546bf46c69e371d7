"""History (Ctrl+H) names the records a change added, removed or changed, by the numbers the list shows: a record
added in front of others is the one named, not the records it moved down one number; its undo likewise."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.labelling.history_dialog import HistoryDialog
from recordlens.core.store import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import one_list

pytestmark = pytest.mark.app

PERSON = Provenance.person("tester")


def rows(dialog: HistoryDialog) -> list[tuple[str, str, str]]:
    """Each row's what, records and records' tip, newest first."""
    items = [dialog.entries.topLevelItem(r) for r in range(dialog.entries.topLevelItemCount())]
    return [(item.text(3), item.text(4), item.toolTip(4)) for item in items]


def test_an_add_in_front_of_records_names_the_record_added_not_those_moved_down(qtbot, tmp_path: Path) -> None:
    with open_project(one_list(tmp_path)) as project:  # items 1 and 2: records 1 and 2
        second = project.labels("1")[1]
        project.add_record("1", [ITEM.format(4)], PERSON, before=second.id)  # item 4 becomes record 2
        project.edit(project.labels("1")[2].id, [ITEM.format(2), ITEM.format(3)], PERSON)  # record 3 (item 2)
        first_change = project.history("1")[0].id
        project.restore("1", first_change, PERSON, why="undo everything")  # record 2 taken out, item 2 as it was
        dialog = HistoryDialog()
        qtbot.addWidget(dialog)
        dialog.show_page(project, "1")

    undo, edit, add, imported = rows(dialog)[:4]
    assert (add[0], add[1]) == ("add (accepted)", "record 2")
    assert add[2] == f"record 2 accepted: {ITEM.format(4)}"  # the tip: that record alone, not record 3 moved down
    assert (edit[0], edit[1]) == ("edit (+1 element)", "record 3")
    # The undo took record 2 out and put record 3's elements back, making it record 2 again: both are number 2
    # (the one taken out had it just before, the other has it after), said once; their tip names both
    assert undo[1] == "record 2"
    assert undo[2] == f"record 2 accepted: {ITEM.format(2)}\nrecord 2 accepted: {ITEM.format(4)}"
    assert imported[1] == "records 1, 2"


def test_the_undo_of_an_add_in_front_names_the_record_taken_out_only(qtbot, tmp_path: Path) -> None:
    with open_project(one_list(tmp_path)) as project:
        first = project.labels("1")[0]
        project.add_record("1", [ITEM.format(4)], PERSON, before=first.id)  # item 4 becomes record 1
        project.restore("1", project.history("1")[0].id, PERSON, why="undo new record")
        dialog = HistoryDialog()
        qtbot.addWidget(dialog)
        dialog.show_page(project, "1")

    undo, add = rows(dialog)[:2]
    assert (add[1], undo[1]) == ("record 1", "record 1")
    assert undo[2] == f"record 1 accepted: {ITEM.format(4)}"
