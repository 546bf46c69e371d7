"""The window without a mouse, and what a screen reader is told: keys made in the page edit no record, Esc and
Ctrl+1/2/3 move the keys between the panels (framed while they have them), E makes a record from the page's
element in focus, the Review list follows the arrow keys, F6 and the start give the keys somewhere visible,
widgets have names, the menus' items have Alt+letters, and the status bar's message ends before its labels."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QAction, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from recordlens.annotator.agent.recording_panel import RecordingPanel
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.shortcuts import SHORTCUTS
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.records import normalise_xpath
from tests.app.page_helpers import click_element, js
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

SHOP = """<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop</h1>
<div class="card"><a href="https://shop.example.com/alpha">Alpha</a> <span>$1</span></div>
<div class="card"><a href="https://shop.example.com/beta">Beta</a> <span>$2</span></div>
<p>Lots of words to read before the form.</p>
<button type="button">Buy</button> <input type="text" name="q" value="">
</body></html>"""
ALPHA = "/body[1]/div[1]/a[1]"
BETA = "/body[1]/div[2]/a[1]"
BUTTON = "/body[1]/button[1]"
HEADING = "/body[1]/h1[1]"
WORDS = "/body[1]/p[1]"


@pytest.fixture
def shop(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": SHOP, "html/2.html": SHOP.replace("Shop", "Shop two")})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    yield win
    win.close()


def proxy(win: MainWindow) -> QWidget:
    target = win.page_view.view.focusProxy()
    assert target is not None
    return target


def keys_in_the_page(qtbot, win: MainWindow) -> QWidget:
    """The keys in the page, as a click on it leaves them (Ctrl+2 has a test of its own)."""
    win.page_view.view.setFocus()
    qtbot.waitUntil(proxy(win).hasFocus, timeout=5_000)
    return proxy(win)


def focus_in_page(win: MainWindow, xpath: str) -> None:
    js(win.page_view, f"(__recordlens.resolve({xpath!r}).focus(), true)")


def xpaths(win: MainWindow) -> list[list[str]]:
    return [[normalise_xpath(x) for x in label.xpaths] for label in win.project.labels(win.page_name)]


def test_enter_or_space_on_a_link_or_button_of_the_page_edits_no_record(qtbot, shop):
    made = shop.project.add_record("1", [HEADING], shop.person)
    shop.reload_labels([made.record.id])
    target = keys_in_the_page(qtbot, shop)
    for element, key in ((ALPHA, Qt.Key.Key_Return), (BUTTON, Qt.Key.Key_Space), (BUTTON, Qt.Key.Key_Return)):
        focus_in_page(shop, element)
        QTest.keyClick(target, key)
    # A pointer's click after the keys: its record comes through the same channel after anything the keys made
    click_element(shop.page_view, WORDS)
    qtbot.waitUntil(lambda: WORDS in xpaths(shop)[0], timeout=5_000)
    assert xpaths(shop) == [[HEADING, WORDS]]  # neither the link nor the button was added
    assert shop.record_panel.selected_ids() == [made.record.id]
    assert js(shop.page_view, "document.title") == "Shop"  # no link followed


def test_a_click_made_while_a_pointer_is_down_leaves_the_pointers_own_click_counted(qtbot, shop):
    """A click no pointer made (`el.click()`, `detail` 0) between a press and its click is swallowed unreported,
    and the press's own click still makes its record."""
    keys_in_the_page(qtbot, shop)
    js(shop.page_view, """(window.addEventListener("pointerdown",
        () => document.querySelector("button").click(), { capture: true, once: true }), true)""")
    click_element(shop.page_view, WORDS)
    qtbot.waitUntil(lambda: xpaths(shop) == [[WORDS]], timeout=5_000)


def test_esc_in_a_field_of_the_page_takes_the_keys_out_of_it_to_the_record_list(qtbot, shop):
    target = keys_in_the_page(qtbot, shop)
    focus_in_page(shop, "/body[1]/input[1]")
    QTest.keyClick(target, Qt.Key.Key_Escape)
    qtbot.waitUntil(shop.record_panel.list.hasFocus, timeout=5_000)
    qtbot.waitUntil(lambda: js(shop.page_view, "document.activeElement === document.body"), timeout=5_000)
    assert not shop.page_view.has_focus_frame()


def test_ctrl_1_2_3_move_the_keys_between_the_panels_and_a_frame_shows_where(qtbot, shop):
    QTest.keySequence(shop, "Ctrl+3")
    qtbot.waitUntil(shop.record_panel.list.hasFocus, timeout=5_000)
    framed = shop.record_panel.list.grab().toImage()
    QTest.keySequence(shop, "Ctrl+1")
    qtbot.waitUntil(shop.page_list.list.hasFocus, timeout=5_000)
    plain = shop.record_panel.list.grab().toImage()
    assert not _same(framed, plain), "the record list looks the same with the keys as without"
    assert not shop.page_view.has_focus_frame()
    QTest.keySequence(shop, "Ctrl+2")
    qtbot.waitUntil(proxy(shop).hasFocus, timeout=5_000)
    assert shop.page_view.has_focus_frame()
    sheet_keys = [s.keys for s in SHORTCUTS if s.name.startswith("go_to_")]
    assert sheet_keys == [("Ctrl+1",), ("Ctrl+2",), ("Ctrl+3",)]


