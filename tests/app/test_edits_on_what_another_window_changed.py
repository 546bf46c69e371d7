"""A window and another writer on one project (another window, the command line: here a second connection on the
project file): an edit made in the window on a record the other changed since the window last looked (up to
1.5 s before its next look) is refused and said, never a write over the other's change. A click adding or taking
out an element, a narrowing, U, Delete, merge and split are meant on the records as the window shows them; a
change to another record of the page is no reason to refuse.

Beside the records shown: G, a restore from the page's history and the Review's decisions are meant on the page as the
window shows it, and are refused and said when the other changed what they rest on since, never written over that
change nor repeating it. G's siblings are computed from the records shown: one the other made a record since is
not made twice, nor are siblings made from a record changed or deleted since. A restore from the history takes
back every change after the entry chosen: one the history did not show is not taken back unseen. A decision in
the Review is taken on the project's record as the review read it when the key was pressed, checked again inside
the write.

Undo and redo restore the page to an entry of its history, which takes back whatever came after it: they are refused
once the other changed the page after this window's last step, also when the other's change (a record, a page mark)
is committed at the last moment it can be, just before the window's own write transaction begins, after every look
the window makes first. A step made just after such a change is undone alone; the steps before it go.

The window looks at its project on a timer (`check_project`), which the tests leave off: its look has not come yet
when the step is made.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.local_time import local_time
from recordlens.core.store import Project, Provenance, open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import one_list, one_list_and_beas
from tests.app.review_helpers import choose, kinds, review_bea
from tests.app.window_helpers import just_before_the_next_write, key, open_window, recent_messages, said

pytestmark = pytest.mark.app

ANA = Provenance.person("ana")


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    """A window on page 1 of a list of four items, with two accepted records (items 1 and 2)."""
    shown = open_window(one_list(tmp_path), tmp_path / "settings.json", qtbot=qtbot)
    try:
        yield shown
    finally:
        shown.close()


@pytest.fixture
def elsewhere(window: MainWindow) -> Iterator[Project]:
    """The other writer: its own connection on the window's project file."""
    with open_project(window.project.root) as project:
        yield project


def states(project: Project) -> list[tuple[str, tuple[str, ...]]]:
    return [(label.status, label.xpaths) for label in project.labels("1")]


def assert_refused(window: MainWindow, subject: str, change: str, step: str) -> None:
    """The window said the step refused, naming what changed (`subject`: "record 3 of page 1", "page 1") and the
    change made elsewhere, and shows the page as the project now is."""
    now = said(window)
    assert now.startswith(f"{subject} changed elsewhere since ({change}"), now
    assert now.endswith(f"): {step} refused; shown as the project now is"), now
    assert [(label.status, label.xpaths) for label in window.labels] == states(window.project)


def test_an_element_clicked_into_a_record_rejected_elsewhere_is_refused(window, elsewhere):
    one = window.labels[0].id
    window.select_records([one])
    elsewhere.reject(one, ANA)
    entries = len(elsewhere.history("1"))

    window.record_actions.on_element_clicked(ITEM.format(3))  # would make the rejected record an edited, true one
    assert states(elsewhere)[0] == ("rejected", (ITEM.format(1),))
    assert len(elsewhere.history("1")) == entries
    assert_refused(window, "record 1 of page 1", "reject by ana, ", "add to record")
    assert "added to record 1" not in recent_messages(window)
    assert window.record_panel.selected_ids() == [one]
    assert not window.undo_group.canUndo()

    # Now shown rejected, the same click is the person's to make.
    window.record_actions.on_element_clicked(ITEM.format(3))
    assert states(elsewhere)[0] == ("edited", (ITEM.format(1), ITEM.format(3)))


def test_the_last_element_clicked_out_of_a_record_edited_elsewhere_is_refused(window, elsewhere):
    two = window.labels[1].id
    window.select_records([two])
    elsewhere.edit(two, [ITEM.format(2), ITEM.format(4)], ANA)  # the window still shows it of item 2 alone

    window.record_actions.on_element_clicked(ITEM.format(2))  # its only element as shown: a deletion
    assert states(elsewhere)[1] == ("edited", (ITEM.format(2), ITEM.format(4)))
    assert_refused(window, "record 2 of page 1", "edit", "delete record")
    assert window.record_panel.selected_ids() == [two]


