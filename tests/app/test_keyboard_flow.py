"""Keyboard flow and feedback (issue 12): Esc out of the search box, J past the last record, F6 on the latest run,
L on a page with proposals, one vocabulary, and a project that reopens where it was left."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import Settings
from recordlens.core.store.project import Provenance
from tests.app.demo_project import ITEM, MDR
from tests.app.window_helpers import click, key, open_window, wait_for_labels

pytestmark = pytest.mark.app


def type_in_the_finder(qtbot, window: MainWindow, text: str) -> None:
    """/ as a person presses it, then the words."""
    key(window, "/")
    qtbot.waitUntil(window.record_panel.finder.hasFocus, timeout=2_000)
    QTest.keyClicks(window.record_panel.finder, text)


def test_esc_leaves_the_search_box_and_keeps_the_selection(qtbot, window):
    first = window.project.labels("1")[0]
    window.select_records([first.id])
    key(window, "Ctrl+F")
    qtbot.waitUntil(window.page_list.search.hasFocus, timeout=2_000)
    QTest.keyClick(window.page_list.search, "x")
    QTest.keySequence(window.page_list.search, "Esc")
    assert not window.page_list.search.hasFocus()
    assert window.record_panel.selected_ids() == [first.id]


def test_enter_in_the_search_box_opens_the_page_found_and_gives_the_keys_back(qtbot, window):
    assert window.page_name == "1"
    key(window, "Ctrl+F")
    qtbot.waitUntil(window.page_list.search.hasFocus, timeout=2_000)
    QTest.keyClicks(window.page_list.search, "2")
    assert window.page_list.names() == ["2"]
    QTest.keyClick(window.page_list.search, Qt.Key.Key_Return)
    assert window.page_name == "2"
    assert not window.page_list.search.hasFocus()


def test_j_after_the_last_record_offers_the_next_page_and_j_again_opens_it(qtbot, window):
    labels = window.project.labels("1")
    window.select_records([labels[-1].id])
    key(window, "J")
    assert window.page_name == "1"
    assert "J again opens page 2" in window.statusBar().currentMessage()
    key(window, "J")
    assert window.page_name == "2" and window.statusBar().currentMessage() == "page 2"


def test_k_on_the_first_record_says_so_and_the_record_list_starts_at_the_top_of_a_new_page(qtbot, window):
    labels = window.project.labels("1")
    window.select_records([labels[0].id])
    key(window, "K")
    assert window.record_panel.selected_ids() == [labels[0].id]
    assert window.statusBar().currentMessage() == "first record of page 1"
    window.open_page("2")
    for k in range(40):
        window.project.add_record("2", [f"/body[1]/p[{k + 1}]"], window.person)
    window.reload_labels([])
    window.record_panel.list.scrollToBottom()
    assert window.record_panel.list.verticalScrollBar().value() > 0
    window.open_page("1")
    assert window.record_panel.list.verticalScrollBar().value() == 0


def test_f6_opens_review_on_the_latest_run(qtbot, window):
    project = window.project
    assert "no run yet" in window.review_panel.runs.itemText(0)  # how to get one, where one would be chosen
    for _ in range(2):
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"1": project.true_records("1")[:3]})
        project.runs.finish(run)
    key(window, "F6")
    assert window.reviewing.active() and window.reviewing.run_id == run
    assert window.review is not None and window.review.count("matched") == 3
    key(window, "F6")
    assert not window.reviewing.active()
    stopped = project.runs.add("budgeted")  # a run that stopped early, with a page it failed on: said so
    project.runs.add_predictions(stopped, {"1": []}, errors={"2": "the model refused it"})
    project.runs.finish(stopped, cost={"stopped": "request budget used up"})
    key(window, "F6")
    runs = window.review_panel.runs
    assert runs.itemText(runs.findData(stopped)) == f"#{stopped} budgeted (stopped, 1 page, 1 failed)"


def test_f6_with_no_run_opens_the_first_annotators_comparison_or_says_what_review_needs(qtbot, window):
    key(window, "F6")
    assert "nothing to review yet" in window.statusBar().currentMessage()
    key(window, "F6")
    assert not window.reviewing.active()
    window.project.annotators.set_page("bea", "1", window.project.true_records("1")[1:])
    key(window, "F6")
    assert window.reviewing.active() and window.reviewing.run_id == "annotator:bea"
    assert window.review is not None and window.review.count("missed") == 1


def test_the_runs_list_opened_in_review_lists_a_run_added_from_the_command_line_meanwhile(qtbot, window):
    from recordlens.core.store import open_project

    window.tabs.setCurrentWidget(window.review_panel)  # Review, before any run exists
    runs = window.review_panel.runs
    assert runs.count() == 1 and "no run yet" in runs.itemText(0)
    with open_project(window.project.root) as elsewhere:  # `recordlens runs --add` in a terminal
        added = elsewhere.runs.add("handmade")
        elsewhere.runs.add_predictions(added, {"1": elsewhere.true_records("1")[:2]})
        elsewhere.runs.finish(added)
    runs.showPopup()  # the person opens the list
    try:
        assert runs.findData(added) > 0 and "choose a run" in runs.itemText(0)
    finally:
        runs.hidePopup()


def test_l_on_a_page_with_proposals_says_what_export_does_and_asks_again(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_record("2", [ITEM.format(1)], MDR)
    window.reload_labels()
    assert window.project.page("2").status == "proposed"
    assert "page in progress" in window.counts_label.text()  # a page is never "proposed": records are
    key(window, "L")
    assert window.project.page("2").status == "proposed"
    message = window.statusBar().currentMessage()
    assert "1 proposed record" in message and "export writes only accepted and edited records" in message
    assert message.startswith("L again marks page 2 labelled")  # the key first: a narrow bar cuts the end
    key(window, "A")  # another action in between: the question is over, L asks again
    assert window.project.page("2").status == "proposed"
    key(window, "L")
    assert window.project.page("2").status == "proposed"
    assert "export writes only accepted" in window.statusBar().currentMessage()
    window.statusBar().clearMessage()  # its 15 s are over
    key(window, "L")
    assert window.project.page("2").status == "proposed"
    key(window, "L")
    assert window.project.page("2").status == "labelled"
    words = [window.page_list.status_filter.itemText(i) for i in range(window.page_list.status_filter.count())]
    assert "in progress" in words and "proposed" not in words


def test_l_on_a_page_already_labelled_records_nothing_and_says_so(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    key(window, "L")
    assert window.project.page("2").status == "labelled"
    history, steps = len(window.project.history("2")), window.undo_group.activeStack().count()
    key(window, "L")
    assert window.project.page("2").status == "labelled"
    assert (len(window.project.history("2")), window.undo_group.activeStack().count()) == (history, steps)
    assert window.statusBar().currentMessage() == "page 2 is already labelled"


def test_the_project_reopens_on_the_page_it_was_left_on(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"

    def reopen() -> MainWindow:
        return open_window(project_dir, settings_file, settings=Settings.load(settings_file))

    first = reopen()
    try:
        assert first.page_name == "1"
        first.open_page("2")
    finally:
        first.close()
    second = reopen()
    try:
        assert second.page_name == "2"
    finally:
        second.close()


def test_delete_says_that_the_numbers_after_it_moved(qtbot, window):
    labels = window.project.labels("1")
    window.select_records([labels[1].id])
    key(window, "Del")
    assert "deleted record 2; the records after it now have numbers 1 lower" in window.statusBar().currentMessage()
    last = len(window.labels)
    window.select_records([window.labels[-1].id])
    key(window, "Del")  # the last record: no number moves, and the deletion is said all the same
    assert f"deleted record {last} (Ctrl+Z brings it back)" in window.statusBar().currentMessage()


def test_u_climbs_from_the_clicked_element_to_its_parent_and_shift_u_comes_back(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    bold = f"{ITEM.format(2)}/b[1]"
    window._on_hovered(bold)
    assert window.breadcrumb.full_text().startswith("click: new record")
    click(window, bold)
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 1)
    key(window, "U")
    assert window.project.labels("2")[0].xpaths == (ITEM.format(2),)
    key(window, "U")
    assert window.project.labels("2")[0].xpaths == ("/body[1]/ul[1]",)
    key(window, "Shift+U")
    key(window, "Shift+U")
    assert window.project.labels("2")[0].xpaths == (bold,)
    # Hovering says what a click will do to the selected record, before it is done.
    window._on_hovered(bold)
    assert window.breadcrumb.full_text().startswith("click: remove from record 1")
    window._on_hovered(f"{ITEM.format(3)}/b[1]")
    assert window.breadcrumb.full_text().startswith("click: add to record 1")


def test_u_after_an_undo_climbs_from_what_the_record_still_holds_never_down(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    bold, item = f"{ITEM.format(2)}/b[1]", ITEM.format(2)
    click(window, bold)
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 1)
    record = lambda: window.project.labels("2")[0].xpaths  # noqa: E731
    key(window, "U")
    assert record() == (item,)
    key(window, "Ctrl+Z")  # the U undone: U climbs from the bold element again
    assert record() == (bold,)
    key(window, "U")
    assert record() == (item,)
    # An element clicked in, then the click undone: U has nothing it clicked to climb from, and says so.
    click(window, f"{ITEM.format(3)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels[0].xpaths) == 2)
    key(window, "Ctrl+Z")
    assert record() == (item,)
    key(window, "U")
    assert record() == (item,)
    assert "click an element into the selected record first" in window.statusBar().currentMessage()
    key(window, "Shift+U")
    assert record() == (item,)


def test_a_click_on_an_element_holding_other_records_says_so_before_and_after(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    first = window.project.add_record("2", [ITEM.format(1)], window.person).record.id
    heading = window.project.add_record("2", ["/body[1]/h1[1]"], window.person).record.id
    assert first
    window.reload_labels([heading])
    window._on_hovered("/body[1]/ul[1]")
    assert window.breadcrumb.full_text().startswith("click: add to record 2 (it holds record 1 as well)")
    window.record_actions.on_element_clicked("/body[1]/ul[1]")  # as the overlay reports a click in its margin
    wait_for_labels(qtbot, window, lambda labels: len(labels[1].xpaths) == 2)
    assert "It holds record 1 as well (Ctrl+Z takes it back)" in window.statusBar().currentMessage()
    # With nothing selected, a click there (in the gap between two items, say) makes no record swallowing the
    # others: said before and after; N, then the click, makes one, said before and after too.
    key(window, "Ctrl+Z")  # the list out of the heading's record again
    window.select_records([])
    window._on_hovered("/body[1]/ul[1]")
    assert window.breadcrumb.full_text().startswith("click: nothing, it holds record 1 (N, then a click, makes a "
                                                    "record of it)")
    window.record_actions.on_element_clicked("/body[1]/ul[1]")
    assert len(window.project.labels("2")) == 2
    assert window.statusBar().currentMessage().startswith("no record made: this element holds record 1. N, then")
    key(window, "N")
    window._on_hovered("/body[1]/ul[1]")
    assert window.breadcrumb.full_text().startswith("click: new record (it holds record 1)")
    window.record_actions.on_element_clicked("/body[1]/ul[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 3)
    said = window.statusBar().currentMessage()  # numbered first in page order: the item's record is now 2
    assert said.startswith("new record 1 (the records after it") and "It holds record 2 as well" in said


def test_with_nothing_selected_a_click_on_a_record_or_inside_it_selects_it_and_makes_no_copy(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    outer = window.project.add_record("2", [ITEM.format(2)], window.person).record.id
    window.reload_labels([])
    bold = f"{ITEM.format(2)}/b[1]"
    for xpath in (ITEM.format(2), bold):  # its own element; an element inside it (under its badge)
        window.select_records([])
        window._on_hovered(xpath)
        assert window.breadcrumb.full_text().startswith("click: select record 1")
        click(window, xpath)
        qtbot.waitUntil(lambda: window.record_panel.selected_ids() == [outer], timeout=5_000)
        assert [label.xpaths for label in window.project.labels("2")] == [(ITEM.format(2),)]
        assert window.statusBar().currentMessage().startswith("record 1 selected: a click now adds to it")
    # Nested records: a click selects the innermost one around the element.
    inner = window.project.add_record("2", [bold], window.person).record.id
    window.reload_labels([])
    click(window, f"{bold}")
    qtbot.waitUntil(lambda: window.record_panel.selected_ids() == [inner], timeout=5_000)
    # N first: the click starts a record there, nested as asked, and says so.
    window.select_records([])
    key(window, "N")
    window.record_actions.on_element_clicked(bold)
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 3)
    assert "It lies inside record" in window.statusBar().currentMessage()


def test_a_click_that_adds_another_records_element_says_the_two_now_share_it(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    first = window.project.add_record("2", [ITEM.format(1)], window.person).record.id
    second = window.project.add_record("2", [ITEM.format(2)], window.person).record.id
    window.reload_labels([second])
    window._on_hovered(ITEM.format(1))
    assert "[record 1]" in window.breadcrumb.full_text()
    window.record_actions.on_element_clicked(ITEM.format(1))
    wait_for_labels(qtbot, window, lambda labels: len(labels[1].xpaths) == 2)
    assert first and ("added to record 2. It is record 1's element too: two records now share it (Ctrl+Z takes it "
                      "back).") in window.statusBar().currentMessage()


def test_undo_selects_again_what_was_selected_and_redo_what_was_selected_when_undone(qtbot, window):
    """A deleted record comes back selected; an accept that moved on to the next proposal, undone, goes back to
    the record accepted, and redone, to the one it had moved on to."""
    labels = window.project.labels("1")
    window.select_records([labels[1].id])
    key(window, "Del")
    assert labels[1].id not in {label.id for label in window.labels}
    assert window.record_panel.selected_ids() == []
    key(window, "Ctrl+Z")
    assert window.record_panel.selected_ids() == [labels[1].id]

    proposed = [window.project.add_record("1", [f"/body[1]/p[{k}]"], MDR).record.id for k in (1, 2)]
    window.reload_labels([proposed[0]])
    key(window, "A")
    assert window.record_panel.selected_ids() == [proposed[1]]  # on to the next proposal
    assert window.statusBar().currentMessage() == "accepted record 17; next proposal: record 18"
    key(window, "Ctrl+Z")
    assert window.record_panel.selected_ids() == [proposed[0]]
    assert window.label(proposed[0]).status == "proposed"
    key(window, "Ctrl+Shift+Z")
    assert window.record_panel.selected_ids() == [proposed[1]]
    assert window.label(proposed[0]).status == "accepted"


def test_a_long_message_ends_in_an_ellipsis_before_the_zoom_and_counts_and_is_kept_whole(qtbot, window):
    window.resize(900, 700)
    qtbot.waitUntil(lambda: window.zoom.label.x() > 0, timeout=5_000)
    bar = window.statusBar()
    long = "the page holds " + ", ".join(f"record {k}" for k in range(60)) + ": the end"
    window.message(long)
    shown = bar.shown_text()
    assert shown.endswith("…") and long.startswith(shown[:-1])
    assert bar.fontMetrics().horizontalAdvance(shown) <= window.zoom.label.x() - 2 - 6  # Qt's room for it
    assert bar.currentMessage() == long  # what the window (and L's question) reads
    assert window.messages.entries[-1][1] == long
    window.message("saved")
    assert bar.shown_text() == "saved"
    window.resize(1400, 700)  # more room: the message is fitted again
    window.message(long)
    wide = bar.shown_text()
    window.resize(700, 700)
    qtbot.waitUntil(lambda: len(bar.shown_text()) < len(wide), timeout=5_000)
    assert bar.currentMessage() == long
    from recordlens.annotator.qt.message_bar import MessageBar

    narrow = MessageBar()  # no room at all: still a message, to the eye and to the caller
    narrow.resize(10, 20)
    narrow.showMessage(long)
    assert narrow.shown_text() == "…" and narrow.currentMessage() == long
    narrow.deleteLater()


def test_the_page_list_counts_edited_records_apart_from_accepted_ones(qtbot, window):
    from recordlens.annotator.labelling.page_list import page_line

    labels = window.project.labels("1")
    window.project.edit(labels[0].id, [*labels[0].xpaths, "/body[1]/h1[1]"], window.person)
    info = window.project.page("1")
    assert (info.true_labels, info.edited) == (len(labels), 1)
    assert f"{len(labels) - 1} accepted · 1 edited" in page_line(info)


def test_shift_p_says_which_pages_it_proposes_for_and_how_many_it_leaves_alone(qtbot, window):
    assert window.project.page("1").status != "new" and window.project.page("2").status == "new"
    key(window, "Shift+P")
    assert window.statusBar().currentMessage().startswith(
        "proposing with selector for 1 new page (1 page not new left as they are)")
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
    assert window.project.page("2").status == "proposed"
    assert window.statusBar().currentMessage().endswith(" (1 page not new left as they are)")  # said at the end too
    key(window, "Shift+P")
    assert window.statusBar().currentMessage() == (
        "no new page to propose records for (2 pages not new left as they are)")


def test_ctrl_z_with_nothing_to_undo_says_why_and_where_earlier_changes_are(qtbot, window):
    assert not window.actions_by_name["undo"].isEnabled()  # greyed out in the menu and on the button
    key(window, "Ctrl+Z")
    assert window.statusBar().currentMessage() == (
        "nothing to undo on page 1 in this session; Ctrl+H lists every change to the page, earlier sessions' too, "
        "and restores any of them")
    labels = window.project.labels("1")
    window.select_records([labels[0].id])
    key(window, "Del")
    key(window, "Ctrl+Z")
    assert window.statusBar().currentMessage().startswith("undone on page 1: delete record")
    key(window, "Ctrl+Shift+Z")
    assert window.statusBar().currentMessage().startswith("redone on page 1: delete record")
    key(window, "Ctrl+Shift+Z")
    assert window.statusBar().currentMessage() == "nothing to redo on page 1 in this session"


def test_clicking_a_records_only_element_again_deletes_it_and_says_so(qtbot, window):
    from tests.app.page_helpers import click_element

    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    item = ITEM.format(1)
    click_element(window.page_view, item)
    qtbot.waitUntil(lambda: len(window.project.labels("2")) == 1, timeout=5_000)
    click_element(window.page_view, item)  # a double click, or a second thought
    qtbot.waitUntil(lambda: not window.project.labels("2"), timeout=5_000)
    assert window.statusBar().currentMessage() == (
        "record 1 deleted: its only element was clicked out of it (Ctrl+Z brings it back)")


def test_page_keys_say_when_the_list_has_no_page_further_and_the_clear_button_gives_the_keys_back(qtbot, window):
    from PySide6.QtWidgets import QToolButton

    key(window, "PgUp")
    assert window.statusBar().currentMessage() == "no previous page in the list"
    key(window, "Ctrl+F")
    qtbot.waitUntil(window.page_list.search.hasFocus, timeout=2_000)
    QTest.keyClicks(window.page_list.search, "2")
    QTest.keyClick(window.page_list.search, Qt.Key.Key_Return)
    assert window.page_name == "2"
    key(window, "PgDown")
    assert window.statusBar().currentMessage() == (
        "no next page in the list: it shows only pages of search “2”; clear that to move through every page")
    window.page_list.search.setFocus()
    qtbot.waitUntil(window.page_list.search.hasFocus, timeout=2_000)
    clear = window.page_list.search.findChildren(QToolButton)[0]  # the ⓧ in the box
    qtbot.waitUntil(clear.isVisible, timeout=2_000)
    QTest.mouseClick(clear, Qt.MouseButton.LeftButton)
    assert window.page_list.search.text() == "" and not window.page_list.search.hasFocus()
    key(window, "PgUp")
    assert window.page_name == "1"


def test_a_count_of_one_is_worded_in_the_singular(qtbot, window):
    from recordlens.core.wording import counted

    assert (counted(1, "record"), counted(2, "record"), counted(1_240, "text")) == ("1 record", "2 records",
                                                                                     "1,240 texts")
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_record("2", [ITEM.format(1)], window.person)
    window.reload_labels([])
    key(window, "Ctrl+A")
    assert window.statusBar().currentMessage() == "1 record selected: A or R judges it"
    assert window.record_panel.summary.text().startswith("1 record ·")


def test_a_delete_renumbers_the_records_after_it_but_does_not_repaint_them(qtbot, window):
    labels = window.project.labels("1")
    window.page_view.wait_until_drawn()
    before = {r["xpaths"][0]: r["colour"] for r in window.page_view._records}
    dots = {window.record_panel.list.item(k).text(): window.record_panel.list.item(k).icon().cacheKey()
            for k in range(1, 3)}
    window.select_records([labels[0].id])
    key(window, "Del")
    window.page_view.wait_until_drawn()
    after = {r["xpaths"][0]: r["colour"] for r in window.page_view._records}
    assert len(after) == len(before) - 1 and all(after[x] == before[x] for x in after)
    assert window.page_view._records[0]["label"] == "1"  # the second record is number 1 now, in its own colour
    kept = {window.record_panel.list.item(k).text(): window.record_panel.list.item(k).icon().cacheKey()
            for k in range(0, 2)}
    assert list(kept.values()) == list(dots.values())


def test_a_page_removed_from_the_menu_is_kept_in_removed_and_the_next_page_opens(qtbot, window, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(window, "ask", lambda question, details: asked.append(question) or False)
    window.actions_by_name["remove_page"].trigger()
    assert asked == ["Remove page 1 from the project?"] and window.project.has_page("1")  # No: nothing happens
    monkeypatch.setattr(window, "ask", lambda question, details: True)
    window.page_list.search.setText("1")  # a search that lists page 1 only: the next page is the project's
    window.actions_by_name["remove_page"].trigger()
    # The search kept (it is kept across a restart too), page 2 listed while on show
    assert not window.project.has_page("1") and window.page_name == "2" and window.page_list.search.text() == "1"
    assert [window.page_list.list.item(k).data(Qt.ItemDataRole.UserRole) for k in range(window.page_list.list.count())
            ] == ["2"]
    said = window.statusBar().currentMessage()
    assert said.startswith("page 1 removed; what it held is kept in ") and (window.project.root / "removed").is_dir()
    window.actions_by_name["remove_page"].trigger()  # the last page: the view says how to import pages
    assert window.page_name is None and window.page_view.note.isVisible()
    assert window.record_panel.list.count() == 0 and "page 2" not in window.windowTitle()


def test_undo_of_a_list_judged_at_once_selects_the_list_again(qtbot, window):
    ids = [label.id for label in window.project.labels("1")]
    key(window, "Ctrl+A")
    key(window, "R")
    assert all(label.status == "rejected" for label in window.project.labels("1"))
    key(window, "Ctrl+Z")  # one step, one restore (BatchCommand): the records judged are selected again
    assert window.record_panel.selected_ids() == ids
    assert not any(label.status == "rejected" for label in window.project.labels("1"))


def test_a_page_title_in_a_taller_fallback_font_keeps_its_record_counts_line(qtbot):
    """A title with CJK brackets (page 28 of the dev pages) made Qt drop the row's second line for "…"."""
    from PySide6.QtGui import QColor

    from recordlens.annotator.labelling.page_list import PageList
    from recordlens.core.store import PageInfo

    page_list = PageList()
    qtbot.addWidget(page_list)
    page_list.resize(420, 300)

    def info(name: str, title: str) -> PageInfo:
        return PageInfo(name, "labelled", None, title, "utf-8", "0" * 64, ".html", None, (), "", "", 45)

    page_list.set_pages([info("28", "【National News】Presidential Debate"), info("29", "National News")], None)
    page_list.show()
    qtbot.waitExposed(page_list)
    image = page_list.list.viewport().grab().toImage()
    for row in range(2):
        rect = page_list.list.visualItemRect(page_list.list.item(row))
        # The second line's glyphs reach the row's last pixels; one line alone, centred, stays clear of them.
        lower = [QColor(image.pixel(x, y)).lightness() for x in range(rect.left() + 30, rect.left() + 110)
                 for y in range(rect.bottom() - 7, rect.bottom() - 2)]
        assert min(lower) < 128, f"row {row}: no text in its second line (its record counts)"


