"""A search typed in the page list key by key costs its keys, not the project's pages: each fill folded every page's
name, title and URL again (`folded`'s cache holds fewer texts than three a page at 1,625 pages, so every fill missed
it), made every row's texts again, and measured every row's height anew: 0.2 s a key, and the typing lagged. The
pages' folded texts, their rows' texts and the rows' heights are made once; what the list finds, selects and says
is what a search folding every page anew finds (`matches` without the texts kept)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling import page_list as page_list_module
from recordlens.annotator.labelling.page_list import ALL, PageList, matches
from recordlens.annotator.qt.row_lines import LinesInTheirOwnDirection
from recordlens.core.store import PAGE_STATUSES, PageInfo

pytestmark = pytest.mark.app

PAGES = 300
WORDS = ("shop", "Café", "STRASSE", "Straße", "résumé", "Hà Nội", "שָׁלוֹם", "ﬁle", "Ñandú", "item")
TYPED = "café 1"


def pages(count: int = PAGES) -> list[PageInfo]:
    draw = random.Random(7)
    return [
        PageInfo(
            name=f"p{n}",
            status=draw.choice(PAGE_STATUSES),
            url=f"https://{draw.choice(WORDS[:2]).lower()}.example.com/{n}" if n % 5 else None,
            title=" ".join(draw.choice(WORDS) for _ in range(3)) if n % 7 else None,
            charset=None,
            snapshot="0" * 64,
            suffix=".html",
            source=None,
            warnings=(),
            imported_at="",
            updated_at="",
        )
        for n in range(count)
    ]


@pytest.fixture
def page_list(qtbot) -> PageList:
    widget = PageList()
    qtbot.addWidget(widget)
    widget.resize(320, 600)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def found(listed: list[PageInfo], status: str, search: str) -> list[str]:
    """The pages a search folding each page's texts anew finds."""
    return [info.name for info in listed if matches(info, status, search)]


def typed_key_by_key(qtbot, page_list: PageList, text: str, check) -> None:  # noqa: ANN001 - a check of the list
    """`text` typed a key at a time, each key's fill run (the pause ended) and laid out, `check` run after each. A key
    goes in as the line edit puts a key's text in (QTest types ASCII only)."""
    page_list.search.setFocus()
    for at in range(len(text)):
        page_list.search.insert(text[at])
        page_list.names()  # the pause ended at once: the fill it runs
        qtbot.wait(1)  # laid out and painted
        check(text[: at + 1])


def test_a_search_typed_key_by_key_folds_measures_and_writes_no_row_again(qtbot, page_list, monkeypatch):
    listed = pages()
    page_list.set_pages(listed, "p1")
    qtbot.wait(1)  # every row laid out once, as the list first shows them
    folds, lines, measures = [], [], []
    folded, line = page_list_module.folded, page_list_module.page_line
    measure = LinesInTheirOwnDirection.sizeHint
    monkeypatch.setattr(page_list_module, "folded", lambda text: (folds.append(text), folded(text))[1])
    monkeypatch.setattr(page_list_module, "page_line", lambda info: (lines.append(info.name), line(info))[1])
    monkeypatch.setattr(
        LinesInTheirOwnDirection,
        "sizeHint",
        lambda self, option, index: (measures.append(1), measure(self, option, index))[1],
    )

    typed_key_by_key(qtbot, page_list, TYPED, lambda search: None)
    for _ in TYPED:
        QTest.keyClick(page_list.search, Qt.Key.Key_Backspace)
        page_list.names()
        qtbot.wait(1)

    typed = {TYPED[:k] for k in range(len(TYPED) + 1)}
    assert [text for text in folds if text.strip() not in typed] == []  # only the search folded, no page's text
    assert lines == []  # no row's text made again
    assert measures == []  # every row's height as first measured
    assert page_list.names() == [info.name for info in listed]
    height = page_list.list.visualItemRect(page_list.list.item(0)).height()
    page_list.list.setStyleSheet("QListView::item { padding: 9px; }")  # a theme's rows, taller
    qtbot.waitUntil(lambda: page_list.list.visualItemRect(page_list.list.item(0)).height() > height)
    assert measures  # measured again for the new style


@pytest.mark.parametrize("status", [ALL, "new", "labelled"])
def test_what_a_search_finds_is_what_folding_every_page_anew_finds(qtbot, page_list, status):
    listed = pages()
    page_list.set_pages(listed, None)
    page_list.status_filter.setCurrentIndex(page_list.status_filter.findData(status))

    def check(search: str) -> None:
        wanted = found(listed, status, search)
        assert page_list.names() == wanted
        narrowed = f" · {len(wanted)} of {PAGES} shown"
        assert page_list.progress_label.text() == f"{sum(p.finished for p in listed)} / {PAGES} labelled{narrowed}"

    for search in (TYPED, "STRASSE", "שלום", "file", "nandu", "HA NOI", "shop.example"):
        page_list.search.clear()
        typed_key_by_key(qtbot, page_list, search, check)


def test_the_page_on_show_stays_selected_while_the_search_finds_it_and_keys_walk_the_rows_found(qtbot, page_list):
    listed = pages()
    chosen: list[str] = []
    page_list.page_chosen.connect(chosen.append)
    page_list.status_filter.setCurrentIndex(page_list.status_filter.findData("new"))
    wanted = found(listed, "new", "p2")
    shown = wanted[3]
    page_list.set_pages(listed, shown)
    assert page_list.current_name() == shown
    page_list.search.setText("p")
    assert page_list.current_name() == shown  # found: still selected
    page_list.search.setText("p2")
    assert page_list.current_name() == shown and page_list.names() == wanted
    page_list.list.setFocus()
    QTest.keyClick(page_list.list, Qt.Key.Key_Home)
    assert page_list.current_name() == chosen[-1] == wanted[0]
    QTest.keyClick(page_list.list, Qt.Key.Key_Down)
    assert page_list.current_name() == chosen[-1] == wanted[1]  # the rows the search lists, one after another
    QTest.keyClick(page_list.list, Qt.Key.Key_End)
    assert page_list.current_name() == chosen[-1] == wanted[-1]
    page_list.search.setText(f"{shown}x")
    assert page_list.current_name() is None and page_list.names() == []  # not found: not selected


def test_a_page_whose_title_an_edit_changes_is_found_by_its_new_title(qtbot, page_list):
    listed = pages()
    page_list.set_pages(listed, "p1")
    page_list.search.setText("brand new title")
    assert page_list.names() == []
    renamed = dataclasses.replace(listed[3], title="A Brand New Title")
    assert page_list.update_pages([renamed], "p1")
    assert page_list.names() == ["p3"]
    assert page_list.list.item(0).text().startswith(f"{page_list_module.STATUS_MARKS[renamed.status]} ")
    assert "A Brand New Title" in page_list.list.item(0).text()
    page_list.set_pages([*listed[:3], dataclasses.replace(renamed, title="old again"), *listed[4:]], "p1")
    assert page_list.names() == []  # read anew: its title as the project now has it
