"""Rows of a list whose lines each read in their own direction, cut at their logical end.

Qt lays out a row's lines as one paragraph: a page named in Hebrew turned the counts line under it around
("4      proposed"), and a record's Arabic text, wider than the list, was shown from its middle with its first
words out of sight. Here each line is laid out alone, in the list's direction, and cut ("…") where it ends in
reading order; the words from a page or a person inside a line are `isolated`, so they read in their own direction
without turning the app's marks and numbers around them. Rows are as wide as the list: a line too long is cut, not
scrolled to.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPalette, QTextLayout, QTextOption
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

FIRST_STRONG_ISOLATE, POP_ISOLATE = "\u2068", "\u2069"
LINE_SEPARATOR = "\u2028"
FALLBACK_ROOM = 2  # px a row with a taller fallback font needs beyond Qt's estimate (measured: 2 is enough)

Index = QModelIndex | QPersistentModelIndex


LINE_BREAK_SHOWN = "↵"
# What breaks a line of a row (Qt's delegate and `LinesInTheirOwnDirection` split the item's text there), "\r\n" first
# so that it is one break, not two.
_LINE_BREAKS = ("\r\n", "\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", LINE_SEPARATOR, "\u2029")


def isolated(text: str) -> str:
    """`text` as a run of its own direction (Unicode's first-strong isolate), so that a right-to-left name reads
    right to left and leaves the marks, numbers and words around it where they are; on the one line it is put in,
    its line breaks shown as "↵" (a record's <pre> text broke its row: its later lines stood under it, outside its
    indent, like rows of their own)."""
    for line_break in _LINE_BREAKS:
        text = text.replace(line_break, LINE_BREAK_SHOWN)
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_ISOLATE}" if text else text


# The width a line is measured at: wider than any row, so that nothing wraps nor is cut.
MEASURING_WIDTH = 1e6


def _laid_out(text: str, option: QStyleOptionViewItem, width: float = MEASURING_WIDTH) -> QTextLayout:
    """One line, alone (no direction carried over from the line above), in the list's direction, aligned to the
    list's leading side of a line `width` wide: a row's width where it is painted (a right-to-left list aligns it
    right, so at the measuring width its text would be drawn a million pixels to the right of the row)."""
    layout = QTextLayout(text, option.font)
    text_option = QTextOption()
    text_option.setTextDirection(option.direction)
    text_option.setAlignment(QStyle.visualAlignment(option.direction, Qt.AlignmentFlag.AlignLeft))
    text_option.setWrapMode(QTextOption.WrapMode.NoWrap)
    layout.setTextOption(text_option)
    layout.beginLayout()
    line = layout.createLine()
    line.setLineWidth(width)
    layout.endLayout()
    return layout


def _height(layout: QTextLayout) -> float:
    """The height of a layout's one line (the layout is held here: a QTextLine outliving it crashes)."""
    return layout.lineAt(0).height()


class LinesInTheirOwnDirection(QStyledItemDelegate):
    """Draws an item's text ("\\n" between its lines) a line at a time; the rest of the row (background,
    selection, icon, focus) is the style's as before."""

    def _text_rect(self, option: QStyleOptionViewItem) -> QRect:
        widget = option.widget
        style = widget.style() if widget else QApplication.style()
        rect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1  # as the style does
        return rect.adjusted(margin, 0, -margin, 0)

    def shown_lines(self, option: QStyleOptionViewItem, index: Index) -> list[str]:
        """The item's lines as the row shows them: each cut at its logical end ("…") to the row's width."""
        return self._cut_lines(self._item_option(option, index))

    def _item_option(self, option: QStyleOptionViewItem, index: Index) -> QStyleOptionViewItem:
        """`option` with the item's text, font, colours and state in it (a copy: the view's is left alone)."""
        full = QStyleOptionViewItem(option)
        self.initStyleOption(full, index)
        return full

    def _cut_lines(self, full: QStyleOptionViewItem) -> list[str]:
        """The lines of `full` (an item's option) cut at their logical end to the row's width."""
        width = self._text_rect(full).width()
        metrics = QFontMetricsF(full.font)
        lines = full.text.replace(LINE_SEPARATOR, "\n").split("\n")  # the delegate's display text has Qt's separator
        return [metrics.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in lines]

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        full = self._item_option(option, index)
        area = self._text_rect(full)
        lines = [_laid_out(text, full, area.width()) for text in self._cut_lines(full)]
        bare = QStyleOptionViewItem(full)
        bare.text = ""
        widget = full.widget
        style = widget.style() if widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, bare, painter, widget)
        painter.save()
        painter.setPen(full.palette.color(_colour_group(full), QPalette.ColorRole.HighlightedText
                                          if full.state & QStyle.StateFlag.State_Selected else QPalette.ColorRole.Text))
        painter.setClipRect(area)
        y = area.top() + (area.height() - sum(_height(layout) for layout in lines)) / 2
        for layout in lines:
            layout.draw(painter, QPointF(area.left(), y))
            y += _height(layout)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802 (Qt override)
        """As tall as the style says, and a few pixels more where a fallback font makes a line taller (a title in
        CJK brackets: without them the row's second line, its counts, is cut off); no wider than the list, whose
        width the lines are cut to."""
        size = super().sizeHint(option, index)
        lines = str(index.data(Qt.ItemDataRole.DisplayRole) or "").split("\n")
        laid = sum(_height(_laid_out(text, option)) for text in lines)
        taller = laid > len(lines) * QFontMetricsF(option.font).lineSpacing() + 0.5
        return QSize(1, size.height() + (FALLBACK_ROOM if taller else 0))


def _colour_group(option: QStyleOptionViewItem) -> QPalette.ColorGroup:
    """The palette's group the style paints the row's text in: disabled, inactive (window not active), normal."""
    if not option.state & QStyle.StateFlag.State_Enabled:
        return QPalette.ColorGroup.Disabled
    return QPalette.ColorGroup.Normal if option.state & QStyle.StateFlag.State_Active else QPalette.ColorGroup.Inactive