def test_the_focus_frame_of_a_list_moves_none_of_its_rows(qtbot, shop):
    """The frame's width is the list's at rest too, only its colour changes: whether the list had the keys when
    it was last styled (a change of the desktop's theme restyles every widget) never moves its rows."""
    for view in (shop.page_list.list, shop.record_panel.list):
        plain = restyled(view)
        view.setFocus()
        qtbot.waitUntil(view.hasFocus, timeout=5_000)
        assert view.viewport().geometry() == plain == restyled(view), view.accessibleName()
        QTest.keySequence(shop, "Ctrl+2")  # the keys to the page
        qtbot.waitUntil(lambda v=view: not v.hasFocus(), timeout=5_000)
        assert view.viewport().geometry() == plain, view.accessibleName()


def restyled(view: QWidget) -> QRect:
    """Where `view`'s rows are drawn once it is styled again, as a theme change has every widget styled."""
    QApplication.sendEvent(view, QEvent(QEvent.Type.StyleChange))
    return view.viewport().geometry()


def _same(a: QImage, b: QImage) -> bool:
    return a.size() == b.size() and a == b


def test_e_makes_a_record_of_the_element_tabbed_to_and_adds_the_next_one_as_a_click_would(qtbot, shop):
    target = keys_in_the_page(qtbot, shop)
    QTest.keyClick(target, Qt.Key.Key_E)  # nothing in focus in the page yet: said, nothing made
    qtbot.waitUntil(lambda: "E acts on the one in focus" in shop.statusBar().currentMessage(), timeout=5_000)
    QTest.keyClick(target, Qt.Key.Key_Tab)  # to the first link, as a person tabs
    qtbot.waitUntil(lambda: js(shop.page_view, "__recordlens.overlay.focusedPath()") == ALPHA, timeout=5_000)
    QTest.keyClick(target, Qt.Key.Key_E)
    qtbot.waitUntil(lambda: ALPHA in sum(xpaths(shop), []), timeout=5_000)
    assert xpaths(shop) == [[ALPHA]]  # its record alone: the first E made none
    assert shop.statusBar().currentMessage().startswith("new record 1")
    QTest.keyClick(target, Qt.Key.Key_U)  # U climbs from it, as after a click
    qtbot.waitUntil(lambda: xpaths(shop) == [["/body[1]/div[1]"]], timeout=5_000)
    QTest.keyClick(target, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: js(shop.page_view, "__recordlens.overlay.focusedPath()") == BETA, timeout=5_000)
    QTest.keyClick(target, Qt.Key.Key_E)  # the record selected: the element is added to it
    qtbot.waitUntil(lambda: xpaths(shop) == [["/body[1]/div[1]", BETA]], timeout=5_000)
    QTest.keyClick(target, Qt.Key.Key_E)  # again: taken out, as a second click takes it out
    qtbot.waitUntil(lambda: xpaths(shop) == [["/body[1]/div[1]"]], timeout=5_000)


FRAMED = """<!doctype html><html><head><meta charset="utf-8"><title>Framed</title></head><body>
<iframe srcdoc="<a href='https://shop.example.com/inside'>Inside</a>"></iframe>
</body></html>"""


def test_e_on_an_element_inside_a_frame_says_it_cannot_be_labelled_and_labels_not_the_frame(qtbot, tmp_path):
    folder = imported_project(tmp_path, {"html/1.html": FRAMED})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        target = keys_in_the_page(qtbot, win)
        QTest.keyClick(target, Qt.Key.Key_Tab)  # into the frame, to its link
        qtbot.waitUntil(lambda: js(win.page_view, "document.activeElement.tagName") == "IFRAME", timeout=5_000)
        QTest.keyClick(target, Qt.Key.Key_E)
        qtbot.waitUntil(lambda: "inside a frame" in win.statusBar().currentMessage(), timeout=5_000)
        assert xpaths(win) == []
    finally:
        win.close()


def review_a_run(window: MainWindow) -> None:
    project = window.project
    run = project.runs.add("handmade")
    project.runs.add_predictions(run, {"1": project.true_records("1")[:3]})
    project.runs.finish(run)
    QTest.keySequence(window, "F6")
    assert window.reviewing.active()


