"""Side panels as a share of the window's width: a splitter's panes get widths in proportion to the splitter's
width (within each pane's least and most), so that a panel takes neither a third of a small window nor a fixed
sliver of a wide one. Once the person drags a divider, their widths stay and the splitter's own rule (the
stretching pane takes what the window grows by) applies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QSplitter


@dataclass(frozen=True)
class Share:
    """A side pane's width: `fraction` of the whole, kept between `least` and `most` px. None: the pane that
    takes the rest."""

    fraction: float
    least: int
    most: int


def split_widths(total: int, shares: Sequence[Share | None], least: Sequence[int]) -> list[int]:
    """The panes' widths for `total` px of panes: each side pane its share, at least its `least` width (what
    its contents need) and its share's; the one without a share the rest (the splitter itself keeps that one
    at its least width, taking it from the others)."""
    sides = [0 if share is None else max(min(max(round(total * share.fraction), share.least), share.most), need)
             for share, need in zip(shares, least, strict=True)]
    rest = max(0, total - sum(sides))
    return [rest if share is None else side for share, side in zip(shares, sides, strict=True)]


class _FollowWidth(QObject):
    """Sets the splitter's widths from its width at each resize, until the person drags a divider."""

    def __init__(self, splitter: QSplitter, shares: Sequence[Share | None]) -> None:
        super().__init__(splitter)
        self.shares = tuple(shares)
        self.dragged = False
        splitter.splitterMoved.connect(self._on_drag)  # emitted for a person's drag, not for setSizes()
        splitter.installEventFilter(self)

    def _on_drag(self, _position: int, _index: int) -> None:
        self.dragged = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and not self.dragged and isinstance(watched, QSplitter):
            panes = [watched.widget(index) for index in range(watched.count())]
            room = watched.width() - watched.handleWidth() * (len(panes) - 1)
            watched.setSizes(split_widths(room, self.shares, [pane.minimumSizeHint().width() for pane in panes]))
        return False


def split_in_proportion(splitter: QSplitter, shares: Sequence[Share | None]) -> QSplitter:
    """`splitter`, whose panes (one `Share` or None each, left to right) take their share of its width whenever
    it is resized, until the person drags one of its dividers."""
    _FollowWidth(splitter, shares)
    return splitter