def test_a_narrowing_and_a_climb_on_a_record_changed_elsewhere_are_refused(window, elsewhere):
    one = window.labels[0].id
    bold = f"{ITEM.format(1)}/b[1]"
    window.select_records([one])
    elsewhere.reject(one, ANA)
    window.record_actions.on_element_clicked(bold)  # inside the record's element: narrows it to the <b>
    assert states(elsewhere)[0] == ("rejected", (ITEM.format(1),))
    assert_refused(window, "record 1 of page 1", "reject by ana, ", "narrow record")

    window.record_actions.on_element_clicked(bold)  # shown rejected now: narrowed
    assert states(elsewhere)[0] == ("edited", (bold,))
    elsewhere.accept(one, ANA)  # the same elements, another status
    window.record_actions.do_parent_element()  # U: back up to the <li>
    assert states(elsewhere)[0] == ("accepted", (bold,))
    assert_refused(window, "record 1 of page 1", "accept by ana, ", "parent element")


def test_a_merge_of_records_one_changed_elsewhere_is_refused_and_another_changed_is_no_reason(window, elsewhere):
    third = elsewhere.add_record("1", [ITEM.format(4)], ANA).record.id
    window.reload_labels()  # as its look at the project shows the third record
    one, two = window.labels[0].id, window.labels[1].id
    window.select_records([one, two])
    elsewhere.reject(two, ANA)

    window.record_actions.do_merge()
    assert [label.id for label in elsewhere.labels("1")] == [one, two, third]  # nothing merged away
    assert states(elsewhere)[1] == ("rejected", (ITEM.format(2),))
    assert_refused(window, "record 2 of page 1", "reject by ana, ", "merge 2 records")
    assert not window.undo_group.canUndo()

    # Records 1 and 2 shown as they are: a change to record 3 since is no reason to refuse their merge.
    elsewhere.reject(third, ANA)
    window.select_records([one, two])
    window.record_actions.do_merge()
    assert states(elsewhere) == [("edited", (ITEM.format(1), ITEM.format(2))), ("rejected", (ITEM.format(4),))]
    assert window.statusBar().currentMessage().startswith("merged records 1, 2 into record 1")


def test_a_split_of_a_record_rejected_elsewhere_is_refused(window, elsewhere):
    merged = elsewhere.merge([label.id for label in window.labels], ANA).record.id
    window.reload_labels([merged])  # as its look at the project shows the merge: one record of items 1 and 2
    elsewhere.reject(merged, ANA)

    window.record_actions.do_split()  # would split the rejected record back into two true ones
    assert states(elsewhere) == [("rejected", (ITEM.format(1), ITEM.format(2)))]
    assert_refused(window, "record 1 of page 1", "reject by ana, ", "split record")


def test_a_deletion_of_records_one_edited_elsewhere_is_refused_whole(window, elsewhere):
    one, two = window.labels[0].id, window.labels[1].id
    window.select_records([one, two])
    elsewhere.edit(two, [ITEM.format(2), ITEM.format(3)], ANA)

    window.record_actions.do_delete()
    assert states(elsewhere) == [("accepted", (ITEM.format(1),)), ("edited", (ITEM.format(2), ITEM.format(3)))]
    assert_refused(window, "record 2 of page 1", "edit", "delete record")

    # Record 1 is as shown: a change to record 2 since is no reason to refuse its deletion.
    elsewhere.reject(two, ANA)
    window.select_records([one])
    window.record_actions.do_delete()
    assert states(elsewhere) == [("rejected", (ITEM.format(2), ITEM.format(3)))]


# -- beside the records shown: G, a restore from the history, the Review's decisions --------------------