def test_the_arrow_keys_in_the_review_list_move_the_page_to_the_row_reached(qtbot, window):
    review_a_run(window)
    records = window.review_panel.records
    assert records.count() > 2
    records.setFocus()
    records.setCurrentRow(0)
    with qtbot.waitSignal(window.review_panel.record_chosen, timeout=5_000) as chosen:
        QTest.keyClick(records, Qt.Key.Key_Down)
    assert chosen.args == [int(records.item(1).data(Qt.ItemDataRole.UserRole))]


def test_a_click_on_a_review_row_moves_the_page_once_and_the_keys_coming_to_the_list_do_not(qtbot, window):
    chosen: list[int] = []
    window.review_panel.record_chosen.connect(chosen.append)
    review_a_run(window)  # F6: the keys go to the review list, which has no row chosen yet
    records = window.review_panel.records
    qtbot.waitUntil(records.hasFocus, timeout=5_000)
    assert records.currentItem() is None  # not Qt's pick of the first row, which T would decide unseen
    with qtbot.waitSignal(window.review_panel.record_chosen, timeout=5_000):
        QTest.keyClick(records, Qt.Key.Key_Down)  # the first row reached: the page's one move so far
    assert chosen == [int(records.item(0).data(Qt.ItemDataRole.UserRole))]
    chosen.clear()
    for _ in range(2):  # a click on a row, then on the same row again (the page was scrolled away meanwhile)
        QTest.mouseClick(records.viewport(), Qt.MouseButton.LeftButton, pos=records.visualItemRect(
            records.item(1)).center())
    assert chosen == [int(records.item(1).data(Qt.ItemDataRole.UserRole))] * 2


def test_f6_gives_the_keys_to_the_review_list_and_back_to_the_record_list(qtbot, window):
    review_a_run(window)
    qtbot.waitUntil(window.review_panel.records.hasFocus, timeout=5_000)
    QTest.keySequence(window, "F6")
    qtbot.waitUntil(window.record_panel.list.hasFocus, timeout=5_000)


def test_the_keys_start_in_the_page_list_not_in_its_filter(qtbot, shop):
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None, timeout=5_000)
    assert QApplication.focusWidget() is shop.page_list.list


def test_lists_fields_and_combo_boxes_have_names_for_a_screen_reader(shop):
    named = {
        shop.page_list.list: "pages", shop.record_panel.list: "records", shop.review_panel.records: "review records",
        shop.review_panel.worst: "worst pages", shop.page_list.search: "search pages",
        shop.record_panel.finder: "find a record", shop.page_view.view: "page", shop.page_list.status_filter:
        "show pages", shop.review_panel.runs: "run under review", shop.page_list.progress_bar: "pages labelled",
        shop.job_progress: "job progress",
    }
    for widget, name in named.items():
        assert widget.accessibleName() == name
    clears = [a.text() for field in (shop.page_list.search, shop.record_panel.finder)
              for a in field.findChildren(QAction)]
    assert clears == ["clear the page search", "clear the record finder"]
    shop.tools.do_history()
    assert shop.tools.history_dialog.entries.accessibleName().startswith("changes of the page")
    shop.tools.history_dialog.close()
    shop.message("page 2 is next")
    assert shop.statusBar().accessibleName() == "page 2 is next"


def test_the_recording_panel_names_its_steps_answer_and_record_button_without_symbols(qtbot, shop):
    agent = shop.tools.open_agent_tools()
    try:
        panel = agent.findChild(RecordingPanel)
        assert panel is not None
        assert panel.steps.accessibleName() == "steps" and panel.answer_edit.accessibleName() == "answer"
        assert panel.task_box.accessibleName() == "task"
        assert panel.record_button.text() == "● Record" and panel.record_button.accessibleName() == "Record"
    finally:
        agent.close()


def test_every_item_of_the_main_menus_has_its_own_alt_letter(shop):
    for menu_action in shop.menuBar().actions():
        menu = menu_action.menu()
        if menu is None or len(menu.actions()) < 2:
            continue
        letters = []
        for action in menu.actions():
            if action.isSeparator():
                continue
            text = action.text()
            assert "&" in text, (menu_action.text(), text)
            letters.append(text[text.index("&") + 1].lower())
        assert len(letters) == len(set(letters)), (menu_action.text(), letters)
    assert shop.actions_by_name["accept"].shortcut().toString() == "A"  # the keys are as they were


def test_a_long_message_ends_before_the_labels_even_when_they_grow_after_it(qtbot, shop):
    bar = shop.statusBar()
    shop.counts_label.setText("short")
    spin(100)
    shop.message("a long message " * 40, 0)
    spin(100)
    shop.counts_label.setText("page in progress · 17 proposed · 1 accepted · 4 rejected · 9 edited · 2 flagged")
    spin(200)
    first = min(w.x() for w in (shop.zoom.label, shop.blocked_label, shop.counts_label, shop.saved_label)
                if w.isVisible())
    assert bar.shown_text().endswith("…")
    assert 6 + bar.fontMetrics().horizontalAdvance(bar.shown_text()) <= first
