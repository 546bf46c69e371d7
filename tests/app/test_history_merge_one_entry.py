"""A merge (Shift+T: `Adjudication.merge`) is one action of the person's, stored as two history changes: the edit of
the project's record and the keep of the pair it leaves. The history listed them as a step of two changes that
opened on both, and "Restore to here" on the edit put the page between them: the record merged, the pair open
again. It is one entry now, named for what was merged and from whom, and restoring goes to before or after it
whole; inside a step of several merges, each merge is one entry too.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.history_dialog import ENTRY_ROLE, HistoryDialog
from tests.app.demo_project import ITEM
from tests.app.list_projects import BEAS_RECORDS, one_list_and_beas
from tests.app.window_helpers import open_window

pytestmark = pytest.mark.app


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Page 1 with the project's records items 1 and 2, and bea's label set, whose records each hold one more."""
    return one_list_and_beas(tmp_path)


def rows(dialog: HistoryDialog) -> list[list[str]]:
    top = [dialog.entries.topLevelItem(k) for k in range(dialog.entries.topLevelItemCount())]
    return [[item.text(0), item.text(2).split(" ")[0], item.text(3), item.text(4)] for item in top]


def test_a_merge_is_one_entry_of_the_history_and_restores_whole(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        ours = project.labels("1")[0]
        before = [label.xpaths for label in project.labels("1")]
        change = window.edit("merge bea's version into the project's", lambda: project.adjudication.merge(
            "1", ours, "bea", BEAS_RECORDS[0], window.person))
        assert change is not None and change.id is not None and len(project.history("1")) == 3  # edit and keep
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        assert dialog.heading.text().startswith("2 changes to page 1, newest first"), dialog.heading.text()
        assert rows(dialog) == [["2", "tester", "merge with bea's record (+1 element)", "record 1"],
                                ["1", "dataset", "add (accepted); page new → labelled", "records 1, 2"],
                                ["0", "", "before any change", ""]], rows(dialog)
        merge = dialog.entries.topLevelItem(0)
        assert merge.childCount() == 0 and int(merge.data(0, ENTRY_ROLE)) == change.id  # after its keep

        dialog.choose(int(dialog.entries.topLevelItem(1).data(0, ENTRY_ROLE)))  # before the merge
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert [label.xpaths for label in project.labels("1")] == before
        assert project.adjudication.kept("1", "bea") == frozenset()  # the merge's decision went with its edit
        # The restore names the change it went back to by the number the list shows
        assert dialog.entries.topLevelItem(0).text(3) == "restore to change 1"

        dialog.choose(change.id)  # after the merge: both its changes back
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert project.labels("1")[0].xpaths == (ITEM.format(1), ITEM.format(3))
        assert len(project.adjudication.kept("1", "bea")) == 1
        assert dialog.entries.topLevelItem(0).text(3) == "restore to change 2"
        dialog.close()
    finally:
        window.close()


def test_merges_made_as_one_step_are_one_entry_each_inside_it(qtbot, tmp_path, project_dir):
    window = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        project = window.project
        labels = project.labels("1")
        done = window.edit_each("merge bea's versions into the project's", range(2), lambda k: (
            project.adjudication.merge("1", labels[k], "bea", BEAS_RECORDS[k], window.person)))
        assert done == 2 and len(project.history("1")) == 5  # two edits, two keeps
        QTest.keySequence(window, "Ctrl+H")
        dialog = window.tools.history_dialog
        assert dialog is not None
        assert dialog.heading.text().startswith("3 changes to page 1 in 2 steps"), dialog.heading.text()
        step = dialog.entries.topLevelItem(0)
        assert [step.text(c) for c in (0, 3, 4)] == ["2–3", "merge bea's versions into the project's (2 changes)",
                                                     "records 1, 2"]
        assert step.childCount() == 2
        assert [[step.child(k).text(c) for c in (0, 3, 4)] for k in range(2)] == [
            ["3", "merge with bea's record (+1 element)", "record 2"],
            ["2", "merge with bea's record (+1 element)", "record 1"]]
        keeps = [change.id for change in project.history("1") if change.action == "keep"]
        assert [int(step.child(k).data(0, ENTRY_ROLE)) for k in range(2)] == keeps[::-1]  # never an edit's

        dialog.choose(keeps[0])  # inside the step: after the first merge, whole
        QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
        assert [label.xpaths for label in project.labels("1")] == [(ITEM.format(1), ITEM.format(3)),
                                                                  (ITEM.format(2),)]
        kept = project.adjudication.kept("1", "bea")
        assert [(k.theirs, k.merged) for k in kept] == [(tuple(BEAS_RECORDS[0]), True)]
        dialog.close()
    finally:
        window.close()