def test_siblings_one_of_which_another_window_made_a_record_since_are_not_made_twice(window, elsewhere):
    one = window.labels[0].id
    window.select_records([one])
    elsewhere.add_record("1", [ITEM.format(3)], ANA)  # the window still shows items 1 and 2 alone
    entries = len(elsewhere.history("1"))

    window.record_actions.do_siblings()  # would add items 3 and 4: item 3 a second time
    assert [xpaths for _, xpaths in states(elsewhere)] == [(ITEM.format(k),) for k in (1, 2, 3)]
    assert len(elsewhere.history("1")) == entries
    # Named as the list showed the page: the record made elsewhere had no number in it yet.
    assert_refused(window, "page 1", "add (accepted) by ana, ", "apply to 2 siblings")
    assert not window.undo_group.canUndo()

    # Shown as it is, G adds the one sibling still without a record.
    window.select_records([one])
    window.record_actions.do_siblings()
    assert [xpaths for _, xpaths in states(elsewhere)] == [(ITEM.format(k),) for k in (1, 2, 3, 4)]
    assert said(window).startswith("added 1 record, one per sibling of record 1")


def test_siblings_of_a_record_rejected_or_deleted_elsewhere_are_not_made(window, elsewhere):
    one = window.labels[0].id
    window.select_records([one])
    elsewhere.reject(one, ANA)  # "not a record": no records are made after it
    window.record_actions.do_siblings()
    assert len(elsewhere.labels("1")) == 2
    assert_refused(window, "record 1 of page 1", "reject by ana, ", "apply to 2 siblings")

    elsewhere.accept(one, ANA)
    window.reload_labels([one])  # as its look at the project shows it accepted again
    elsewhere.delete(one, ANA)
    window.record_actions.do_siblings()
    assert [xpaths for _, xpaths in states(elsewhere)] == [(ITEM.format(2),)]  # no siblings of a record gone
    assert_refused(window, "record 1 of page 1", "delete by ana, ", "apply to 2 siblings")


# -- a restore from the history --------------------------------------------------------------------------------


def test_a_restore_over_a_change_the_history_did_not_show_is_refused(window, elsewhere):
    added = window.edit("new record", lambda: window.project.add_record("1", [ITEM.format(3)], window.person))
    assert added is not None
    key(window, "Ctrl+H")
    dialog = window.tools.history_dialog
    assert dialog is not None and dialog.isVisible()
    elsewhere.add_record("1", [ITEM.format(4)], ANA)  # after the history was shown: a restore would take it back
    entries = len(elsewhere.history("1"))

    imported = elsewhere.history("1")[0]
    dialog.choose(imported.id)  # back to items 1 and 2
    QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert [xpaths for _, xpaths in states(elsewhere)] == [(ITEM.format(k),) for k in (1, 2, 3, 4)]
    assert len(elsewhere.history("1")) == entries
    assert_refused(window, "page 1", "add (accepted) by ana, ", f"restore to change 1 ({local_time(imported.at)})")
    assert dialog.entries.topLevelItem(0).text(2) == "ana"  # the history shows the change now

    # Shown, the change is the person's to take back.
    dialog.choose(elsewhere.history("1")[0].id)
    QTest.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    assert [xpaths for _, xpaths in states(elsewhere)] == [(ITEM.format(k),) for k in (1, 2)]
    dialog.close()


# -- the Review's decisions ------------------------------------------------------------------------------------


@contextmanager
def reviewing(qtbot, tmp_path: Path, beas: list[list[str]] | None = None) -> Iterator[MainWindow]:
    """A window reviewing bea on page 1, where the project's records are items 1 and 2, and bea's `beas` (by
    default each of them and one more: items 1 and 3, items 2 and 4, two matched pairs)."""
    project_dir = one_list_and_beas(tmp_path)
    if beas is not None:
        with open_project(project_dir) as project:
            project.annotators.set_page("bea", "1", beas)
    shown = open_window(project_dir, tmp_path / "settings.json", qtbot=qtbot)
    try:
        review_bea(qtbot, shown)
        yield shown
    finally:
        shown.close()


