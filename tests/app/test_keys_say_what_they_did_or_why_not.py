"""What the keys say, found by a verifier using the app with the keyboard alone: V on a page of unjudged proposals
marked it reviewed at once (export then wrote it with no records), where L first asks; in Review (F6) the record
keys did nothing and said nothing, N promised a click Review refuses and J named the labelling selection, which
Review does not show; U that grew a record over others did not say it holds them, as a click does; and undo, N,
a click selecting a record and T deleting one named no record, or no key but the click.

On the main window's project: page 1 the demo product grid (labelled, 16 cards), page 2 a plain list (new).
"""

from __future__ import annotations

import pytest

from tests.app.demo_project import ITEM, MDR
from tests.app.review_helpers import choose, half_run, review_bea
from tests.app.window_helpers import click, key, said, wait_for_labels

pytestmark = pytest.mark.app

EXPORT_WARNING = "export writes only accepted and edited records, so they would be left out"


def proposals_on_page_2(window) -> None:
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(1)], [ITEM.format(2)]], MDR)
    window.reload_labels()
    assert window.project.page("2").status == "proposed"


def test_v_on_a_page_with_proposals_says_what_export_does_and_asks_again_as_l_does(qtbot, window):
    proposals_on_page_2(window)
    key(window, "V")
    assert window.project.page("2").status == "proposed"
    assert said(window).startswith("V again marks page 2 reviewed with 2 proposed record(s) nobody judged")
    assert EXPORT_WARNING in said(window)
    key(window, "V")
    assert window.project.page("2").status == "reviewed"
    assert said(window) == "page 2 marked reviewed"


def test_l_asking_is_no_yes_to_v_nor_v_asking_to_l(qtbot, window):
    proposals_on_page_2(window)
    key(window, "L")
    key(window, "V")  # L's question on show: V asks its own
    assert window.project.page("2").status == "proposed"
    assert said(window).startswith("V again marks page 2 reviewed")
    key(window, "L")
    assert window.project.page("2").status == "proposed"
    assert said(window).startswith("L again marks page 2 labelled")


def test_in_review_the_record_keys_say_how_to_get_back_to_labelling(qtbot, window):
    window.select_records([window.labels[0].id])
    window.start_review(half_run(window.project))
    qtbot.waitUntil(lambda: window.reviewing.active() and window.review is not None, timeout=20_000)
    window.page_view.wait_until_drawn()
    before = [(label.status, label.xpaths) for label in window.project.labels("1")]
    for keys in ("A", "R", "Del", "M", "S", "G", "Shift+G", "N", "J", "K", "U", "Shift+U", "E", "Ctrl+A"):
        window.statusBar().clearMessage()
        key(window, keys)
        assert said(window).startswith("review mode: switch to the Records tab (F6) to "), (keys, said(window))
        assert "click" not in said(window) and "selected" not in said(window), (keys, said(window))
    assert [(label.status, label.xpaths) for label in window.project.labels("1")] == before
    assert not window.record_actions.arm_new  # N started no record for the next click on the page


def test_u_that_grows_a_record_over_others_says_it_holds_them_as_a_click_does(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    for k in (1, 2):
        window.project.add_record("2", [ITEM.format(k)], window.person)
    window.reload_labels([])
    click(window, f"{ITEM.format(3)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 3)
    key(window, "U")
    assert said(window).startswith("record 3 now holds /body[1]/ul[1]/li[3]")
    assert "holds record" not in said(window).removeprefix("record 3 now holds")
    key(window, "U")
    assert window.project.labels("2")[2].xpaths == ("/body[1]/ul[1]",)
    assert "; it holds records 1, 2 as well" in said(window), said(window)


def test_n_and_a_click_that_selects_name_e_beside_the_click(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_record("2", [ITEM.format(1)], window.person)
    window.reload_labels([])
    click(window, f"{ITEM.format(1)}/b[1]")  # inside the record: selects it
    qtbot.waitUntil(lambda: said(window).startswith("record 1 selected"), timeout=5_000)
    assert said(window).startswith("record 1 selected: a click now adds to it or takes from it (E too, on the "
                                   "element in keyboard focus); Esc deselects, N then a click (or E) starts")
    key(window, "N")
    assert said(window).startswith("click an element of the page, or press E on the one in keyboard focus")


def test_undo_and_redo_name_the_records_of_the_step(qtbot, window):
    proposals_on_page_2(window)
    first, second = (label.id for label in window.labels)
    window.select_records([second])
    key(window, "R")
    key(window, "Ctrl+Z")
    assert said(window) == "undone on page 2: reject record 2"
    key(window, "Ctrl+Shift+Z")
    assert said(window) == "redone on page 2: reject record 2"
    window.select_records([first, second])
    key(window, "A")
    key(window, "Ctrl+Z")
    assert said(window) == "undone on page 2: accept record ×2 (records 1, 2)"
    # The history names the step as before: its records are in a column of their own.
    assert window.project.history("2")[-1].detail.get("why") == "undo: accept record ×2"
    window.select_records([])
    click(window, f"{ITEM.format(3)}/b[1]")  # nothing selected: a new record, numbered 3
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 3)
    window.select_records([])
    click(window, f"{ITEM.format(4)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 4)
    key(window, "Ctrl+Z")
    assert said(window) == "undone on page 2: new record 4"


def test_t_deleting_the_record_bea_did_not_make_gives_its_number(qtbot, window):
    truth = window.project.true_records("1")
    window.project.annotators.set_page("bea", "1", [*truth[:3], *truth[4:]])  # no card 4
    review_bea(qtbot, window)
    choose(window, "missed", 0)
    key(window, "T")
    assert "delete the record bea did not make (record 4)" in said(window), said(window)
    key(window, "Ctrl+Z")
    assert said(window) == "undone on page 1: delete the record bea did not make (record 4)"