def test_a_small_window_keeps_room_for_the_page(qtbot, window):
    from recordlens.annotator.labelling.main_window import PAGE_MIN_WIDTH

    window.resize(800, 550)
    qtbot.waitUntil(lambda: window.width() <= 900, timeout=5_000)
    page_list, centre, panel = window.centralWidget().sizes()
    assert centre >= PAGE_MIN_WIDTH and page_list > 0 and panel > 0  # the side panels gave way as well


def test_a_side_panel_dragged_small_stops_at_its_least_width(qtbot, window):
    splitter = window.centralWidget()
    width = sum(splitter.sizes())
    splitter.setSizes([0, width, 0])  # both dividers dragged all the way out, as a person's drag can
    page_list, _centre, panel = splitter.sizes()
    assert page_list > 0 and panel > 0  # not collapsed to nothing, with no handle left to bring them back


@contextlib.contextmanager
def started(project_dir, settings_file, restored: bool = False) -> Iterator[MainWindow]:
    """The app started on the project with the settings the last quit left (`restored`: and its window's place),
    closed after."""
    window = open_window(project_dir, settings_file, settings=Settings.load(settings_file), restored=restored)
    try:
        yield window
    finally:
        window.close()


def test_a_restart_brings_back_the_window_size_and_the_page_where_it_was_scrolled(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "settings.json"
    with started(project_dir, settings_file) as first:
        first.resize(100, 520)  # its least width: the offscreen screen is narrow, and a restore keeps a window on it
        size = (first.width(), first.height())
        assert size[1] == 520
        assert first.page_view.wait_until_loaded()
        # A person scrolls a page drawn at the window's new size: one scrolled before the size reaches it is
        # moved by the reflow (the browser keeps what is in view in place).
        view = first.page_view.view
        qtbot.waitUntil(lambda: first.page_view.offline.run_js("innerWidth") == round(view.width() / view.zoomFactor()),
                        timeout=10_000)
        first.select_records([first.labels[0].id])
        first.page_view.scroll_to_y(240)
        qtbot.waitUntil(lambda: first.page_view.scroll_y == 240, timeout=5_000)
    with started(project_dir, settings_file, restored=True) as again:
        assert (again.width(), again.height()) == size
        qtbot.waitUntil(lambda: again.record_panel.selected_ids() == [again.labels[0].id], timeout=10_000)
        # Not scrolled to centre the selected record: where the page was left.
        qtbot.waitUntil(lambda: again.page_view.scroll_y == 240, timeout=10_000)
    # With nothing selected at quit, the page still comes back where it was scrolled.
    with started(project_dir, settings_file) as third:
        assert third.page_view.wait_until_loaded()
        qtbot.waitUntil(lambda: third.page_view.scroll_y == 240, timeout=10_000)
        third.select_records([])
        third.page_view.scroll_to_y(180)
        qtbot.waitUntil(lambda: third.page_view.scroll_y == 180, timeout=5_000)
    with started(project_dir, settings_file) as fourth:
        qtbot.waitUntil(lambda: fourth.page_view.scroll_y == 180, timeout=10_000)


def test_the_record_list_stays_where_it_was_after_a_delete(qtbot, window):
    labels = window.project.labels("1")
    assert len(labels) >= 12
    window.record_panel.list.setFixedHeight(120)  # a list shorter than its rows, so that it scrolls
    window.select_records([labels[10].id])
    bar = window.record_panel.list.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() > 0, timeout=5_000)
    before = bar.value()
    key(window, "Del")
    assert abs(bar.value() - before) <= 1


