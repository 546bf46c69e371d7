"""A theme switched while the app runs (the desktop's light to dark, or back: Qt sets the application's palette)
reaches every list of the window. The lists framed while they have the keys (`show_focus`) are styled by a style
sheet, and Qt hands a palette change on only to widgets without one: the page list, the record list and the review
lists kept the theme they were first styled in (white rows in a dark window), and the record list's dots and greys,
and the review rows' colours, were worked out for those rows. Each list now takes the new palette at once, its scroll
bars too, and what draws its rows in colours of its own draws them again for it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QListWidget

from recordlens.annotator.labelling.page_list import PageList
from recordlens.annotator.labelling.page_view import PALETTE
from recordlens.annotator.labelling.record_panel import RecordPanel, RecordRow
from recordlens.annotator.labelling.review_panel import DATA_ROLE, ReviewPanel
from recordlens.annotator.qt.contrast import GRAPHICS, READABLE, contrast
from recordlens.core.records import PageReview, PageScore, ReviewRecord
from recordlens.core.store import REJECTED
from tests.app.themes import DARK, LIGHT, Theme, switch_to, theme_put_back

pytestmark = pytest.mark.app

@pytest.fixture
def light(qapp) -> Iterator[None]:
    """The application in a light theme when the test starts; the session's palette back after it."""
    with theme_put_back():
        switch_to(LIGHT)
        yield


def assert_in(view: QListWidget, colours: Theme) -> None:
    """`view`'s rows and its scroll bar in the theme of `colours`."""
    palette = view.palette()
    assert palette.color(QPalette.ColorRole.Base) == QColor(colours[0]), view.accessibleName()
    assert palette.color(QPalette.ColorRole.Text) == QColor(colours[2]), view.accessibleName()
    assert view.viewport().palette().color(QPalette.ColorRole.Base) == QColor(colours[0]), view.accessibleName()
    bar = view.verticalScrollBar().palette()
    assert bar.color(QPalette.ColorRole.Window) == QColor(colours[3]), view.accessibleName()


def dot(panel: RecordPanel, row: int) -> QColor:
    """The colour the row's dot is filled with: its middle pixel."""
    image = panel.list.item(row).icon().pixmap(14, 14).toImage()
    return image.pixelColor(image.width() // 2, image.height() // 2)


def assert_record_rows_show_on(panel: RecordPanel, colours: Theme) -> None:
    """Every dot at 3:1 on the theme's rows, the rejected row's grey at 4.5:1."""
    rows = [QColor(colours[0]), QColor(colours[1])]
    for index in range(panel.list.count()):
        filled = dot(panel, index)
        assert all(contrast(filled, row) >= GRAPHICS for row in rows), (colours, index, filled.name())
    grey = panel.list.item(1).foreground().color()
    assert all(contrast(grey, row) >= READABLE for row in rows), (colours, grey.name())


def test_the_record_list_its_dots_and_its_greys_follow_a_theme_switched_under_them(qtbot, light) -> None:
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.set_rows([RecordRow(10 + k, k + 1, colour, REJECTED if k == 1 else "accepted", f"item {k + 1}", 1, 1,
                              "mdr", False) for k, colour in enumerate(PALETTE)], [])
    panel.show()
    qtbot.waitExposed(panel)
    assert_in(panel.list, LIGHT)
    assert_record_rows_show_on(panel, LIGHT)
    first_dots = [dot(panel, index).name() for index in range(panel.list.count())]
    switch_to(DARK)
    assert_in(panel.list, DARK)
    assert_record_rows_show_on(panel, DARK)
    assert [dot(panel, index).name() for index in range(panel.list.count())] != first_dots
    switch_to(LIGHT)  # and back
    assert_in(panel.list, LIGHT)
    assert [dot(panel, index).name() for index in range(panel.list.count())] == first_dots


def test_the_page_list_follows_a_theme_switched_under_it(qtbot, light) -> None:
    pages = PageList()
    qtbot.addWidget(pages)
    pages.list.addItems([f"page {k}" for k in range(200)])  # enough to scroll
    pages.show()
    qtbot.waitExposed(pages)
    pages.list.scrollToBottom()
    scrolled = pages.list.verticalScrollBar().value()
    assert_in(pages.list, LIGHT)
    switch_to(DARK)
    assert_in(pages.list, DARK)
    assert pages.list.verticalScrollBar().value() == scrolled  # styled again, it stays where it was
    switch_to(LIGHT)
    assert_in(pages.list, LIGHT)


def review() -> PageReview:
    """A record of each class."""
    score = PageScore(page="1", precision=0.5, recall=0.5, f1=0.5, predicted_records=3, true_records=3, matches=[],
                      hallucinated_records=0, empty_true_records=0)
    return PageReview(score, (
        ReviewRecord("matched", ("/body[1]/div[1]",), 0, 0, 1.0, ("/body[1]/div[1]",)),
        ReviewRecord("partial", ("/body[1]/div[2]/h3[1]",), 1, 1, 0.3, ("/body[1]/div[2]",)),
        ReviewRecord("missed", ("/body[1]/div[3]",), None, 2, 0.0, ("/body[1]/div[3]",)),
        ReviewRecord("spurious", ("/body[1]/div[9]",), 2, None, 0.0)))


def test_the_review_lists_and_their_rows_colours_follow_a_theme_switched_under_them(qtbot, light) -> None:
    panel = ReviewPanel()
    qtbot.addWidget(panel)
    panel.show_page(review(), texts=["One", "Two", "Three", "Banner"], kept=[1])
    panel.kept_toggle.show()
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.records.count() == 4
    for colours in (DARK, LIGHT):  # there and back
        switch_to(colours)
        for view in (panel.records, panel.worst):
            assert_in(view, colours)
        for row in range(panel.records.count()):
            item = panel.records.item(row)
            ink = item.foreground().color()
            assert contrast(ink, QColor(colours[0])) >= READABLE, (colours, item.data(DATA_ROLE), ink.name())
