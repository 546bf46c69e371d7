"""A window and another writer on one project (another window, the command line: here a second connection on the
project file): an edit made in the window on a record the other changed since the window last looked (up to
1.5 s before its next look) is refused and said, never a write over the other's change. A click adding or taking
out an element, a narrowing, U, Delete, merge and split are meant on the records as the window shows them; a
change to another record of the page is no reason to refuse.

The window looks at its project on a timer (`check_project`), which the tests leave off: its look has not come yet
when the edit is made.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.core.store import Project, Provenance, open_project
from tests.app.demo_project import ITEM
from tests.app.list_projects import one_list
from tests.app.window_helpers import open_window, recent_messages

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


def assert_refused(window: MainWindow, number: int, change: str, step: str) -> None:
    """The window said the step refused, naming the record and the change made elsewhere, and shows the page as
    the project now is."""
    said = window.statusBar().currentMessage()
    assert said.startswith(f"record {number} of page 1 changed elsewhere since ({change}"), said
    assert said.endswith(f"): {step} refused; shown as the project now is"), said
    assert [(label.status, label.xpaths) for label in window.labels] == states(window.project)


def test_an_element_clicked_into_a_record_rejected_elsewhere_is_refused(window, elsewhere):
    one = window.labels[0].id
    window.select_records([one])
    elsewhere.reject(one, ANA)
    entries = len(elsewhere.history("1"))

    window.record_actions.on_element_clicked(ITEM.format(3))  # would make the rejected record an edited, true one
    assert states(elsewhere)[0] == ("rejected", (ITEM.format(1),))
    assert len(elsewhere.history("1")) == entries
    assert_refused(window, 1, "reject by ana, ", "add to record")
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
    assert_refused(window, 2, "edit", "delete record")
    assert window.record_panel.selected_ids() == [two]


def test_a_narrowing_and_a_climb_on_a_record_changed_elsewhere_are_refused(window, elsewhere):
    one = window.labels[0].id
    bold = f"{ITEM.format(1)}/b[1]"
    window.select_records([one])
    elsewhere.reject(one, ANA)
    window.record_actions.on_element_clicked(bold)  # inside the record's element: narrows it to the <b>
    assert states(elsewhere)[0] == ("rejected", (ITEM.format(1),))
    assert_refused(window, 1, "reject by ana, ", "narrow record")

    window.record_actions.on_element_clicked(bold)  # shown rejected now: narrowed
    assert states(elsewhere)[0] == ("edited", (bold,))
    elsewhere.accept(one, ANA)  # the same elements, another status
    window.record_actions.do_parent_element()  # U: back up to the <li>
    assert states(elsewhere)[0] == ("accepted", (bold,))
    assert_refused(window, 1, "accept by ana, ", "parent element")


def test_a_merge_of_records_one_changed_elsewhere_is_refused_and_another_changed_is_no_reason(window, elsewhere):
    third = elsewhere.add_record("1", [ITEM.format(4)], ANA).record.id
    window.reload_labels()  # as its look at the project shows the third record
    one, two = window.labels[0].id, window.labels[1].id
    window.select_records([one, two])
    elsewhere.reject(two, ANA)

    window.record_actions.do_merge()
    assert [label.id for label in elsewhere.labels("1")] == [one, two, third]  # nothing merged away
    assert states(elsewhere)[1] == ("rejected", (ITEM.format(2),))
    assert_refused(window, 2, "reject by ana, ", "merge 2 records")
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
    assert_refused(window, 1, "reject by ana, ", "split record")


def test_a_deletion_of_records_one_edited_elsewhere_is_refused_whole(window, elsewhere):
    one, two = window.labels[0].id, window.labels[1].id
    window.select_records([one, two])
    elsewhere.edit(two, [ITEM.format(2), ITEM.format(3)], ANA)

    window.record_actions.do_delete()
    assert states(elsewhere) == [("accepted", (ITEM.format(1),)), ("edited", (ITEM.format(2), ITEM.format(3)))]
    assert_refused(window, 2, "edit", "delete record")

    # Record 1 is as shown: a change to record 2 since is no reason to refuse its deletion.
    elsewhere.reject(two, ANA)
    window.select_records([one])
    window.record_actions.do_delete()
    assert states(elsewhere) == [("rejected", (ITEM.format(2), ITEM.format(3)))]