def test_a_record_started_by_a_click_is_numbered_in_page_order(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    for k in (1, 3):
        window.project.add_record("2", [ITEM.format(k)], window.person)
    window.reload_labels([])
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    click(window, f"{ITEM.format(2)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 3)
    assert [label.xpaths[0] for label in window.project.labels("2")] == [
        ITEM.format(1), f"{ITEM.format(2)}/b[1]", ITEM.format(3)]
    qtbot.waitUntil(lambda: any(m.startswith("new record 2 (the records after it now have numbers 1 higher); U "
                                             "takes") for m in messages), timeout=5_000)


def test_a_merge_of_records_far_apart_splits_back_in_page_order(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    ids = [window.project.add_record("2", [ITEM.format(k)], window.person).record.id for k in (1, 2, 3, 4)]
    window.reload_labels([ids[0], ids[3]])
    key(window, "M")
    assert [label.xpaths for label in window.project.labels("2")][0] == (ITEM.format(1),
                                                                          ITEM.format(4))
    key(window, "S")
    items = [ITEM.format(k) for k in (1, 2, 3, 4)]
    assert [label.xpaths[0] for label in window.project.labels("2")] == items
    assert "numbered 1, 4 in page order" in window.statusBar().currentMessage()
    key(window, "Ctrl+Z")
    assert len(window.project.labels("2")) == 3  # one undo step: the merged record again


def test_slash_finds_a_record_by_number_or_words_and_enter_selects_it_on_the_page(qtbot, window):
    panel = window.record_panel
    rows = panel._rows
    assert len(rows) >= 4
    type_in_the_finder(qtbot, window, "3")  # a number is the record of that number
    shown = [r.id for i, r in enumerate(rows) if not panel.list.isRowHidden(i)]
    assert shown == [rows[2].id] and panel.summary.text().endswith(" · 1 found")
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    assert panel.selected_ids() == [rows[2].id] and not panel.finder.hasFocus()
    assert window.record_panel.current_id() == rows[2].id  # the window's selection: the page shows it too

    # Words: a word of the fourth record's texts that no other record holds finds it alone, in any case.
    others = " ".join(r.texts for r in rows if r.id != rows[3].id).casefold()
    word = next(w for w in rows[3].texts.split() if w.casefold() not in others and len(w) > 2)
    type_in_the_finder(qtbot, window, word.upper())
    assert [r.id for i, r in enumerate(rows) if not panel.list.isRowHidden(i)] == [rows[3].id]
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    key(window, "Ctrl+A")  # with words in the finder, "every record" is every record found
    assert panel.selected_ids() == [rows[3].id] and "of those found" in window.statusBar().currentMessage()
    type_in_the_finder(qtbot, window, "")
    QTest.keyClick(panel.finder, Qt.Key.Key_End)
    QTest.keyClicks(panel.finder, " nothing-has-this")
    assert panel.summary.text().endswith(" · none found")
    QTest.keySequence(panel.finder, "Esc")  # Esc: the words go, every record is listed again, keys to the page
    assert panel.finder.text() == "" and not any(panel.list.isRowHidden(i) for i in range(len(rows)))
    assert not panel.finder.hasFocus() and panel.selected_ids() == [rows[3].id]  # the one Enter chose
    QTest.keyClick(window.page_view.view.focusProxy() or window.page_view.view, Qt.Key.Key_J)
    assert panel.selected_ids() == [rows[4].id]  # single keys act on records again


def test_j_and_k_walk_the_records_found_and_the_finder_reads_every_text_of_a_record(qtbot, window):
    from recordlens.annotator.labelling.record_panel import RecordRow, found

    panel = window.record_panel
    rows = panel._rows
    type_in_the_finder(qtbot, window, "3")
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    assert panel.selected_ids() == [rows[2].id]
    key(window, "J")  # record 4 is hidden: record 3 is the last one found
    assert panel.selected_ids() == [rows[2].id] and "last record" in window.statusBar().currentMessage()
    key(window, "K")
    assert panel.selected_ids() == [rows[2].id]

    long = RecordRow(1, 1, "#000", "proposed", "Camera · $399 · …", 1, 9, "mdr", False,
                     whole="Camera $399 in stock ships tomorrow from the warehouse")
    assert found(long, "warehouse") and not found(long, "²") and found(long, "1")  # "²" is no record number


def test_the_finder_keeps_its_words_when_records_arrive_and_esc_after_enter_lists_every_record(qtbot, window):
    from recordlens.annotator.labelling.record_panel import RecordRow, found

    panel = window.record_panel
    rows = panel._rows
    type_in_the_finder(qtbot, window, "2")
    window.project.add_record("1", ["/body[1]"], MDR)  # proposals arriving while the user types
    window.reload_labels()
    assert panel.finder.text() == "2" and panel.summary.text().endswith(" · 1 found")
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    assert panel.selected_ids() == [rows[1].id]
    key(window, "R")  # the next proposal is looked for among the records found, and said so
    assert "no proposal left among the records found" in window.statusBar().currentMessage()
    key(window, "Esc")  # the keys are back on the page: Esc lists every record again, keeping the selection
    assert panel.finder.text() == "" and not any(panel.list.isRowHidden(i) for i in range(panel.list.count()))
    assert panel.selected_ids() == [rows[1].id] and "every record listed again" in window.statusBar().currentMessage()
    key(window, "Esc")
    assert panel.selected_ids() == []
    window.open_page("2")  # another page: the finder starts empty
    assert panel.finder.text() == ""
    type_in_the_finder(qtbot, window, "zzz")  # a page without records yet: kept when its first proposals arrive
    window.project.add_record("2", ["/body[1]"], MDR)
    window.reload_labels()
    assert panel.finder.text() == "zzz"

    row = RecordRow(1, 1, "#000", "proposed", "Camera", 1, 2, "ana", False, whole="Camera 2957 extractor mdr 0.3")
    assert found(row, "2957", records=25) and not found(row, "2", records=25)  # beyond the records: a text
    assert found(row, "extractor mdr")  # the origin, though the row shows who judged it last


def test_enter_in_the_finder_brings_the_record_found_into_the_lists_view_on_a_long_list(qtbot, window):
    page = window.page_name
    xpath = window.project.labels(page)[0].xpaths[0]
    for k in range(300):
        window.project.add_record(page, [xpath], Provenance.extractor("zeta" if k % 10 == 5 else "mdr", "1", "html"))
    window.reload_labels([])
    panel = window.record_panel
    bar = panel.list.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)
    type_in_the_finder(qtbot, window, "zeta")
    first = panel.found_ids()[0]
    row = panel._rows_of([first])[0]

    def in_view() -> bool:
        panel.list.doItemsLayout()  # the rows just hidden or shown laid out, as the next paint would
        return panel.list.viewport().rect().contains(panel.list.visualItemRect(panel.list.item(row)).center())

    assert not in_view()  # before Enter, the first record found is out of the list's view
    QTest.keyClick(panel.finder, Qt.Key.Key_Return)
    assert panel.selected_ids()[0] == first
    qtbot.waitUntil(in_view, timeout=5_000)
    QTest.keyClick(panel.finder, Qt.Key.Key_Escape)  # every record listed again: the one found stays in view
    assert panel.found_ids() is None and panel.selected_ids() == [first]
    assert in_view()
