"""The Review tab's figures of the page (P/R/F1, the classes' counts, how many predicted records are
hallucinated) are wrapped lines. Squeezed (the window at its least size, a large font), Qt's layout gave their
label less than their lines need (58 of 98 px at 762×448, 96 of 184 at 14 pt in 1024×560): the last lines cut off.
The panel scrolls now where it is shorter than its parts need, the figures whole; and the empty list of worst
pages stays a row high (a list of one, two), the review list above it taking the room: it was given as much as the
list of records.

On the main window's project: bea's labels of page 1 reviewed against the project's (one page: one worst page).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSize

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.gui_waits import until_it_holds
from tests.app.review_helpers import review_bea

pytestmark = pytest.mark.app


def reviewed_in(qtbot, window: MainWindow, size: QSize) -> None:
    """bea reviewed on page 1 (three records of the project's left out, so that every figure line is there),
    the window at `size` (or its least size, if larger), the Review tab shown and laid out."""
    project = window.project
    project.annotators.set_page("bea", "1", project.true_records("1")[3:])
    review_bea(qtbot, window)
    window.tabs.setCurrentWidget(window.review_panel)
    window.resize(size.expandedTo(window.minimumSizeHint()))
    # The layout's passes happen on the next events: once they give the figures their lines (or never: the
    # assertions that follow say what is cut)
    until_it_holds(qtbot, lambda: assert_figures_whole_and_the_review_list_first(window))


def assert_figures_whole_and_the_review_list_first(window: MainWindow) -> None:
    panel = window.review_panel
    figures = panel.page_figures
    assert "hallucinated" in figures.text() or "matched" in figures.text(), figures.text()
    assert figures.height() >= figures.heightForWidth(figures.width()), (figures.size(), figures.text())
    assert panel.worst.count() <= 1  # bea's one page compared
    assert panel.records.viewport().height() > panel.worst.viewport().height(), (
        panel.records.viewport().height(), panel.worst.viewport().height())


def test_the_figures_are_whole_at_the_windows_least_size(qtbot, window: MainWindow) -> None:
    reviewed_in(qtbot, window, QSize(0, 0))  # the least size
    assert_figures_whole_and_the_review_list_first(window)
    # The panel scrolls to the list the keys go to (F6 gives them to it): it is below the figures, out of view.
    panel = window.review_panel
    view = panel.scroll.viewport()
    in_view = lambda: view.rect().contains(panel.records.mapTo(view, panel.records.rect().topLeft()))  # noqa: E731
    until_it_holds(qtbot, lambda: not in_view())
    assert not in_view()
    window.activateWindow()
    panel.first_control().setFocus()
    qtbot.waitUntil(lambda: panel.records.hasFocus() and in_view(), timeout=5_000)


def test_the_figures_are_whole_in_a_large_font(qtbot, window: MainWindow) -> None:
    font = window.font()
    font.setPointSizeF(14)
    window.setFont(font)  # the window's parts take it, as they take the application's
    reviewed_in(qtbot, window, QSize(1024, 560))
    assert window.review_panel.page_figures.fontInfo().pointSizeF() >= 13.5
    assert_figures_whole_and_the_review_list_first(window)
