"""F6 with the keys in the record list (or the Review list) scrolled the page to its top: the tab it hid held the
keys, and Qt handed them on along the window's Tab chain to Chromium's page, which takes keys come by Tab as a Tab
into it, focusing its first link and scrolling to it. Review then showed the page's top, the place labelling had
it at (or its first mistake) gone; so did / (the record finder) from the Review list. The keys now leave the tab
before it is hidden, and go where the key sends them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import half_run

pytestmark = pytest.mark.app

PLACE = 600  # px down the page: neither its top nor the review's first mistake


def keys_in(qtbot, window: MainWindow, widget) -> None:
    widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=5_000)


def scrolled_to(qtbot, window: MainWindow, y: int) -> None:
    window.page_view.scroll_to_y(y)
    qtbot.waitUntil(lambda: window.page_view.scroll_y == y, timeout=5_000)


def focus_seen(window: MainWindow) -> list[str]:
    """The widgets the keys go to from now on, by their class names."""
    seen: list[str] = []
    QApplication.instance().focusChanged.connect(lambda _old, new: seen.append(type(new).__name__))
    return seen


@pytest.fixture
def seen_from_the_review_list(qtbot, window: MainWindow) -> list[str]:
    """The window in Review, its page scrolled to PLACE, the keys in its list of runs; the widgets they go to from
    then on. No place of labelling's to put back, as after a start that reopened in Review (or W opening another
    page)."""
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    window.reviewing._labelling_place = None
    scrolled_to(qtbot, window, PLACE)
    keys_in(qtbot, window, window.review_panel.runs)
    return focus_seen(window)


def page_left_in_place(qtbot, window: MainWindow, seen: list[str], keys_at) -> None:
    """The page still at PLACE a moment later (a scroll of the page's own comes within it), the keys at `keys_at`,
    never in Chromium's widget on the way."""
    qtbot.wait(1_000)
    assert window.page_view.scroll_y == PLACE
    assert window.focusWidget() is keys_at
    assert "QWidget" not in seen, seen


def test_f6_from_the_record_list_to_review_leaves_the_page_where_labelling_had_it(qtbot, window: MainWindow) -> None:
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    QTest.keySequence(window, "F6")  # back to labelling, the run still chosen
    assert window.tabs.currentWidget() is window.record_panel
    scrolled_to(qtbot, window, PLACE)
    keys_in(qtbot, window, window.record_panel.list)
    seen = focus_seen(window)

    QTest.keySequence(window, "F6")
    assert window.tabs.currentWidget() is window.review_panel
    page_left_in_place(qtbot, window, seen, window.review_panel.first_control())


def test_f6_from_the_review_list_to_labelling_leaves_the_page_where_review_had_it(
        qtbot, window: MainWindow, seen_from_the_review_list: list[str]) -> None:
    QTest.keySequence(window, "F6")
    assert window.tabs.currentWidget() is window.record_panel
    page_left_in_place(qtbot, window, seen_from_the_review_list, window.record_panel.list)


def test_slash_from_the_review_list_to_the_record_finder_leaves_the_page_where_review_had_it(
        qtbot, window: MainWindow, seen_from_the_review_list: list[str]) -> None:
    QTest.keySequence(window, "/")
    assert window.tabs.currentWidget() is window.record_panel
    page_left_in_place(qtbot, window, seen_from_the_review_list, window.record_panel.finder)
