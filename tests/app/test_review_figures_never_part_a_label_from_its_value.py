"""The Review tab's figures wrap to the panel's width: in a narrow panel a line ended between a figure's label and
its value ("0" at the end of one line, "spurious" at the start of the next; "16 true" and "(R)"). A line now breaks
between figures only: each figure's words are joined by non-breaking spaces where the label lays them out, while
what the label says (`text()`) is the words as written.

On the main window's project: a run that found the first 5 of the demo page 1's 16 records, reviewed with the
window at its least size (the right panel at its least width), and at a large font."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QFont, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel

from recordlens.annotator.labelling.main_window import MainWindow
from tests.app.gui_waits import queued_work_done
from tests.app.review_helpers import half_run

pytestmark = pytest.mark.app

# A figure as the panel says it: a label and its value, a count and what it counts (with its tag)
FIGURE = re.compile(r"(?:\b(?:P|R|F1|overlap|records|\(pages\)|≥)[ \u00a0]\d+\.\d+)"
                    r"|(?:\b\d+[ \u00a0](?:matched|partial|missed|spurious|predicted|true)(?:[ \u00a0]\([PR]\))?)")


def laid_out_lines(label: QLabel) -> list[tuple[int, int]]:
    """Where each line of the label's text starts and ends as its width lays it out (its paragraphs each wrapped
    on their own, as a label wraps them)."""
    shown = QLabel.text(label)  # what the label lays out, non-breaking spaces and all
    width = label.contentsRect().width() - 2 * label.margin()
    lines, start = [], 0
    for paragraph in shown.split("\n"):
        layout = QTextLayout(paragraph, label.font())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WordWrap)
        layout.setTextOption(option)
        layout.beginLayout()
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            lines.append((start + line.textStart(), start + line.textStart() + line.textLength()))
        layout.endLayout()
        start += len(paragraph) + 1
    return lines


def parted_figures(label: QLabel) -> list[str]:
    """The figures of the label whose words a line break parts."""
    lines = laid_out_lines(label)
    shown = QLabel.text(label)

    def line_of(at: int) -> int:
        return next(k for k, (start, end) in enumerate(lines) if start <= at < end)

    return [found.group() for found in FIGURE.finditer(shown) if line_of(found.start()) != line_of(found.end() - 1)]


def reviewed_narrow(qtbot, window: MainWindow) -> None:
    window.start_review(half_run(window.project))
    window.page_view.wait_until_drawn()
    window.tabs.setCurrentWidget(window.review_panel)
    window.resize(QSize(0, 0).expandedTo(window.minimumSizeHint()))
    queued_work_done()
    qtbot.waitUntil(lambda: window.review_panel.page_figures.width() < 300, timeout=5_000)


@pytest.mark.parametrize("points", [None, 13])
def test_no_line_parts_a_figures_label_from_its_value(qtbot, window: MainWindow, points) -> None:
    if points is not None:
        font = QFont(window.font())
        font.setPointSize(points)
        window.review_panel.setFont(font)
    reviewed_narrow(qtbot, window)
    figures = window.review_panel.page_figures
    lines = laid_out_lines(figures)
    assert len(lines) > len(figures.text().splitlines())  # the panel narrow enough that the figures wrap
    assert len(FIGURE.findall(QLabel.text(figures))) >= 10  # P, R, F1, the four classes' counts, overlap, …
    assert parted_figures(figures) == [], [QLabel.text(figures)[a:b] for a, b in lines]
    # What it says is the words as written, ordinary spaces and all
    assert figures.text().startswith("P 1.000   R 0.312   F1 0.476\n5 matched · 0 partial · 11 missed · 0 spurious")

