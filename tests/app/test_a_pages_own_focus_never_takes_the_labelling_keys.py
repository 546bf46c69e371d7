"""A saved page is a record of a page, not an app to use: a field it focuses itself (`autofocus`, on load or later,
in a frame of it too) or a field the keys reach (Tab, a click) never takes the labelling keys. With the keys in the
page, PgDn opens the next page and J, A... run their commands; nothing is typed into the page, which still scrolls
with the keys as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.page_helpers import click_element, js
from tests.app.window_helpers import imported_project, open_page_loaded, open_window

pytestmark = pytest.mark.app

ITEMS = "".join(f"<li><b>Item {k}</b> <span>price {k}.00</span></li>" for k in range(1, 61))
TRUTH = json.dumps([[f"/body[1]/ul[1]/li[{k}]"] for k in range(1, 61)])


def page(title: str, before: str = "", after: str = "") -> str:
    """A long page of records (it scrolls), `before` and `after` them."""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>{before}"
            f"<h1>{title}</h1><ul>{ITEMS}</ul>{after}</body></html>")


AUTOFOCUS = "<form><input type='email' name='e' autofocus placeholder='email'></form>"
EDITABLE = "<div contenteditable='true' autofocus>notes</div>"
FRAMED = "<iframe srcdoc=\"<input name='q' autofocus>\"></iframe>"
CLOSED_FIELD = "<div><template shadowrootmode='closed'><input name='q'></template></div>"
FIELD = "/body[1]/p[1]/input[1]"  # FIELDS after the records: Tab reaches them from where the page is scrolled
FIELDS = ("<p><a href='https://shop.example.com/a'>first link</a> <input name='q'> "
          "<a href='https://shop.example.com/b'>second link</a></p>")

TYPED_IN_THE_PAGE = """(() => {
    const typed = [document, ...[...document.querySelectorAll("iframe")].map((f) => f.contentDocument)]
        .flatMap((d) => [...d.querySelectorAll("input, textarea")].map((el) => el.value));
    const edited = [...document.querySelectorAll("[contenteditable]")].map((el) => el.textContent);
    return [...typed.filter((v) => v !== ""), ...edited.filter((t) => t !== "notes")];
})()"""


@contextmanager
def window_on(qtbot, tmp_path: Path, second: str, second_after: str = "") -> Iterator[MainWindow]:
    """The window on three pages, the second with `second` before its records and `second_after` after them; the
    first one on show. Closed after."""
    folder = imported_project(tmp_path, {
        "html/1.html": page("page one"), "gt/1.json": TRUTH,
        "html/2.html": page("page two", second, second_after), "gt/2.json": TRUTH,
        "html/3.html": page("page three"), "gt/3.json": TRUTH,
    })
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        yield window
    finally:
        window.close()


def keys_in_the_page(qtbot, window: MainWindow) -> None:
    """The keys in the page, as Ctrl+2 gives them."""
    QTest.keySequence(window, "Ctrl+2")
    qtbot.waitUntil(window.page_view.holds_focus, timeout=5_000)


def press(window: MainWindow, key: Qt.Key) -> None:
    """A real key on the widget that has the keys in the page (Chromium's, made anew as pages load)."""
    target = QApplication.focusWidget()
    assert target is not None and window.page_view.holds_focus(), "the keys are not in the page"
    QTest.keyClick(target, key)


def next_page(qtbot, window: MainWindow, name: str) -> None:
    """PgDn with the keys in the page: page `name` on show and loaded, the keys still in it."""
    press(window, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: window.page_name == name, timeout=10_000)
    assert window.page_view.wait_until_loaded(30_000)
    window.wait_until_drawn()
    qtbot.waitUntil(window.page_view.holds_focus, timeout=5_000)


def typed_in_the_page(window: MainWindow) -> list[str]:
    """What the fields of the page on show hold that its markup did not: what the keys typed into them."""
    return js(window.page_view, TYPED_IN_THE_PAGE)


def typed_once_back_from_page_3(qtbot, window: MainWindow) -> list[str]:
    """PgDn to page 3, then page 2 opened again: what its fields hold once it has loaded."""
    next_page(qtbot, window, "3")
    open_page_loaded(window, "2")
    return typed_in_the_page(window)


def selects_another_record(qtbot, window: MainWindow, key: Qt.Key = Qt.Key.Key_J) -> None:
    """J (the next record), or `key`, with the keys in the page: another record selected."""
    before = window.record_panel.selected_ids()
    press(window, key)
    qtbot.waitUntil(lambda: window.record_panel.selected_ids() not in ([], before), timeout=5_000)


@pytest.mark.parametrize("second", [AUTOFOCUS, EDITABLE, FRAMED], ids=["field", "contenteditable", "frame"])
def test_a_field_the_page_focuses_on_load_takes_no_labelling_key(qtbot, tmp_path, second):
    with window_on(qtbot, tmp_path, second) as window:
        keys_in_the_page(qtbot, window)
        next_page(qtbot, window, "2")
        selects_another_record(qtbot, window)
        press(window, Qt.Key.Key_X)  # no command's key: it goes nowhere either
        assert typed_once_back_from_page_3(qtbot, window) == []


def test_a_field_focused_after_the_load_takes_no_labelling_key(qtbot, tmp_path):
    with window_on(qtbot, tmp_path, AUTOFOCUS.replace(" autofocus", "")) as window:
        keys_in_the_page(qtbot, window)
        next_page(qtbot, window, "2")
        # As a page's script would, long after the load (a saved page's own scripts never run: the app's world,
        # whose timers do not run either, stands in for them)
        js(window.page_view, "(document.querySelector('input').focus(), true)")
        selects_another_record(qtbot, window)
        assert typed_in_the_page(window) == []
        next_page(qtbot, window, "3")


def test_a_field_tabbed_to_or_clicked_types_nothing_and_e_acts_on_it(qtbot, tmp_path):
    with window_on(qtbot, tmp_path, "", FIELDS) as window:
        open_page_loaded(window, "2")
        keys_in_the_page(qtbot, window)
        focused = lambda: js(window.page_view, "__recordlens.overlay.focusedPath()")  # noqa: E731
        for element in ("/body[1]/p[1]/a[1]", FIELD, "/body[1]/p[1]/a[2]"):  # Tab goes on from the field
            press(window, Qt.Key.Key_Tab)
            qtbot.waitUntil(lambda e=element: focused() == e, timeout=5_000)
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
        qtbot.waitUntil(lambda: focused() == FIELD, timeout=5_000)
        press(window, Qt.Key.Key_E)  # as a click on the field: a record of it
        qtbot.waitUntil(lambda: any(FIELD in r.xpaths for r in window.project.labels("2")), timeout=5_000)
        selects_another_record(qtbot, window, Qt.Key.Key_K)  # its record is the last: K goes back from it
        click_element(window.page_view, FIELD)
        press(window, Qt.Key.Key_X)
        selects_another_record(qtbot, window, Qt.Key.Key_K)
        assert typed_in_the_page(window) == []


def test_a_field_of_a_frame_tabbed_to_takes_no_labelling_key(qtbot, tmp_path):
    with window_on(qtbot, tmp_path, "", FRAMED.replace(" autofocus", "")) as window:
        open_page_loaded(window, "2")
        keys_in_the_page(qtbot, window)
        press(window, Qt.Key.Key_Tab)  # into the frame, to its field
        qtbot.waitUntil(lambda: js(window.page_view, "document.activeElement.tagName") == "IFRAME", timeout=5_000)
        selects_another_record(qtbot, window)
        assert typed_once_back_from_page_3(qtbot, window) == []


def test_the_page_with_a_field_it_focused_still_scrolls_with_the_keys(qtbot, tmp_path):
    with window_on(qtbot, tmp_path, AUTOFOCUS) as window:
        keys_in_the_page(qtbot, window)
        next_page(qtbot, window, "2")
        for _ in range(3):
            press(window, Qt.Key.Key_Down)
        press(window, Qt.Key.Key_Space)
        qtbot.waitUntil(lambda: js(window.page_view, "scrollY") > 200, timeout=5_000)
        assert typed_in_the_page(window) == []


def test_the_windows_keys_win_over_a_field_the_page_cannot_be_asked_about(qtbot, tmp_path):
    """Whatever the page has in focus, a key the window has a shortcut for is the window's: here a field in a closed
    shadow root (markup alone makes one), which no script outside it sees, so it keeps the caret that Qt is told
    of; and every field for a moment, between its focus and its blur in the page."""
    with window_on(qtbot, tmp_path, "", CLOSED_FIELD) as window:
        open_page_loaded(window, "2")
        keys_in_the_page(qtbot, window)
        press(window, Qt.Key.Key_Tab)  # into the shadow root, to its field
        qtbot.waitUntil(lambda: QApplication.focusWidget().inputMethodQuery(Qt.InputMethodQuery.ImEnabled) is True,
                        timeout=5_000)
        selects_another_record(qtbot, window)
        press(window, Qt.Key.Key_PageDown)
        qtbot.waitUntil(lambda: window.page_name == "3", timeout=10_000)
