"""A or R over several records says the decisions it overturns, however they were selected (Ctrl+A, Shift+click,
Shift+G): a verifier accepted record 1, pressed Shift+G on record 2 and R, and read "rejected 3 records" while the
accepted record 1 had been rejected with them, unsaid (Ctrl+Z brought it back, but nothing told them to press it).
Shift+G on a proposal now selects the list's other proposals alone: the records judged before (accepted, edited,
rejected) stay as they were decided, and are said as left out; on a judged record it selects as before."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import click_row, key, said

pytestmark = pytest.mark.app


def four_proposals(window: MainWindow) -> list[int]:
    """Page 2 on show, its four items proposed as records 1 to 4; their ids."""
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(k)] for k in (1, 2, 3, 4)], MDR)
    window.reload_labels([])
    return [label.id for label in window.labels]


def statuses(window: MainWindow) -> list[str]:
    return [label.status for label in window.project.labels("2")]


def shift_click_row(window: MainWindow, row: int) -> None:
    """A real Shift+click on a row of the record list."""
    rows = window.record_panel.list
    QTest.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier,
                     rows.visualItemRect(rows.item(row)).center())


def test_shift_g_on_a_proposal_leaves_the_accepted_record_of_its_list_out_and_r_keeps_it(qtbot, window):
    ids = four_proposals(window)
    key(window, "J")  # record 1
    key(window, "A")  # accepted; on to record 2
    assert window.record_panel.selected_ids() == [ids[1]]
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == ids[1:]
    assert said(window) == ("3 records of record 2's list selected: A or R judges them all, Esc clears the selection; "
                            "left out 1 record judged before (accepted: record 1)")
    key(window, "R")
    assert statuses(window) == ["accepted", "rejected", "rejected", "rejected"]
    assert said(window) == "rejected 3 records; no proposal left on page 2"


def test_r_after_ctrl_a_says_the_accepted_record_it_rejected(qtbot, window):
    ids = four_proposals(window)
    key(window, "J")
    key(window, "A")
    key(window, "Ctrl+A")
    assert window.record_panel.selected_ids() == ids
    key(window, "R")
    assert statuses(window) == ["rejected"] * 4
    assert said(window) == ("rejected 4 records (record 1 was accepted: Ctrl+Z takes the whole step back); no "
                            "proposal left on page 2")
    key(window, "Ctrl+Z")
    assert statuses(window) == ["accepted", "proposed", "proposed", "proposed"]


def test_a_over_a_shift_click_selection_says_the_rejections_it_overturned(qtbot, window):
    four_proposals(window)
    key(window, "J")
    key(window, "R")  # record 1 rejected, on to record 2
    key(window, "R")  # record 2 rejected, on to record 3
    click_row(window, 0)
    shift_click_row(window, 2)  # records 1 to 3
    assert len(window.record_panel.selected_ids()) == 3
    key(window, "A")
    assert statuses(window) == ["accepted", "accepted", "accepted", "proposed"]
    assert said(window) == "accepted 3 records (records 1, 2 were rejected: Ctrl+Z takes the whole step back)"


def test_shift_g_on_a_rejected_record_selects_the_whole_list_and_a_says_what_it_overturned(qtbot, window):
    ids = four_proposals(window)
    window.project.reject(ids[0], window.person)
    window.project.accept(ids[2], window.person)
    window.project.edit(ids[3], [ITEM.format(4) + "/b[1]", ITEM.format(4) + "/i[1]"], window.person)
    window.reload_labels([ids[0]])
    key(window, "Shift+G")  # pointing at a rejection: the list as it stands, decided ones too
    assert window.record_panel.selected_ids() == ids
    key(window, "R")
    assert statuses(window) == ["rejected"] * 4
    assert said(window) == ("rejected 3 records (1 already rejected; record 3 was accepted and record 4 was edited: "
                            "Ctrl+Z takes the whole step back); no proposal left on page 2")


def test_shift_g_on_a_proposal_among_judged_records_alone_says_why_and_how(qtbot, window):
    ids = four_proposals(window)
    window.project.accept(ids[0], window.person)
    window.project.reject(ids[2], window.person)
    window.project.reject(ids[3], window.person)
    window.reload_labels([ids[1]])
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == [ids[1]]
    assert said(window) == ("record 2's list holds no other proposal: its 3 other records were judged before "
                            "(accepted: record 1; rejected: records 3, 4); Shift+G on a rejected one selects them all")
    window.reload_labels([ids[0]])  # on the accepted one: the records not rejected, as before
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == ids[:2]
    assert said(window) == ("2 records of record 1's list selected: A or R judges them all, Esc clears the selection; "
                            "left out 2 records judged before (rejected: records 3, 4)")
