"""Side panels as a share of the window's width: a splitter's panes get widths in proportion to the splitter's
width (within each pane's least and most), so that a panel takes neither a third of a small window nor a fixed
sliver of a wide one. Once the person drags a divider, their widths stay and the splitter's own rule (the
stretching pane takes what the window grows by) applies. The widths dragged to (`dragged_widths`) can be kept
for the next start, where they become the panes' shares (`follow_dragged_widths`): the same widths in a window
of the same size, and their share of another (on another screen), within each pane's least width."""

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


def shares_of_widths(widths: Sequence[int], shares: Sequence[Share | None]) -> list[Share | None] | None:
    """The shares that give panes of `shares` the `widths` (px, left to right) a person dragged them to, in a
    splitter as wide as they were then, and their part of another width: each side pane the fraction of the whole
    it had. Its bounds stay its share's, widened to take in the dragged width: in a narrower window it gives way
    down to its share's least (or to its dragged width, when that is less), in a wider one it grows up to its
    share's most (or stays at its dragged width, when that is more). None when `widths` cannot be these panes'
    (another number of them, a width of 0 or less): a value kept by another version of the app, or damaged."""
    if len(widths) != len(shares) or min(widths, default=0) <= 0:
        return None
    total = sum(widths)
    return [None if share is None else Share(width / total, least=min(share.least, width), most=max(share.most, width))
            for share, width in zip(shares, widths, strict=True)]


class _FollowWidth(QObject):
    """Sets the splitter's widths from its width at each resize, until the person drags a divider."""

    def __init__(self, splitter: QSplitter, shares: Sequence[Share | None]) -> None:
        super().__init__(splitter)
        self.first_shares = self.shares = tuple(shares)
        self.dragged = False
        splitter.splitterMoved.connect(self._on_drag)  # emitted for a person's drag, not for setSizes()
        splitter.installEventFilter(self)

    def _on_drag(self, _position: int, _index: int) -> None:
        self.dragged = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and not self.dragged and isinstance(watched, QSplitter):
            self.follow(watched)
        return False

    def follow(self, splitter: QSplitter) -> None:
        """The panes' widths from the splitter's width now (its panes' least widths first)."""
        panes = [splitter.widget(index) for index in range(splitter.count())]
        room = splitter.width() - splitter.handleWidth() * (len(panes) - 1)
        splitter.setSizes(split_widths(room, self.shares, [pane.minimumSizeHint().width() for pane in panes]))


def split_in_proportion(splitter: QSplitter, shares: Sequence[Share | None]) -> QSplitter:
    """`splitter`, whose panes (one `Share` or None each, left to right) take their share of its width whenever
    it is resized, until the person drags one of its dividers."""
    _FollowWidth(splitter, shares)
    return splitter


def dragged_widths(splitter: QSplitter) -> list[int] | None:
    """The widths of the panes of `splitter` (made by `split_in_proportion`), left to right, once the person has
    dragged one of its dividers; None before (their shares set them)."""
    follower = splitter.findChild(_FollowWidth)
    return splitter.sizes() if follower is not None and follower.dragged else None


def follow_dragged_widths(splitter: QSplitter, widths: Sequence[int]) -> bool:
    """The panes of `splitter` (made by `split_in_proportion`) take the `widths` a person dragged them to (at an
    earlier start) as their shares (`shares_of_widths` of the shares it was made with), until the person drags a
    divider again. False, and the shares as they were, when `widths` cannot be these panes'."""
    follower = splitter.findChild(_FollowWidth)
    shares = None if follower is None else shares_of_widths(widths, follower.first_shares)
    if follower is None or shares is None:
        return False
    follower.shares = tuple(shares)
    if not follower.dragged:  # at once; and again at each resize (a window not shown yet is resized when it is)
        follower.follow(splitter)
    return True
