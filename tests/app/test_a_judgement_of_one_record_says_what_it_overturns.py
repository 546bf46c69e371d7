"""A or R on one record says the decision it overturns, in the words it uses of a selection of several ("record 1
was accepted: Ctrl+Z takes the whole step back") and for as long: a reviewer who clicked an accepted record's row
and pressed R read "rejected record 1; next proposal: record 2" for three seconds, the acceptance gone unsaid."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import key, said

pytestmark = pytest.mark.app


def four_proposals(window: MainWindow) -> list[int]:
    """Page 2 on show, its four items proposed as records 1 to 4, none selected; their ids."""
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(k)] for k in (1, 2, 3, 4)], MDR)
    window.reload_labels([])
    return [label.id for label in window.labels]


def click_row(window: MainWindow, row: int) -> None:
    """A real click on a row of the record list."""
    rows = window.record_panel.list
    QTest.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=rows.visualItemRect(rows.item(row)).center())


def times_said(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Each message the window says from now on, with how long the status bar shows it."""
    heard: list[tuple[str, int]] = []
    say = window.message

    def message(text: str, ms: int = 6000, **how: bool) -> None:
        heard.append((text, ms))
        say(text, ms, **how)

    monkeypatch.setattr(window, "message", message)
    return heard


def statuses(window: MainWindow) -> list[str]:
    return [label.status for label in window.project.labels("2")]


def test_r_on_one_accepted_record_says_the_acceptance_it_overturns(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    window.project.accept(ids[0], window.person)
    window.reload_labels([])
    click_row(window, 0)
    assert window.record_panel.selected_ids() == [ids[0]]
    heard = times_said(window, monkeypatch)
    key(window, "R")
    assert statuses(window) == ["rejected", "proposed", "proposed", "proposed"]
    assert said(window) == ("rejected record 1 (record 1 was accepted: Ctrl+Z takes the whole step back); next "
                            "proposal: record 2")
    assert heard[-1] == (said(window), 15000)  # as long as a list's overturned decisions are shown
    key(window, "Ctrl+Z")
    assert statuses(window) == ["accepted", "proposed", "proposed", "proposed"]


def test_a_on_one_rejected_or_edited_record_says_so_too(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    window.project.reject(ids[1], window.person)
    window.project.edit(ids[2], [ITEM.format(3) + "/b[1]", ITEM.format(3) + "/i[1]"], window.person)
    window.reload_labels([])
    click_row(window, 1)
    key(window, "A")
    assert said(window) == ("accepted record 2 (record 2 was rejected: Ctrl+Z takes the whole step back); next "
                            "proposal: record 4")
    click_row(window, 2)
    key(window, "R")
    assert said(window) == ("rejected record 3 (record 3 was edited: Ctrl+Z takes the whole step back); next "
                            "proposal: record 4")


def test_a_on_a_proposal_overturns_nothing_and_says_nothing_more(qtbot, window, monkeypatch):
    ids = four_proposals(window)
    window.reload_labels([ids[0]])
    heard = times_said(window, monkeypatch)
    key(window, "A")
    assert said(window) == "accepted record 1; next proposal: record 2"
    assert heard[-1] == (said(window), 3000)
    key(window, "R")  # record 2, a proposal: rejecting it overturns no decision either
    assert said(window) == "rejected record 2; next proposal: record 3"