def just_after_the_review_looked(window: MainWindow, monkeypatch, change) -> None:  # noqa: ANN001
    """The other writer's `change` committed right after the review looked whether the labels it was made of are
    still the project's (which they then are), before the decision's own write."""
    looked = window.reviewing._changed_underneath

    def then_changed(name: str, page: str) -> bool:
        underneath = looked(name, page)
        change()
        return underneath

    monkeypatch.setattr(window.reviewing, "_changed_underneath", then_changed)


def test_a_decision_on_a_record_changed_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch):
    with reviewing(qtbot, tmp_path) as window, open_project(window.project.root) as other:
        assert kinds(window) == ["matched", "matched"]
        one = window.project.labels("1")[0].id
        just_after_the_review_looked(window, monkeypatch, lambda: other.reject(one, ANA))
        choose(window, "matched")
        key(window, "T")  # would make the rejected record bea's version of it: edited, a true record again
        assert states(other)[0] == ("rejected", (ITEM.format(1),))
        assert_refused(window, "record 1 of page 1", "reject by ana, ", "take bea's version of the record")
        assert not window.undo_group.canUndo()


def test_a_merge_on_a_record_changed_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch):
    beas = [[ITEM.format(1), ITEM.format(3), ITEM.format(4)]]  # record 1 and more: partial; record 2: missed
    with reviewing(qtbot, tmp_path, beas) as window, open_project(window.project.root) as other:
        assert sorted(kinds(window)) == ["missed", "partial"]
        one = window.project.labels("1")[0].id
        just_after_the_review_looked(window, monkeypatch, lambda: other.edit(one, [ITEM.format(1), ITEM.format(2)],
                                                                             ANA))
        choose(window, "partial")
        key(window, "Shift+T")  # would merge bea's elements into the record as the review read it
        assert states(other)[0] == ("edited", (ITEM.format(1), ITEM.format(2)))
        assert other.adjudication.kept("1", "bea") == frozenset()
        assert_refused(window, "record 1 of page 1", "edit", "merge bea's record into the project's")


def test_a_deletion_of_a_record_changed_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path, monkeypatch):
    beas = [[ITEM.format(1)]]  # bea made none of item 2: T on record 2 deletes it
    with reviewing(qtbot, tmp_path, beas) as window, open_project(window.project.root) as other:
        two = window.project.labels("1")[1].id
        just_after_the_review_looked(window, monkeypatch, lambda: other.edit(two, [ITEM.format(2), ITEM.format(3)],
                                                                             ANA))
        choose(window, "missed")
        key(window, "T")
        assert states(other)[1] == ("edited", (ITEM.format(2), ITEM.format(3)))  # not deleted over the edit
        assert_refused(window, "record 2 of page 1", "edit", "delete the record bea did not make")


def test_an_accept_of_a_rejected_record_changed_elsewhere_since_the_review_looked_is_refused(qtbot, tmp_path,
                                                                                            monkeypatch):
    beas = [[ITEM.format(1)], [ITEM.format(2)], [ITEM.format(3)]]  # item 3, which the project rejected
    with reviewing(qtbot, tmp_path, beas) as window, open_project(window.project.root) as other:
        third = other.add_record("1", [ITEM.format(3)], ANA, status="rejected").record.id
        window.reload_labels()  # as its look at the project shows the rejected record
        assert kinds(window).count("spurious") == 1
        just_after_the_review_looked(window, monkeypatch, lambda: other.edit(third, [ITEM.format(3), ITEM.format(4)],
                                                                             ANA))
        choose(window, "spurious")
        key(window, "T")  # would accept the rejected record, edited meanwhile into another one, as bea's
        assert states(other)[2] == ("edited", (ITEM.format(3), ITEM.format(4)))
        assert_refused(window, "record 3 of page 1", "edit", "accept the project's rejected record as bea's")


def test_a_decision_on_a_record_changed_elsewhere_before_the_review_looked_is_refused(qtbot, tmp_path):
    """Already so before the checks inside the write: the review looks at the labels before it decides."""
    with reviewing(qtbot, tmp_path) as window, open_project(window.project.root) as other:
        one = window.project.labels("1")[0].id
        other.reject(one, ANA)
        choose(window, "matched")
        key(window, "T")
        assert states(other)[0] == ("rejected", (ITEM.format(1),))
        assert said(window).startswith("the project's labels of page 1 changed since the review showed them "
                                       "(another window, or the command line): nothing taken")


