"""A and R move on to the next proposal, and stay on the record they judged when none is left: one A or R too many
in that rhythm (A, A, A, R on a page of three proposals) is refused on it rather than silently overturn the decision
just made; on a record the user selects again (J / K, a click on its row) A and R change it as ever."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def statuses(window) -> list[str]:
    return [label.status for label in window.project.labels(window.page_name)]


def test_a_or_r_after_the_last_proposal_is_refused_until_a_record_is_selected(qtbot, window):
    window.project.add_records("2", [[ITEM.format(k)] for k in (1, 2, 3)], MDR)
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    key(window, "J")  # the first proposal
    for _ in range(3):
        key(window, "A")
    assert said(window) == "accepted record 3; no proposal left on page 2"
    assert statuses(window) == ["accepted"] * 3

    key(window, "R")  # one key too many: record 3 stays accepted, and why is said
    assert statuses(window) == ["accepted"] * 3
    assert said(window) == ("record 3 is already accepted; no proposal left on page 2: select a record to change "
                            "it")  # the last page: no next page to name
    key(window, "A")
    assert statuses(window) == ["accepted"] * 3 and said(window).startswith("record 3 is already accepted")

    key(window, "K")
    key(window, "J")  # record 3 selected by the user: R changes it
    key(window, "R")
    assert statuses(window) == ["accepted", "accepted", "rejected"]
    assert said(window).startswith("rejected record 3")
    key(window, "A")  # and A changes it back: it was no proposal
    assert statuses(window) == ["accepted"] * 3


def test_a_click_on_the_row_of_the_record_left_selected_chooses_it(qtbot, window):
    window.project.add_records("2", [[ITEM.format(1)]], MDR)
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    key(window, "J")
    key(window, "R")
    key(window, "A")
    assert statuses(window) == ["rejected"]
    records = window.record_panel.list
    QTest.mouseClick(records.viewport(), Qt.MouseButton.LeftButton,
                     pos=records.visualItemRect(records.item(0)).center())
    key(window, "A")
    assert statuses(window) == ["accepted"]


def test_the_refusal_names_the_key_to_the_next_page(qtbot, window):
    window.project.add_records("1", [[ITEM.format(1)]], MDR)
    window.reload_labels()
    proposal = next(label.id for label in window.labels if label.status == "proposed")
    window.select_records([proposal])
    key(window, "R")
    assert said(window).endswith("; no proposal left on page 1")
    key(window, "A")
    assert window.label(proposal).status == "rejected"
    assert said(window).endswith(f"select a record to change it, or {window.keys_for('next_page')} for the next page")
