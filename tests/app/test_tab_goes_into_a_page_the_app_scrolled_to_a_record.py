"""Tab from the page view goes into the page's links whatever the app scrolled the page to. Chromium starts Tab
after the element last scrolled into view, and the app scrolls a page opened to its first record, or to a record
J selects, that way: Tab then went on from the record, and with no link after it, straight out of the page to the
right panel, never reaching the page's links (seen after Tab had left the page and PgDn opened the next one)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.page_helpers import js
from tests.app.test_a_pages_own_focus_never_takes_the_labelling_keys import keys_in_the_page, press
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

LINK = "/body[1]/a[1]"
ITEMS = "".join(f"<li>Item {k}, price {k}.00</li>" for k in range(1, 41))
TRUTH = json.dumps([[f"/body[1]/ul[1]/li[{k}]"] for k in range(1, 41)])


def page(title: str) -> str:
    """A link at the top, then (below a view's height) records with no link among or after them."""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
            f"<a href='https://shop.example.com/home'>home</a><div style='height: 1500px'></div>"
            f"<ul>{ITEMS}</ul></body></html>")


def focused(window: MainWindow) -> str | None:
    return js(window.page_view, "__recordlens.overlay.focusedPath()")


def tab_goes_to_the_link(qtbot, window: MainWindow) -> None:
    """Tab with the keys in the page: the page's link has them."""
    press(window, Qt.Key.Key_Tab)
    qtbot.waitUntil(lambda: focused(window) == LINK, timeout=5_000)
    assert window.page_view.holds_focus()


def test_tab_goes_into_the_next_page_after_the_keys_tabbed_out_of_the_last(qtbot, tmp_path):
    # The first page has no records yet: it opens at its top, where Tab went into it
    folder = imported_project(tmp_path, {"html/1.html": page("one"), "html/2.html": page("two"), "gt/2.json": TRUTH})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        keys_in_the_page(qtbot, window)
        tab_goes_to_the_link(qtbot, window)
        press(window, Qt.Key.Key_Tab)  # past the link: out of the page, to the right panel
        qtbot.waitUntil(lambda: not window.page_view.holds_focus(), timeout=5_000)
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_PageDown)
        qtbot.waitUntil(lambda: window.page_name == "2", timeout=10_000)
        assert window.page_view.wait_until_loaded(30_000)
        window.wait_until_drawn()
        qtbot.waitUntil(lambda: js(window.page_view, "scrollY") > 0, timeout=5_000)  # opened at its first record
        keys_in_the_page(qtbot, window)
        tab_goes_to_the_link(qtbot, window)
    finally:
        window.close()


def test_tab_goes_into_the_page_after_j_scrolled_it_to_a_record(qtbot, tmp_path):
    folder = imported_project(tmp_path, {"html/1.html": page("one"), "gt/1.json": TRUTH})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.wait_until_drawn()
        keys_in_the_page(qtbot, window)
        js(window.page_view, "(window.scrollTo(0, 0), true)")
        press(window, Qt.Key.Key_J)  # the first record selected, brought into view
        qtbot.waitUntil(lambda: js(window.page_view, "scrollY") > 0, timeout=5_000)
        shown = js(window.page_view, "scrollY")
        tab_goes_to_the_link(qtbot, window)
        assert shown > 1000  # the record was in view, not the page's top, until Tab took the keys to the link
    finally:
        window.close()
