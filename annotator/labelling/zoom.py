"""Zooming the page view as a browser does: Ctrl+= / Ctrl+- / Ctrl+0 and Ctrl+wheel step through the same stops,
the window's status bar shows a zoom other than 100 %, and each project remembers its own (a page of huge cards
is labelled zoomed out, a page of small print zoomed in).

The page's records are drawn inside the page, so Chromium zooms their boxes with it and clicks stay on their
elements; the overlay's own parts (badges, borders, the hover tip) are scaled by the inverse, so that they keep
their size on screen (page_view.set_zoom).
"""

from __future__ import annotations

import bisect
import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QLabel

from ..settings import MAX_ZOOM, MIN_ZOOM

if TYPE_CHECKING:
    from .window_parts import LabellingWindow

WHEEL_STEP = 120  # one notch of a mouse wheel, in Qt's eighths of a degree
# Chromium's own stops, so the app zooms like the browser the user knows.
ZOOM_STOPS = (MIN_ZOOM, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, MAX_ZOOM)


def stepped_zoom(current: float, steps: int) -> float:
    """The stop `steps` stops away from `current` (negative: out), kept within the stops. A zoom between two
    stops moves first to the nearer stop in that direction."""
    if steps == 0:
        return current
    exact = next((i for i, stop in enumerate(ZOOM_STOPS) if abs(stop - current) < 1e-3), None)
    if exact is not None:
        index = exact + steps
    elif steps > 0:
        index = bisect.bisect_right(ZOOM_STOPS, current) + steps - 1
    else:
        index = bisect.bisect_left(ZOOM_STOPS, current) + steps
    return ZOOM_STOPS[max(0, min(len(ZOOM_STOPS) - 1, index))]


def zoom_words(factor: float) -> str:
    return f"zoom {round(factor * 100)} %"


class ZoomControl(QObject):
    """The window's zoom: its three actions (`do_zoom_in`, `do_zoom_out`, `do_zoom_reset`), Ctrl+wheel over the
    page, the status bar's word on it, and the project's remembered factor."""

    def __init__(self, window: LabellingWindow) -> None:
        super().__init__(window)  # type: ignore[arg-type]  (the window is a QObject)
        self.window = window
        self.label = QLabel()
        self.label.setToolTip("the page's zoom (Ctrl+0: back to 100 %)")
        self._watched: QObject | None = None
        self._wheel = 0  # wheel movement not yet turned into a step (a touchpad sends small ones)
        window.page_view.loaded.connect(lambda _ok: self._watch_wheel())

    @property
    def factor(self) -> float:
        return self.window.page_view.zoom

    def restore(self) -> None:
        """The zoom the project was left at (100 % for a project never zoomed)."""
        self._show(self.window.settings.zoom(self.window.project_key()))

    def do_zoom_in(self) -> None:
        self.zoom_to(stepped_zoom(self.factor, 1))

    def do_zoom_out(self) -> None:
        self.zoom_to(stepped_zoom(self.factor, -1))

    def do_zoom_reset(self) -> None:
        self.zoom_to(1.0)

    def zoom_to(self, factor: float, pointer: tuple[float, float] | None = None) -> None:
        """Zoom the page, keeping in place what the user looks at (`pointer`: where Ctrl+wheel turned), and
        remember the zoom for the project; the status bar says the new zoom."""
        if abs(factor - self.factor) < 1e-3:
            limit = " (the largest)" if factor >= MAX_ZOOM else " (the smallest)" if factor <= MIN_ZOOM else ""
            self.window.message(zoom_words(factor) + limit, 2500)
            return
        self._show(factor, keep_place=True, pointer=pointer)
        self.window.settings.remember_zoom(self.window.project_key(), factor)
        self.window.save_where_the_user_was()
        if abs(factor - 1.0) < 1e-3:  # the status bar's zoom word hides at 100 %: say it once
            self.window.message(zoom_words(factor), 2500)
        elif self.window.statusBar().currentMessage().startswith("zoom "):
            self.window.statusBar().clearMessage()  # an earlier zoom's word, now wrong beside the zoom shown

    def _show(self, factor: float, keep_place: bool = False, pointer: tuple[float, float] | None = None) -> None:
        self.window.page_view.set_zoom(factor, keep_place=keep_place, pointer=pointer)
        self.label.setText(zoom_words(factor))
        self.label.setVisible(abs(factor - 1.0) >= 1e-3)

    def _watch_wheel(self) -> None:
        """Ctrl+wheel over the page steps through the stops (Chromium's own wheel zoom would not be remembered).
        The view's input widget can change with each page, so it is looked up again after every load."""
        target = self.window.page_view.input_widget()
        if target is None or target is self._watched:
            return
        if self._watched is not None:
            with contextlib.suppress(RuntimeError):  # the old one is usually gone with its page
                self._watched.removeEventFilter(self)
        target.installEventFilter(self)
        self._watched = target

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if (event.type() == QEvent.Type.Wheel and isinstance(event, QWheelEvent)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self._wheel += event.angleDelta().y()
            while abs(self._wheel) >= WHEEL_STEP:
                step = 1 if self._wheel > 0 else -1
                self._wheel -= step * WHEEL_STEP
                where = event.position()
                self.zoom_to(stepped_zoom(self.factor, step), (where.x(), where.y()))
            return True
        return super().eventFilter(watched, event)
