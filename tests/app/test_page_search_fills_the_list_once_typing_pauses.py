"""The page search (Ctrl+F) fills the page list once the typing pauses, not at every key: at 1,000 pages a fill
took 0.1 s, and a search typed fast under load lagged behind the keys. What the list shows is the same as a fill at
every key would show, and whoever reads the list before the pause ends (Enter, a page key) reads it so."""

from __future__ import annotations

import pytest
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.page_list import ALL, PageList, matches
from recordlens.core.store import PageInfo

pytestmark = pytest.mark.app

PAGES = 1000


def page(n: int) -> PageInfo:
    return PageInfo(name=str(n), status="new", url=f"https://shop.example.com/item/{n}", title=f"item {n}",
                    charset=None, snapshot="0" * 64, suffix=".html", source=None, warnings=(), imported_at="",
                    updated_at="")


@pytest.fixture
def page_list(qtbot) -> PageList:
    widget = PageList()
    qtbot.addWidget(widget)
    widget.set_pages([page(n) for n in range(1, PAGES + 1)], "1")
    widget.show()
    return widget


def fills_while(page_list: PageList, typing) -> int:  # noqa: ANN001 - what types
    """How many times the list was filled anew (its rows all replaced) while `typing` ran."""
    fills: list[None] = []
    model = page_list.list.model()
    model.modelReset.connect(lambda: fills.append(None))
    typing()
    return len(fills)


def found(search: str) -> list[str]:
    return [str(n) for n in range(1, PAGES + 1) if matches(page(n), ALL, search)]


def test_a_search_typed_fast_fills_the_list_once(qtbot, page_list):
    page_list.search.setFocus()
    typed = "item 12"
    assert fills_while(page_list, lambda: QTest.keyClicks(page_list.search, typed)) == 0  # keys only, so far
    wanted = found(typed)
    filled = fills_while(page_list, lambda: qtbot.waitUntil(lambda: page_list.list.count() == len(wanted),
                                                            timeout=5_000))
    assert filled == 1
    qtbot.wait(300)  # nothing more comes of the keys typed
    assert page_list.list.count() == len(wanted)
    assert page_list.names() == wanted and page_list.progress_label.text().endswith(f"{len(wanted)} of {PAGES} shown")


def test_the_list_read_before_the_pause_ends_is_the_list_the_search_asks_for(page_list):
    page_list.search.setFocus()
    QTest.keyClicks(page_list.search, "item 99")
    assert page_list.names() == found("item 99")  # read at once: filled then, once
    assert page_list.neighbour("99", 1) == "990"
    QTest.keyClicks(page_list.search, "9")
    assert page_list.current_name() is None  # page 1, on show, is not among those found
    assert page_list.names() == ["999"]