# ---- undo and redo over a change committed just before their own write ----


def reject_shown(window: MainWindow, number: int) -> None:
    window.select_records([window.labels[number - 1].id])
    window.record_actions.do_reject()


def assert_undo_refused(window: MainWindow, step: str) -> None:
    now = said(window)
    assert now.startswith("page 1 changed elsewhere since (add (accepted) by ana, "), now
    assert f"{step} refused; the history (Ctrl+H) can restore any earlier state" in now
    assert not window.undo_group.canUndo() and not window.undo_group.canRedo()  # its steps went


def test_an_undo_over_a_change_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))

    window.record_actions.do_undo()  # would restore the page to before the reject: item 3's record gone with it
    assert states(elsewhere) == [("rejected", (ITEM.format(1),)), ("accepted", (ITEM.format(2),)),
                                 ("accepted", (ITEM.format(3),))]
    assert_undo_refused(window, "undo")
    assert "undone on page 1" not in recent_messages(window)
    assert [(label.status, label.xpaths) for label in window.labels] == states(elsewhere)  # shown as it now is


def test_a_redo_over_a_change_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    window.record_actions.do_undo()
    assert states(elsewhere)[0] == ("accepted", (ITEM.format(1),))
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))

    window.record_actions.do_redo()  # would restore the page to just after the reject: item 3's record gone
    assert states(elsewhere) == [("accepted", (ITEM.format(k),)) for k in (1, 2, 3)]
    assert_undo_refused(window, "redo")


def test_the_undo_of_a_step_made_just_after_a_change_elsewhere_keeps_that_change(window, elsewhere, monkeypatch):
    reject_shown(window, 1)
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.add_record("1", [ITEM.format(3)], ANA))
    reject_shown(window, 2)  # made after the other's record: its undo takes back its own reject alone
    assert [status for status, _ in states(elsewhere)] == ["rejected", "rejected", "accepted"]

    window.record_actions.do_undo()
    assert states(elsewhere) == [("rejected", (ITEM.format(1),)), ("accepted", (ITEM.format(2),)),
                                 ("accepted", (ITEM.format(3),))]
    # The reject of record 1 came before the other's record: its undo would take that record back too.
    assert not window.undo_group.canUndo()
    window.record_actions.do_undo()
    assert len(elsewhere.labels("1")) == 3


def assert_mark_step_refused(window: MainWindow, step: str, moved: str) -> None:
    now = said(window)
    assert now.startswith(f"page 1 changed elsewhere since (page {moved} → new by ana, "), now
    assert f"{step} refused; the history (Ctrl+H) can restore any earlier state" in now
    assert window.shown_status == "new"  # shown as the project now is
    assert not window.undo_group.canUndo() and not window.undo_group.canRedo()  # its steps went


def test_the_undo_of_a_mark_over_a_mark_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    assert elsewhere.page("1").status == "labelled"
    window.record_actions.do_mark_reviewed()
    assert elsewhere.page("1").status == "reviewed"
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.set_status("1", "new", ANA))

    window.record_actions.do_undo()  # would put back "labelled" over the other's "new"
    assert elsewhere.page("1").status == "new"
    assert_mark_step_refused(window, "undo", "reviewed")
    assert "undone on page 1" not in recent_messages(window)


def test_the_redo_of_a_mark_over_a_mark_made_just_before_its_write_is_refused(window, elsewhere, monkeypatch):
    window.record_actions.do_mark_reviewed()
    window.record_actions.do_undo()
    assert elsewhere.page("1").status == "labelled"
    just_before_the_next_write(window, monkeypatch, lambda: elsewhere.set_status("1", "new", ANA))

    window.record_actions.do_redo()  # would mark it "reviewed" over the other's "new"
    assert elsewhere.page("1").status == "new"
    assert_mark_step_refused(window, "redo", "labelled")
