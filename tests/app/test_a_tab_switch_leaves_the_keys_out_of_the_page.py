"""A tab of the right panel hidden while a widget of it held the keys (a click on the other tab, or any switch made
by the code) handed them along the window's Tab chain to Chromium's page, which took them as a Tab into it: it
focused its first link and scrolled there, the place labelling or review had the page at gone. F6, a start in
Review and / mended it each for itself; the tabs now let go of the keys themselves, whoever switches them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.review_helpers import half_run
from tests.app.test_f6_from_a_list_keeps_the_page_where_it_is import PLACE, focus_seen, keys_in, scrolled_to

pytestmark = pytest.mark.app


def click_tab(window: MainWindow, index: int) -> None:
    bar = window.tabs.tabBar()
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())


def in_review_at_a_place(qtbot, window: MainWindow) -> None:
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    window.reviewing._labelling_place = None  # no place of labelling's to put back (as after a start in Review)
    scrolled_to(qtbot, window, PLACE)


def test_a_click_on_the_records_tab_from_the_review_list_leaves_the_page_where_it_is(qtbot, window: MainWindow
                                                                                    ) -> None:
    in_review_at_a_place(qtbot, window)
    keys_in(qtbot, window, window.review_panel.records)
    seen = focus_seen(window)

    click_tab(window, window.tabs.indexOf(window.record_panel))
    assert window.tabs.currentWidget() is window.record_panel
    qtbot.wait(1_000)  # a scroll of the page's own comes within this
    assert window.page_view.scroll_y == PLACE
    assert "QWidget" not in seen, seen  # Chromium's widget never had the keys
    assert window.focusWidget() is not window.page_view.view


def test_a_tab_switched_by_the_code_from_the_record_list_leaves_the_page_where_it_is(qtbot, window: MainWindow
                                                                                   ) -> None:
    in_review_at_a_place(qtbot, window)
    click_tab(window, window.tabs.indexOf(window.record_panel))
    keys_in(qtbot, window, window.record_panel.list)
    seen = focus_seen(window)

    window.tabs.setCurrentWidget(window.review_panel)
    qtbot.wait(1_000)
    assert window.page_view.scroll_y == PLACE
    assert "QWidget" not in seen, seen
