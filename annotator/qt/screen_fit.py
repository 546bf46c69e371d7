"""Sizes and places that fit the screen a window opens on: a window or dialog asks for the size it would like and
gets at most what the screen's available area (without panels and docks) holds, so that its buttons and its
status bar are never off-screen on a small, scaled or portrait screen. The geometry helpers take the area as a
rectangle, so that they can be tried on any screen size."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

# Logical px a fitted window leaves free in each direction: room for its title bar and frame, which a size
# asked for before the window is shown does not count, and a sliver of the desktop around it.
MARGIN = 48


@dataclass(frozen=True)
class Placement:
    """Where a window first opens: its normal (un-maximised) geometry, and whether it opens maximised."""

    geometry: QRect
    maximised: bool


def available_area(widget: QWidget) -> QRect:
    """The part of `widget`'s screen (the primary one before it is shown) that windows may take."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fitting_size(wanted: QSize, area: QRect) -> QSize:
    """`wanted`, made smaller where it does not fit in `area` with the margin."""
    return QSize(max(1, min(wanted.width(), area.width() - MARGIN)),
                 max(1, min(wanted.height(), area.height() - MARGIN)))


def holds(area: QRect, size: QSize) -> bool:
    """Whether a window of `size` fits in `area` (no margin: a least size, that the window cannot go below)."""
    return size.width() <= area.width() and size.height() <= area.height()


def kept_within(geometry: QRect, least: QSize, area: QRect) -> QRect:
    """`geometry` grown to `least`, moved back into `area` where that took it past an edge (`area` must hold
    `least`): Qt keeps a restored window on its screen at the size it was saved with, which the window's least
    size may then grow past the screen's edge."""
    size = geometry.size().expandedTo(least)
    left = max(area.left(), min(geometry.left(), area.left() + area.width() - size.width()))
    top = max(area.top(), min(geometry.top(), area.top() + area.height() - size.height()))
    return QRect(left, top, size.width(), size.height())


def resize_to_fit(widget: QWidget, width: int, height: int) -> None:
    """Give `widget` (a window or a dialog, before it is shown) the size `width` x `height`, or what of it its
    screen holds."""
    widget.resize(fitting_size(QSize(width, height), available_area(widget)))


def first_placement(wanted: QSize, area: QRect) -> Placement:
    """A window's first place in `area`: `wanted` centred when it fits with the margin; else maximised, with a
    normal geometry that fits (what un-maximising gives)."""
    size = fitting_size(wanted, area)
    geometry = QRect(0, 0, size.width(), size.height())
    geometry.moveCenter(area.center())
    return Placement(geometry, maximised=size != wanted)


# Qt's saveGeometry(): magic, version, frame and normal geometry (4 int32 each), screen number, then one byte
# for "maximised" (big-endian, QDataStream's default).
_GEOMETRY_HEAD = struct.Struct(">IHH4i4iiB")
_GEOMETRY_MAGIC = 0x1D9D0CB


def saved_normal_size(saved: bytes) -> QSize | None:
    """The un-maximised size kept in Qt's saved geometry `saved` (None when it is not Qt's)."""
    if len(saved) < _GEOMETRY_HEAD.size:
        return None
    fields = _GEOMETRY_HEAD.unpack_from(saved)
    left, top, right, bottom = fields[7:11]
    return QSize(right - left + 1, bottom - top + 1) if fields[0] == _GEOMETRY_MAGIC else None


def saved_maximised(saved: bytes) -> bool:
    """Whether Qt's saved geometry `saved` is a maximised window's: read apart from restoreGeometry, which
    refuses the whole of it when the screen's width changed much since (a 3440-px screen, then a 1280-px one)."""
    if len(saved) < _GEOMETRY_HEAD.size:
        return False
    fields = _GEOMETRY_HEAD.unpack_from(saved)
    return fields[0] == _GEOMETRY_MAGIC and fields[-1] != 0
