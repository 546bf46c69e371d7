"""A click on the rendered page while annotating is off: it must select nothing, change no record, and say
nothing of records. The app has no switch for it (no menu item, no key: `PageView.set_annotating` alone turns it
off); the user's click that goes to the page is Alt+click. Both are the page's own clicks: the overlay reports
neither, so no record is selected, made, widened or narrowed, and the status bar is left as it was. With
annotating on and no record selected, a click on a record's element only selects it, and says what a click does
next.

A page of three items, each a record, none selected (as tests/app/test_status_after_esc.py makes it)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from recordlens.annotator.qt.event_loop import spin
from tests.app.page_helpers import click_element
from tests.app.test_status_after_esc import ITEM, shop  # noqa: F401 - the window, as a fixture
from tests.app.window_helpers import said

pytestmark = pytest.mark.app


def records(window) -> list[tuple[int, tuple[str, ...], str]]:
    return [(label.id, tuple(label.xpaths), label.status) for label in window.project.labels("1")]


def test_the_app_has_no_switch_that_turns_annotating_off(shop) -> None:  # noqa: F811 - the fixture
    actions = [*shop.actions_by_name.values(), *(a for menu in shop.menuBar().actions() if menu.menu()
                                                 for a in menu.menu().actions())]
    assert not [a.text() for a in actions if "annotating" in a.text().lower()]


@pytest.mark.parametrize("how", ["annotating off", "Alt+click"])
def test_a_click_the_page_takes_selects_nothing_and_changes_no_record(qtbot, shop, how) -> None:  # noqa: F811
    window = shop
    window.select_records([window.labels[0].id], scroll=False)  # a click would add to record 1 or take from it
    before = records(window)
    window.message("")
    modifier = Qt.KeyboardModifier.AltModifier if how == "Alt+click" else Qt.KeyboardModifier.NoModifier
    if how == "annotating off":
        window.page_view.set_annotating(False)
    try:
        for xpath in (f"{ITEM.format(2)}/b[1]", f"{ITEM.format(1)}/i[1]", "/body[1]/p[1]"):
            click_element(window.page_view, xpath, modifier)
            spin(300)
            assert records(window) == before, xpath
            assert window.record_panel.selected_ids() == [window.labels[0].id], xpath
            assert said(window) == "", (xpath, said(window))
    finally:
        window.page_view.set_annotating(True)


def test_a_click_on_a_records_element_with_none_selected_only_selects_it(qtbot, shop) -> None:  # noqa: F811
    window = shop
    before = records(window)
    second = window.labels[1].id
    click_element(window.page_view, f"{ITEM.format(2)}/i[1]")  # inside record 2's element
    qtbot.waitUntil(lambda: window.record_panel.selected_ids() == [second], timeout=5_000)
    spin(300)
    assert records(window) == before
    assert said(window).startswith("record 2 selected: a click now adds to it or takes from it"), said(window)
