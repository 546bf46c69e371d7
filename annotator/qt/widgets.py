"""Small builders for what the windows put together the same way: a push button wired to what it does, a
column of parts without margins, panes side by side in a splitter, a non-modal window with a Close button, a
coloured dot for a row or a toggle, and a toggle's dot that shows on its background whatever the theme."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QLayout,
    QLineEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import Shiboken

from .contrast import GRAPHICS, readable_on

Part = QWidget | QLayout | tuple[QWidget, int]  # a (widget, stretch) pair takes that share of the room left


@cache  # one icon per colour, not one per row each time a list is refilled
def colour_dot(colour: str) -> QIcon:
    """A small filled circle in `colour`."""
    pixmap = QPixmap(14, 14)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(colour))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(1, 1, 12, 12)
    painter.end()
    return QIcon(pixmap)


def dot_that_shows(toggle: QAbstractButton, colour: str) -> None:
    """`toggle`'s icon a dot of `colour` in the shade of its hue that shows on the background the toggle is drawn on
    (its palette's window) at WCAG's 3:1 for graphics, now and whenever that palette changes: the theme switched
    while it is on screen. A legend's dot in a page colour as it is, chosen on white, showed at 2.4 to 2.9:1 on a
    dark window (the review's matched green) or a light one (its kept grey)."""
    _DotThatShows(toggle, colour)


class _DotThatShows(QObject):
    """Draws its toggle's dot (the toggle is its parent, so it lives as long) again when the toggle's palette
    changes; a toggle without a style sheet of its own takes its window's palette, the theme's."""

    def __init__(self, toggle: QAbstractButton, colour: str) -> None:
        super().__init__(toggle)
        self._colour = colour  # and no Qt object: the toggle is found through Qt (contrast.when_the_palette_changes)
        toggle.installEventFilter(self)
        self._draw(toggle)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.PaletteChange and isinstance(watched, QAbstractButton):
            self._draw(watched)
        return False

    def _draw(self, toggle: QAbstractButton) -> None:
        background = toggle.palette().color(QPalette.ColorRole.Window)
        toggle.setIcon(colour_dot(readable_on(self._colour, background, GRAPHICS).name()))


def button(text: str, on_click: Callable[[], object]) -> QPushButton:
    """A push button that calls `on_click()`: without the `checked` flag Qt's signal carries, which a slot with
    an optional first parameter would otherwise take for it (Review candidates… got False for its path)."""
    made = QPushButton(text)
    made.clicked.connect(lambda: on_click())
    return made


def column(*parts: Part) -> QWidget:
    """A widget holding `parts` top to bottom, without margins; a (widget, stretch) pair takes that share of
    the height left over."""
    holder = QWidget()
    layout = _stacked(QVBoxLayout(holder), parts)
    layout.setContentsMargins(0, 0, 0, 0)
    return holder


def _stacked(layout: QVBoxLayout, parts: Sequence[Part]) -> QVBoxLayout:
    """`layout` with `parts` added top to bottom; a (widget, stretch) pair takes that share of the height."""
    for part in parts:
        if isinstance(part, QLayout):
            layout.addLayout(part)
        elif isinstance(part, tuple):
            layout.addWidget(*part)
        else:
            layout.addWidget(part)
    return layout


def side_by_side(*panes: QWidget, sizes: Sequence[int], stretch: int) -> QSplitter:
    """`panes` left to right in a splitter, `sizes` pixels wide at first; the pane at index `stretch` takes
    what the window grows by."""
    splitter = QSplitter()
    splitter.setChildrenCollapsible(False)  # a pane dragged small stops at its least width, never vanishes
    for pane in panes:
        splitter.addWidget(pane)
    splitter.setStretchFactor(stretch, 1)
    splitter.setSizes(list(sizes))
    return splitter


# The frame is there at rest too, unseen: Qt sizes a list's frame by the state it is styled in, so a frame
# under :focus alone would be 2 px or the native 1 px as the list last had the keys or not, and its rows move.
FOCUS_STYLE = ("{kind} {{ border: 2px solid transparent; }} "
               "{kind}:focus {{ border-color: palette(highlight); }}")


def show_focus(*views: QWidget) -> None:
    """A frame in the highlight colour around each of `views` while it has the keys: without it a keyboard user
    cannot tell which list Up and Down will move in. Only its colour changes: no row moves."""
    for view in views:
        # Qt's own class: a style sheet's selector does not know Python subclasses by name.
        kind = next(c.__name__ for c in type(view).__mro__ if c.__module__.startswith("PySide6"))
        view.setStyleSheet(FOCUS_STYLE.format(kind=kind))
        _StyledAgainWithTheTheme(view)


class _StyledAgainWithTheTheme(QObject):
    """Styles its view (its parent, so it lives as long) again when the palette of the widget holding it changes:
    the theme switched while the app runs. Qt hands a palette change on only to the children that have no style
    sheet, so a framed list, its scroll bars and the highlight of its frame kept the theme it was first styled in
    (white rows in a dark window, and the record list's dots and greys worked out for them). Its sheet taken off
    and put back, the list takes the palette it is in now, and its own PaletteChange tells what draws its rows in
    colours of their own (`RecordPanel`, `ReviewPanel`). The holder is the view's parent, followed as it is put in
    a layout: the framed lists are made before they are laid out."""

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)  # and no Qt object held: view and holder are found through Qt (see _DotThatShows)
        view.installEventFilter(self)
        if view.parentWidget() is not None:
            view.parentWidget().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        view, kind = self.parent(), event.type()
        if not isinstance(view, QWidget):
            return False
        if watched is view and kind == QEvent.Type.ParentChange and view.parentWidget() is not None:
            view.parentWidget().installEventFilter(self)  # (an earlier holder's changes are let pass, below)
        elif kind == QEvent.Type.ApplicationPaletteChange or (watched is view.parentWidget()
                                                               and kind == QEvent.Type.PaletteChange):
            sheet = view.styleSheet()
            view.setStyleSheet("")  # unstyled, it takes its holder's palette, its scroll bars as well
            view.setStyleSheet(sheet)
        return False


def searchable(field: QLineEdit, name: str, clear: str) -> None:
    """A search field with a clear button, each named for a screen reader (`name`; the button `clear`, which is
    also its tooltip): Qt's clear button says nothing of itself."""
    field.setClearButtonEnabled(True)
    field.setAccessibleName(name)
    for action in field.findChildren(QAction):  # the ⓧ button's action (Qt names it _q_qlineeditclearaction)
        action.setText(clear)
        action.setToolTip(clear)


def closable_window(dialog: QDialog, *parts: Part, actions: Sequence[QPushButton] = (),
                    default: QPushButton | None = None) -> QDialogButtonBox:
    """Lay `parts` out top to bottom in `dialog` above a Close button (and `actions` beside it), and let the
    rest of the app stay usable while it is open: a window to read beside the work, not a question to answer.
    With `actions`, Enter presses `default` (the first action unless named; none while it is disabled) wherever
    the keys are but on another button, and Tab goes from the parts to the actions, then to Close (`_keys_to`)."""
    layout = _stacked(QVBoxLayout(dialog), parts)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    for action in actions:
        buttons.addButton(action, QDialogButtonBox.ButtonRole.ActionRole)
    buttons.rejected.connect(dialog.reject)
    layout.addWidget(buttons)
    if actions:
        _keys_to(buttons.button(QDialogButtonBox.StandardButton.Close), actions, default or actions[0])
    dialog.setWindowModality(Qt.WindowModality.NonModal)
    return buttons


def _keys_to(close: QPushButton, actions: Sequence[QPushButton], default: QPushButton) -> None:
    """Enter does `default`, not Close: Close, made first, came first in the tab order, and a dialog shown without a
    default button makes the first button in that order its default, so Enter on a list's chosen row shut the
    window and dropped the choice. The default set here (once the buttons are in the dialog, whose default it is)
    is never replaced; Close stays pressed by Enter with the keys on it (a button's own Enter), and by Esc."""
    default.setDefault(True)
    for before, after in zip([*actions], [*actions[1:], close], strict=True):
        QWidget.setTabOrder(before, after)  # `after` moved to just after `before`: the parts come first still


def web_input_widget(view: QWidget | None) -> QWidget | None:
    """The widget that takes a web view's keys, clicks and wheel (its focus proxy), Chromium's, made anew as pages
    load; None for no view, or one already deleted. Found among the view's children: `focusProxy()` leaves each one's
    Python widget held by the view's for as long as the view lives (PySide's rule for a returned object), one dead
    widget per page loaded."""
    if view is None or not Shiboken.isValid(view):
        return None
    return next((child for child in reversed(view.children()) if isinstance(child, QWidget)), None)
