"""The main window on a real project on disk: real clicks on the rendered page edit records through the undo
stack, shortcuts drive the labelling flow, review shows the run's classes, and the project keeps it all.

Clicks are real mouse events on the widget QWebEngineView forwards input to (its focus proxy); keys are real key
events on the window, so they go through Qt's shortcut map as a user's would.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_view import PALETTE, STATE_COLOURS
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.settings import Settings
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.app.demo_project import CARDS, ITEM, LINK_3, PRICE_1, PRICE_2
from tests.app.page_helpers import js, viewport_point
from tests.app.window_helpers import FakeKeyStore, click, imported_project, key, open_window, wait_for_labels

pytestmark = pytest.mark.app


def test_a_click_adds_the_cores_xpath_undo_removes_it_and_the_project_keeps_it(qtbot, window, project_dir):
    assert window.page_name == "1"
    assert window.page_view.offline.page.url().isLocalFile()  # the MHTML opened as an archive
    first = window.project.labels("1")[0]
    assert first.xpaths == (f"{CARDS}/div[1]",)
    window.select_records([first.id])
    window.page_view.wait_until_drawn()
    expected = window.page_view.core_page.resolve(PRICE_2).key

    click(window, PRICE_2)  # outside the record's own card (a click inside it changes nothing)
    wait_for_labels(qtbot, window, lambda labels: labels[0].xpaths == (f"{CARDS}/div[1]", expected))
    assert window.project.labels("1")[0].status == "edited"
    assert window.record_panel.selected_ids() == [first.id]

    window.undo_group.undo()
    assert window.project.labels("1")[0].xpaths == (f"{CARDS}/div[1]",)
    assert window.project.labels("1")[0].status == "accepted"
    window.undo_group.redo()
    assert window.project.labels("1")[0].xpaths == (f"{CARDS}/div[1]", expected)

    click(window, LINK_3)  # the same record, an element of another card
    wait_for_labels(qtbot, window, lambda labels: len(labels[0].xpaths) == 3)
    click(window, PRICE_2)  # a second click on an element takes it out again
    wait_for_labels(qtbot, window, lambda labels: labels[0].xpaths == (f"{CARDS}/div[1]", LINK_3))
    window.close()

    with open_project(project_dir) as reopened:
        labels = reopened.labels("1")
        assert labels[0].id == first.id and labels[0].xpaths == (f"{CARDS}/div[1]", LINK_3)
        assert len(labels) == 16
        assert [c.action for c in reopened.history("1")][-1] == "edit"


def test_g_on_a_lone_field_says_how_far_up_its_siblings_are(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    # A proposal of a title alone, selected from the list: U would not climb from it, so only the fact is said.
    window.project.add_records("2", [[f"{ITEM.format(1)}/b[1]"]], Provenance("extractor", "test"))
    window.reload_labels([window.project.labels("2")[0].id])
    key(window, "G")
    assert window.statusBar().currentMessage().endswith("; the enclosing li (1 level up) has 3 siblings without a "
                                                        "record")
    window.select_records([])
    # A title alone, clicked: nothing beside it in its item is of its kind, but the item has three siblings.
    click(window, f"{ITEM.format(2)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 2)
    key(window, "G")
    assert len(window.project.labels("2")) == 2
    assert window.statusBar().currentMessage().endswith("; U, then G, would add 3 records, one per sibling of the "
                                                        "enclosing li (1 level up)")
    key(window, "U")
    key(window, "G")
    # In page order: item 1 starts before the title inside it (the proposal), items 3 and 4 after item 2
    assert [label.xpaths for label in window.project.labels("2")] == [
        (ITEM.format(1),), (f"{ITEM.format(1)}/b[1]",), *[(ITEM.format(k),) for k in (2, 3, 4)]]


def test_judging_moves_on_to_the_next_proposal_and_wraps_round(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    window.project.add_records("2", [[ITEM.format(k)] for k in (1, 2, 3, 4)], Provenance("extractor", "test"))
    window.reload_labels([])
    ids = [label.id for label in window.labels]
    # The first and the last: both accepted, and the next proposal is found round past the end, skipping the
    # first one just judged.
    window.select_records([ids[0], ids[3]])
    key(window, "A")
    assert window.record_panel.selected_ids() == [ids[1]]
    key(window, "R")
    assert window.record_panel.selected_ids() == [ids[2]]
    key(window, "A")  # none left: the record judged stays selected
    assert window.record_panel.selected_ids() == [ids[2]]
    assert [label.status for label in window.project.labels("2")] == ["accepted", "rejected", "accepted",
                                                                     "accepted"]
    window.page_view.wait_until_drawn()
    assert window.page_view.last_summary.records == 3  # the rejected one is not drawn...
    window.select_records([ids[1]])
    window.page_view.wait_until_drawn()
    assert window.page_view.last_summary.records == 4  # ...unless it is selected: chosen in the list, it shows
    assert [r["label"] for r in window.page_view._records] == ["1", "2 ✗", "3", "4"]


def test_plain_html_runs_no_script_and_counts_blocked_requests(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    assert js(window.page_view, "document.documentElement.dataset.ran || null") is None
    qtbot.waitUntil(lambda: window.page_view.blocked_count >= 1, timeout=5_000)
    assert window.blocked_label.text() == f"{window.page_view.blocked_count} request blocked"
    asked = len(window.page_view.offline.blocked_urls)
    for keys in ("Ctrl+=", "Ctrl+=", "Ctrl+0"):  # each zoom makes the page ask again for what it was refused
        key(window, keys)
        spin(300)
    assert window.blocked_label.text() == "1 request blocked"  # the same address, counted once
    assert len(window.page_view.offline.blocked_urls) >= asked


def test_the_labelling_flow_by_keyboard(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    # With no record selected, a click starts a new one; G repeats it on every sibling of the same structure.
    click(window, f"{ITEM.format(2)}/b[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels) == 1)
    new = window.project.labels("2")[0]
    assert new.xpaths == (f"{ITEM.format(2)}/b[1]",) and window.record_panel.selected_ids() == [new.id]
    click(window, f"{ITEM.format(2)}/i[1]")
    wait_for_labels(qtbot, window, lambda labels: len(labels[0].xpaths) == 2)
    key(window, "G")
    labels = window.project.labels("2")
    assert [label.xpaths for label in labels] == [  # numbered in page order: item 1 comes first
        (f"{ITEM.format(k)}/b[1]", f"{ITEM.format(k)}/i[1]") for k in (1, 2, 3, 4)]
    assert labels[1].id == new.id and window.record_panel.selected_ids() == [new.id]
    # J / K move through records; M merges two selected ones; S splits the result back along the items.
    # Keys typed while the page has the focus (after a click on it) still reach the window's shortcuts.
    QTest.keyClick(window.page_view.view.focusProxy(), Qt.Key.Key_J)
    assert window.record_panel.selected_ids() == [labels[2].id]
    window.select_records([labels[2].id, labels[3].id])
    key(window, "M")
    merged = window.project.labels("2")
    assert len(merged) == 3 and len(merged[2].xpaths) == 4
    assert window.statusBar().currentMessage().startswith("merged records 3, 4 into record 3 (Ctrl+Z takes it")
    key(window, "S")
    assert [len(label.xpaths) for label in window.project.labels("2")] == [2, 2, 2, 2]
    assert window.statusBar().currentMessage().startswith("split record 3 into 2 records, numbered 3, 4 in page "
                                                          "order (Ctrl+Z")
    assert len(window.record_panel.selected_ids()) == 2  # the parts stay selected
    key(window, "Del")
    assert len(window.project.labels("2")) == 2
    key(window, "L")
    assert window.project.page("2").status == "labelled"
    assert window.page_list.progress_label.text() == "2 / 2 labelled"
    # Ctrl+Z walks back through all of it: status, delete, split, merge, siblings, the two clicks.
    for _ in range(7):
        key(window, "Ctrl+Z")
    assert window.project.labels("2") == [] and window.project.page("2").status == "new"
    key(window, "Ctrl+Shift+Z")
    assert len(window.project.labels("2")) == 1


def test_proposals_arrive_from_the_worker_and_are_judged_with_one_key(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    key(window, "P")
    qtbot.waitUntil(lambda: window.job is None and bool(window.project.labels("2")), timeout=20_000)
    proposed = window.project.labels("2")
    assert {label.status for label in proposed} == {"proposed"}
    assert proposed[0].origin.kind == "extractor"
    assert window.project.page("2").status == "proposed"
    # Nothing was selected: the first proposal now is, so A goes straight to work.
    assert window.record_panel.selected_ids() == [proposed[0].id]
    # Not while a new record is being started (N): the next click must still start it.
    window.record_actions.do_new_record()
    window.record_actions.add_proposals("2", [[ITEM.format(4) + "/i[1]"]], proposed[0].origin)
    assert window.record_panel.selected_ids() == [] and window.record_actions.arm_new
    window.record_actions.do_deselect()
    window.undo_group.undo()
    window.select_records([proposed[0].id])
    key(window, "A")
    assert window.project.labels("2")[0].status == "accepted"
    if len(proposed) > 1:  # accepting moves on to the next proposal
        assert window.record_panel.selected_ids() == [proposed[1].id]
        key(window, "R")
        assert window.project.labels("2")[1].status == "rejected"
        # The page list counts it too: a rejected record is kept, so it does not vanish from the counts.
        lines = [window.page_list.list.item(i).text() for i in range(window.page_list.list.count())]
        # The name is isolated (U+2068 ... U+2069): a right-to-left name turns nothing around it.
        assert any(line.startswith("◐ \u20682\u2069") and "1 rejected" in line for line in lines), lines
    # Proposing again adds nothing already on the page, whatever its status (a rejection is a decision).
    count = len(window.project.labels("2"))
    key(window, "P")
    qtbot.waitUntil(lambda: window.job is None, timeout=20_000)
    assert len(window.project.labels("2")) == count
    window.undo_group.undo()  # nothing was pushed for the second proposal: this undoes the rejection
    # Undoing the proposals also puts the page back to new.
    while window.undo_group.canUndo():
        window.undo_group.undo()
    assert window.project.labels("2") == [] and window.project.page("2").status == "new"


def test_a_list_refused_part_way_is_judged_not_at_all_and_takes_no_undo_step(qtbot, window, project_dir):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    for k in (1, 2, 3, 4):
        window.project.add_record("2", [ITEM.format(k)], Provenance.extractor("test", "1"), status="proposed")
    window.reload_labels([])
    ids = [label.id for label in window.labels]
    window.select_records(ids)
    with open_project(project_dir) as other:  # another process deletes the third meanwhile
        other.delete(ids[2], Provenance.person("someone"))
    key(window, "R")  # the store refuses the third: the step is one transaction, so the first two are not rejected
    assert [label.status for label in window.project.labels("2")] == ["proposed"] * 3
    assert "(none of the 4 changes stored)" in window.statusBar().currentMessage()
    assert not window.undo_group.canUndo()  # no step stands for changes the project does not hold
    window.select_records([label.id for label in window.labels])
    key(window, "R")  # the three still there, judged again: all of them, one step
    assert [label.status for label in window.project.labels("2")] == ["rejected"] * 3
    key(window, "Ctrl+Z")
    assert [label.status for label in window.project.labels("2")] == ["proposed"] * 3
    key(window, "Ctrl+Shift+Z")
    assert [label.status for label in window.project.labels("2")] == ["rejected"] * 3


def test_a_judgement_the_store_refuses_part_way_stays_on_its_records(qtbot, window, project_dir):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    for k in (1, 2, 3):
        window.project.add_record("2", [ITEM.format(k)], Provenance.extractor("test", "1"), status="proposed")
    window.reload_labels([])
    first, second, third = (label.id for label in window.labels)
    window.select_records([first, second])
    with open_project(project_dir) as other:  # another process deletes the second meanwhile
        other.delete(second, Provenance.person("someone"))
    key(window, "A")
    assert "accept record" in window.statusBar().currentMessage()
    # The step is one transaction: the first is not accepted without the second.
    assert window.project.labels("2")[0].status == "proposed"
    # Not moved on to the third: the selection stays on what was judged (the deleted one is gone).
    assert window.record_panel.selected_ids() == [first]
    assert window.project.labels("2")[-1].id == third and window.project.labels("2")[-1].status == "proposed"
    # Refused outright (the record is gone): nothing was stored, and nothing says "saved".
    window.saved_label.setText("")
    window.select_records([third])
    with open_project(project_dir) as other:
        other.delete(third, Provenance.person("someone"))
    key(window, "R")
    assert "reject record" in window.statusBar().currentMessage() and window.saved_label.text() == ""


def test_shift_g_selects_a_proposed_list_whole_and_one_r_rejects_it(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    proposer = Provenance.extractor("test", "1")
    window.project.add_record("2", ["/body[1]/h1[1]"], proposer, status="proposed")
    for k in (1, 2, 3, 4):
        window.project.add_record("2", [ITEM.format(k)], proposer, status="proposed")
    window.reload_labels([])
    heading, *items = (label.id for label in window.labels)
    window.select_records([items[1]])
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == items
    assert "4 records of record 3's list selected" in window.statusBar().currentMessage()
    key(window, "R")
    statuses = {label.id: label.status for label in window.project.labels("2")}
    assert [statuses[i] for i in items] == ["rejected"] * 4 and statuses[heading] == "proposed"
    assert window.statusBar().currentMessage() == "rejected 4 records"
    assert window.record_panel.selected_ids() == [heading]  # on to the proposal still to judge
    entries = len(window.project.history("2"))
    window.undo_group.undo()  # one step takes the whole list back, as one restore (not one per record)
    assert {label.status for label in window.project.labels("2")} == {"proposed"}
    assert len(window.project.history("2")) == entries + 1
    window.undo_group.redo()
    statuses = {label.id: label.status for label in window.project.labels("2")}
    assert [statuses[i] for i in items] == ["rejected"] * 4 and statuses[heading] == "proposed"
    window.undo_group.undo()
    assert {label.status for label in window.project.labels("2")} == {"proposed"}
    # A rejected record selected brings its list along with it.
    window.project.reject(items[0], window.person)
    window.reload_labels([items[0]])
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == items
    # A record alone in its list says so and changes nothing.
    window.select_records([heading])
    key(window, "Shift+G")
    assert window.record_panel.selected_ids() == [heading]
    assert "holds no other record" in window.statusBar().currentMessage()
    # Every proposal judged at once: nothing left to select, rather than the last one, judged now.
    window.select_records([heading, *items])  # items[0] is rejected already: counted apart, and not undone
    key(window, "R")
    assert window.statusBar().currentMessage() == "rejected 4 records (1 already rejected); no proposal left on page 2"
    assert window.record_panel.selected_ids() == []
    key(window, "Ctrl+Z")
    assert window.statusBar().currentMessage() == "undone on page 2: reject record ×4 (records 1, 3, 4, 5)"
    key(window, "Ctrl+Shift+Z")
    assert window.statusBar().currentMessage() == "redone on page 2: reject record ×4 (records 1, 3, 4, 5)"


def test_ctrl_a_on_the_page_selects_its_records_not_its_text(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    proposer = Provenance.extractor("test", "1")
    for k in (1, 2, 3):
        window.project.add_record("2", [ITEM.format(k)], proposer, status="proposed")
    window.reload_labels([])
    first, second, third = (label.id for label in window.labels)
    window.project.reject(third, window.person)
    window.reload_labels([])
    proxy = window.page_view.view.focusProxy()
    proxy.setFocus()
    QTest.keyClick(proxy, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # where the hand is: on the page
    qtbot.waitUntil(lambda: window.record_panel.selected_ids() == [first, second], timeout=5_000)
    assert window.statusBar().currentMessage() == "2 records selected: A or R judges them all"
    assert window.page_view.offline.run_js("String(window.getSelection())") == ""


def test_cancel_stops_a_proposal_run_between_pages(qtbot, window):
    from recordlens.core import extract
    from recordlens.core.extract.base import Extraction

    class Slow:
        name, version = "slow-test", "1"

        def extract(self, page):
            spin_free_sleep(0.4)
            return Extraction([["/body[1]"]], self.name, self.version, {}, 0.4)

    extract.register("slow-test", lambda **_: Slow(), "a slow extractor for the cancel test")
    worker = window.propose(["1", "2", "1", "2"], method="slow-test")
    assert worker is not None
    qtbot.waitUntil(lambda: window.job_progress.isVisible(), timeout=5_000)
    window.do_cancel_job()
    qtbot.waitUntil(lambda: window.job is None, timeout=10_000)
    assert "cancelled" in window.statusBar().currentMessage()
    added = sum(1 for page in ("1", "2") for label in window.project.labels(page) if label.origin.name == "slow-test")
    assert added < 4


def test_cancel_does_not_wait_for_a_slow_call_in_flight(qtbot, window):
    import threading

    from recordlens.core import extract

    started, release = threading.Event(), threading.Event()

    class Stuck:  # like a Gemini call waiting minutes for an answer
        name, version = "stuck-test", "1"

        def extract(self, page):
            started.set()
            release.wait(60)
            raise RuntimeError("released")

    extract.register("stuck-test", lambda **_: Stuck(), "an extractor that never answers, for the cancel test")
    try:
        assert window.propose(["1"], method="stuck-test") is not None
        qtbot.waitUntil(started.is_set, timeout=10_000)
        window.do_cancel_job()
        # The call is still in flight (for up to 60 s): the job must end without waiting for it.
        qtbot.waitUntil(lambda: window.job is None, timeout=5_000)
        assert "cancelled" in window.statusBar().currentMessage()
        assert not any(label.origin.name == "stuck-test" for label in window.project.labels("1"))
    finally:
        release.set()


def spin_free_sleep(seconds: float) -> None:
    import time

    time.sleep(seconds)


def test_a_restart_selects_again_the_records_selected_at_quit_on_the_page_left_open(qtbot, tmp_path, project_dir):
    settings_file = tmp_path / "restart-settings.json"
    first = open_window(project_dir, settings_file, qtbot=qtbot)
    try:
        chosen = [first.labels[4].id, first.labels[7].id]
        first.select_records(chosen)
    finally:
        first.close()
    again = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        qtbot.waitUntil(lambda: again.record_panel.selected_ids() == chosen, timeout=10_000)
        again.page_view.wait_until_drawn()
        assert [r["selected"] for r in again.page_view._records].count(True) == 2
        # Only the first page after a start: another page and back opens at its records, none selected.
        again.open_page("2")
        again.page_view.wait_until_loaded(30_000)
        again.open_page("1")
        again.page_view.wait_until_loaded(30_000)
        assert again.record_panel.selected_ids() == []
        # A record deleted meanwhile (by the CLI, another window) is simply not selected; the other one is.
        kept, gone = again.labels[2].id, again.labels[3].id
        again.select_records([kept, gone])
    finally:
        again.close()
    with open_project(project_dir) as project:
        project.delete(gone, Provenance.person("someone"))
    # Quitting before the first page is shown keeps what the last quit remembered.
    early = MainWindow(open_project(project_dir), settings=Settings.load(settings_file), settings_file=settings_file,
                       key_store=FakeKeyStore())
    early.close()
    assert Settings.load(settings_file).last_selection(str(project_dir.resolve()), "1") == [kept, gone]
    third = open_window(project_dir, settings_file, settings=Settings.load(settings_file), qtbot=qtbot)
    try:
        qtbot.waitUntil(lambda: third.record_panel.selected_ids() == [kept], timeout=10_000)
        assert third.page_name == "1"
    finally:
        third.close()


def test_review_shows_matched_missed_and_spurious_in_their_colours(qtbot, window):
    truth = window.project.true_records("1")
    run = window.project.runs.add("handmade")
    window.project.runs.add_predictions(run, {"1": [*truth[:10], ["/body[1]/div[1]/header[1]"]], "2": []})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    kinds = [r.kind for r in window.review.records]
    assert kinds == ["matched"] * 10 + ["missed"] * 6 + ["spurious"]
    colours = [r["colour"] for r in window.page_view._records]
    assert colours == [STATE_COLOURS[k] for k in kinds]
    assert "P 0.909" in window.review_panel.page_figures.text()
    assert "⚠" not in window.review_panel.page_figures.text()  # page 1 is labelled and the run has it
    assert window.review_panel.score_button.isVisible()  # not scored yet: offered
    # In review, a click edits nothing.
    before = window.project.labels("1")
    click(window, PRICE_1)
    spin(200)
    assert window.project.labels("1") == before
    # Back to labelling (F6): records in their own colours again.
    key(window, "F6")
    window.page_view.wait_until_drawn()
    assert window.page_view._records[1]["colour"] == PALETTE[window.labels[1].id % len(PALETTE)]


def test_review_hides_and_shows_a_class_by_its_toggle_in_the_list_and_on_the_page(qtbot, window):
    truth = window.project.true_records("1")
    run = window.project.runs.add("handmade")
    spurious = [["/body[1]/div[1]/header[1]"], [PRICE_1]]
    window.project.runs.add_predictions(run, {"1": [*truth[:10], *spurious]})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.wait_until_drawn()
    panel = window.review_panel
    toggles = panel.kind_toggles
    assert [toggles[k].text() for k in ("matched", "missed", "spurious")] == [
        "matched (10)", f"missed ({len(truth) - 10})", "spurious (2)"]

    def rows() -> list[str]:
        return [panel.records.item(i).text() for i in range(panel.records.count())]

    def drawn() -> list[str]:
        window.page_view.wait_until_drawn()
        return [r["colour"] for r in window.page_view._records]

    # A real click on the spurious toggle: its rows and its boxes go, the others stay.
    QTest.mouseClick(toggles["spurious"], Qt.MouseButton.LeftButton)
    assert not toggles["spurious"].isChecked()
    assert len(rows()) == len(truth) and not any("spurious" in row for row in rows())
    assert STATE_COLOURS["spurious"] not in drawn() and drawn().count(STATE_COLOURS["matched"]) == 10
    # Missed alone: a row picked still names its own record (not the row's position among all records).
    panel.show_only(["missed"])
    assert drawn() == [STATE_COLOURS["missed"]] * (len(truth) - 10)
    panel.records.setCurrentRow(0)
    assert window.review.records[panel.current_index()].kind == "missed"
    # Another page and back: the choice holds. Ticking again brings a class back.
    window.jump_to_page("2")
    qtbot.waitUntil(lambda: window.page_name == "2" and window.page_loaded, timeout=20_000)
    window.jump_to_page("1")
    qtbot.waitUntil(lambda: window.page_name == "1" and window.page_loaded, timeout=20_000)
    assert drawn() == [STATE_COLOURS["missed"]] * (len(truth) - 10)
    QTest.mouseClick(toggles["spurious"], Qt.MouseButton.LeftButton)
    assert sorted(set(drawn())) == sorted({STATE_COLOURS["missed"], STATE_COLOURS["spurious"]})
    panel.show_only(["matched", "partial", "missed", "spurious"])
    assert len(rows()) == len(window.review.records) == len(truth) + 2
    assert len(drawn()) == len(truth) + 2


def test_review_scores_in_the_background_and_w_jumps_to_the_worst_page(qtbot, window):
    window.project.set_status("2", "labelled", window.person)
    window.project.add_record("2", [ITEM.format(1)], window.person)
    run = window.project.runs.add("handmade")
    window.project.runs.add_predictions(run, {"1": window.project.true_records("1"), "2": []})
    window.project.runs.finish(run)
    window.start_review(run)
    window.review_panel.score_button.click()
    qtbot.waitUntil(lambda: window.job is None and window.project.runs.get(run).scored_pages == 2, timeout=20_000)
    assert "F1 0.500" in window.review_panel.run_figures.text()
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"run {run} scored on 2 pages: P 0.500, R 0.500, "
                    "F1 0.500", timeout=10_000)  # its figures, not a bare "done"
    assert window.review_panel.worst.item(0).text().startswith("page 2")
    key(window, "W")
    assert window.page_name == "2"
    key(window, "W")  # on to the next worst
    assert window.page_name == "1"
    window.open_page("2")
    key(window, "W")  # after a look elsewhere W goes on after the last page it opened (page 1): round to 2
    assert window.page_name == "2"
    # The labels change under review: the run's means and worst pages follow, as `recordlens score` would.
    assert window.page_view.wait_until_loaded()
    window.project.delete(window.project.labels("2")[0].id, window.person)  # page 2 has no true record now
    window.reload_labels([])
    qtbot.waitUntil(lambda: "F1 1.000" in window.review_panel.run_figures.text(), timeout=10_000)
    worst = [window.review_panel.worst.item(k).text() for k in range(window.review_panel.worst.count())]
    assert worst and all(text.endswith("F1 1.000") for text in worst), worst
    from recordlens.core.store import content_hash, score_stored_run

    # The page's score made here keeps the hash of its copy as the view read it, as `recordlens score` keeps it
    stored_hash = window.project.db.execute(
        "SELECT s.copy_hash FROM scores s JOIN pages p ON p.id = s.page_id WHERE s.run_id = ? AND p.name = '2'",
        (run,)).fetchone()
    assert stored_hash == (content_hash(window.project.snapshot_file("2").read_bytes()),)
    assert score_stored_run(window.project, run)[0].f1 == 1.0  # what the panel says, scored afresh
    # Labels changed elsewhere (another page, outside review): the figures say so and offer to score again.
    import time

    time.sleep(0.01)  # times are kept to the millisecond
    window.project.delete(window.project.labels("1")[0].id, window.person)
    window.reviewing.show_run_figures()
    assert "⚠ 1 page labelled, changed or unmarked since it was scored" in window.review_panel.run_figures.text()
    assert window.review_panel.score_button.isVisible()
    window.review_panel.score_button.click()
    qtbot.waitUntil(lambda: window.job is None and not window.project.runs.stale_pages(run), timeout=20_000)
    assert "changed since" not in window.review_panel.run_figures.text()
    window.project.set_status("2", "new", window.person)
    window.open_page("2")
    qtbot.waitUntil(lambda: "labels may be incomplete" in window.review_panel.page_figures.text(), timeout=10_000)


def test_every_shortcut_has_an_action_and_a_line_on_the_sheet(window):
    from recordlens.annotator.labelling.shortcuts import SHORTCUTS, help_html

    sheet = help_html()
    for shortcut in SHORTCUTS:
        action = window.actions_by_name[shortcut.name]
        assert [s.toString() for s in action.shortcuts()] == [
            s.toString() for s in map(__import__("PySide6.QtGui", fromlist=["QKeySequence"]).QKeySequence,
                                      shortcut.keys)]
        assert shortcut.text in sheet
    window.tools.do_help()
    assert window.tools.sheet is not None and window.tools.sheet.isVisible()
    window.tools.sheet.close()


def test_gemini_proposes_through_its_protocol_when_a_key_is_set(qtbot, window):
    from tests.fake_gemini import FakeGemini, answer, status

    secret = "test-key-not-real-456"
    window.keys.set(secret)
    window.settings.default_extractor = "gemini"
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    records = [[f"/html[1]{ITEM.format(k)}"] for k in (1, 2, 3, 4)]
    with FakeGemini([answer(json.dumps(records)), status(400, f"bad request for key {secret}")]) as server:
        window.settings.gemini_endpoint = server.url
        key(window, "P")
        qtbot.waitUntil(lambda: window.job is None, timeout=20_000)
        labels = window.project.labels("2")
        assert [label.xpaths for label in labels] == [tuple(r) for r in records]
        assert {(label.origin.name, label.origin.input_format) for label in labels} == {("gemini", "flat")}
        assert server.requests[0].api_key == secret
        # A refused call is a message in the status bar, with the key scrubbed, and nothing is added.
        messages: list[str] = []
        window.statusBar().messageChanged.connect(messages.append)
        key(window, "P")
        qtbot.waitUntil(lambda: window.job is None, timeout=20_000)
    assert len(window.project.labels("2")) == 4
    assert any("page 2" in m for m in messages) and not any(secret in m for m in messages)
    stored = [p for p in window.project.root.iterdir() if p.is_file()]  # project.db and its WAL
    assert stored and not any(secret.encode() in p.read_bytes() for p in stored)


def test_hovering_an_element_shows_its_xpath_and_text(qtbot, window):
    window.open_page("2")
    assert window.page_view.wait_until_loaded()
    target = f"{ITEM.format(3)}/b[1]"
    x, y = js(window.page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(target)}).getBoundingClientRect();
        return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = window.page_view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, 2))
    spin(100)
    QTest.mouseMove(proxy, QPoint(x, y))
    qtbot.waitUntil(lambda: f"   {target}   " in window.breadcrumb.full_text(), timeout=5_000)
    assert "“Tripod”" in window.breadcrumb.full_text()


def test_a_click_on_an_element_without_text_says_the_record_scores_nothing(qtbot, tmp_path):
    page = ("<!doctype html><html><head><meta charset='utf-8'></head><body>"
            "<div style='width:300px;height:80px;background:#ccc'></div>"
            "<ul><li>Camera $399</li><li>Lens $129</li></ul></body></html>")
    win = open_window(imported_project(tmp_path, {"html/1.html": page}), tmp_path / "settings.json", qtbot=qtbot)
    try:
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        click(win, "/body[1]/div[1]")
        wait_for_labels(qtbot, win, lambda labels: len(labels) == 1)
        assert any("holds no text" in m and "U takes its parent" in m for m in messages), messages
        click(win, "/body[1]/ul[1]/li[1]")  # the new record is selected: this click adds to it
        wait_for_labels(qtbot, win, lambda labels: len(labels[0].xpaths) == 2)
        win.record_actions.arm_new = True
        messages.clear()
        click(win, "/body[1]/ul[1]/li[2]")
        wait_for_labels(qtbot, win, lambda labels: len(labels) == 2)
        assert any(m.startswith("new record 2; U takes the element's parent instead, Shift+U back down.")
                   for m in messages), messages
    finally:
        win.close()


def test_the_line_above_the_page_refuses_the_whole_page_follows_each_click_and_names_nesting(qtbot, tmp_path):
    page = ("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:0;padding:60px'>"
            "<ul><li><b>Camera</b> $399 <span style='display:inline-block;width:24px;height:24px;background:#c00'>"
            "</span></li><li><b>Lens</b> $129</li></ul></body></html>")
    win = open_window(imported_project(tmp_path, {"html/1.html": page, "html/2.html": page + "<!-- 2 -->"}),
                      tmp_path / "settings.json", qtbot=qtbot)
    try:
        messages: list[str] = []
        win.statusBar().messageChanged.connect(messages.append)
        proxy = win.page_view.view.focusProxy()
        assert win.page_view.offline.run_js("__recordlens.xpathOf(document.elementFromPoint(10, 10))") == "/body[1]"
        QTest.mouseMove(proxy, QPoint(200, 10))
        spin(100)
        QTest.mouseMove(proxy, QPoint(10, 10))  # the page's margin: <body> itself
        qtbot.waitUntil(lambda: "click: nothing (the whole page is no record)" in win.breadcrumb.full_text(),
                        timeout=5_000)
        QTest.mouseClick(proxy, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(10, 10))
        qtbot.waitUntil(lambda: any("the whole page is no record" in m for m in messages), timeout=5_000)
        assert win.project.labels("1") == []

        item = "/body[1]/ul[1]/li[1]"
        point = viewport_point(win.page_view, item)
        QTest.mouseMove(proxy, point)  # onto the item, as a hand does before it clicks
        qtbot.waitUntil(lambda: f"click: new record   {item}" in win.breadcrumb.full_text(), timeout=5_000)
        QTest.mouseClick(proxy, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        wait_for_labels(qtbot, win, lambda labels: len(labels) == 1)
        # The new record is selected: the pointer, still there, now removes the item from it.
        qtbot.waitUntil(lambda: f"click: remove from record 1   [record 1]   {item}" in win.breadcrumb.full_text(),
                        timeout=5_000)

        win.record_actions.arm_new = True
        name = f"{item}/b[1]"
        point = viewport_point(win.page_view, name)
        QTest.mouseMove(proxy, point)
        qtbot.waitUntil(lambda: f"click: new record   [inside record 1]   {name}" in win.breadcrumb.full_text(),
                        timeout=5_000)
        QTest.mouseClick(proxy, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        wait_for_labels(qtbot, win, lambda labels: len(labels) == 2)
        assert any("It lies inside record 1: labels check flags records nested in others." in m
                   for m in messages), messages
        # An icon inside the record: labels check names it unresolved (no text), so nesting is said, no more.
        messages.clear()
        win.record_actions.arm_new = True
        click(win, f"{item}/span[1]")
        wait_for_labels(qtbot, win, lambda labels: len(labels) == 3)
        said = [m for m in messages if "holds no text" in m]
        assert said and said[0].endswith("It lies inside record 1."), messages

        # Inside the selected record's own element: the click narrows the record to it, said before and after
        # (no second copy of the same text); on an element holding it, the click widens it; U climbs from there.
        messages.clear()
        win.select_records([win.labels[0].id])
        other = "/body[1]/ul[1]/li[1]"
        win.project.edit(win.labels[0].id, [other], win.person)
        win.reload_labels([win.labels[0].id])
        win._on_hovered(f"{other}/b[1]")
        assert win.breadcrumb.full_text().startswith("click: narrow record 1 to this element")
        click(win, f"{other}/b[1]")
        wait_for_labels(qtbot, win, lambda labels: labels[0].xpaths == (f"{other}/b[1]",))
        assert any(m.startswith("record 1 narrowed to <b> “Camera” (was <li> “Camera $399”); U and Shift+U")
                   for m in messages), messages
        win._on_hovered("/body[1]/ul[1]")
        assert win.breadcrumb.full_text().startswith("click: widen record 1 to this element")
        win.record_actions.on_element_clicked("/body[1]/ul[1]")  # as the overlay reports a click in its margin
        wait_for_labels(qtbot, win, lambda labels: labels[0].xpaths == ("/body[1]/ul[1]",))
        key(win, "Shift+U")  # nothing climbed since the widening
        key(win, "Ctrl+Z")
        assert win.project.labels("1")[0].xpaths == (f"{other}/b[1]",)

        # Another page: the line names nothing of the last one until the pointer moves, not even when the last
        # page's overlay reports a hover while the next one loads.
        win.open_page("2")
        win._on_hovered(other)
        assert win.page_view.wait_until_loaded()
        assert other not in win.breadcrumb.full_text() and name not in win.breadcrumb.full_text()
    finally:
        win.close()


def test_a_message_too_long_for_the_status_bar_is_read_in_full_under_recent_messages(qtbot, window):
    """The status bar shows one line and cuts the rest; Ctrl+Shift+M lists what was said, newest first, whole."""
    long = "learned one stage only: " + "this part is past the status bar's right edge " * 8 + "THE WAY BACK"
    window.message("first, a short one")
    window.message(long)
    assert window.statusBar().currentMessage() == long and "THE WAY BACK" in window.statusBar().toolTip()
    window.activateWindow()
    QTest.keyClick(window, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dialog = window.tools.messages_dialog
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible(), timeout=10000)
    shown = dialog.view.toPlainText().splitlines()
    assert shown[0].endswith(long) and shown[1].endswith("first, a short one")
    window.message("said while the list is open")
    assert dialog.view.toPlainText().splitlines()[0].endswith("said while the list is open")
    dialog.close()


def test_the_end_of_a_propose_job_says_what_each_page_got(qtbot, window):
    """A page's own message ("found no records") is overwritten by the next at once; the job's last message says
    how many records were proposed where, which pages got none, which had them all already and which failed."""
    from recordlens.core import extract
    from recordlens.core.extract.base import Extraction

    class ByPage:
        name, version = "by-page-test", "1"

        def extract(self, page):
            if page.resolve(ITEM.format(1)) is not None:  # page 2, the list
                return Extraction([[f"/html[1]{ITEM.format(k)}"] for k in (1, 2, 3)], self.name, self.version, {}, 0)
            raise RuntimeError("this page breaks the extractor")

    extract.register("by-page-test", lambda **_: ByPage(), "records on page 2, a failure elsewhere")
    assert window.propose(["2", "1"], method="by-page-test") is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
    assert window.statusBar().currentMessage() == ("done: 3 records proposed on page 2; failed on page 1 "
                                                   "(RuntimeError: this page breaks the extractor)")
    assert window.propose(["2"], method="by-page-test") is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
    assert window.statusBar().currentMessage() == "done: nothing new on page 2"
    empty = Extraction([], "by-page-test", "1", {}, 0)
    extract.register("by-page-test", lambda **_: type("Empty", (), {"extract": lambda self, page: empty})(),
                     "no records anywhere")
    assert window.propose(["2", "1"], method="by-page-test") is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=30_000)
    # page 2 keeps the 3 records proposed before: its count beside the bar shows them, not found this time
    assert window.statusBar().currentMessage() == ("done: no records found on pages 2, 1 (earlier proposals stay: 3 "
                                                   "on page 2)")
    said = window.messages.text()
    assert "page 2: by-page-test found no records" in said  # each page's own message, kept in full
    assert "page 1: RuntimeError: this page breaks the extractor" in said


def test_each_menu_opens_with_its_own_alt_letter_even_from_the_page_filter(qtbot, window):
    from PySide6.QtGui import QKeySequence

    menus = [a for a in window.menuBar().actions() if a.menu() is not None]
    letters = [QKeySequence.mnemonic(a.text()).toString() for a in menus]
    assert all(letters) and len(set(letters)) == len(letters), letters
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    status = window.page_list.status_filter
    status.setFocus()
    chosen = status.currentText()
    edit = next(a.menu() for a in menus if a.text() == "&Edit")
    QTest.keyClick(status, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(edit.isVisible)
    assert status.currentText() == chosen  # the filter did not take the key for "every status starting with E"
    edit.close()
