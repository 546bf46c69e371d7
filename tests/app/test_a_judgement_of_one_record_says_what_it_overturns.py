"""A or R on one record says the decision it overturns, in the words it uses of a selection of several ("record 1
was accepted: Ctrl+Z takes the whole step back") and for as long: a reviewer who clicked an accepted record's row
and pressed R read "rejected record 1; next proposal: record 2" for three seconds, the acceptance gone unsaid."""

from __future__ import annotations

import pytest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.demo_project import ITEM
from tests.app.test_a_judgement_over_a_selection_says_what_it_overturns import four_proposals  # the same page
from tests.app.window_helpers import click_row, key, said

pytestmark = pytest.mark.app


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
