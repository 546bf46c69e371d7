"""Text colours readable on the background they are drawn on: a colour chosen on white (the page's boxes) is
made lighter on a dark palette's base, or darker on a light one, until it reads at WCAG's 4.5:1 for text (a
graphic that tells something, as a record's coloured dot, at WCAG's 3:1 for graphics: `GRAPHICS`). The
app's warning text is red in this way (`keep_as_warning`, `warning_style`), whatever the theme. Text on a colour
that must stay as it is (a record's badge, on the page and in the app) is white or black (`ink_on`): the page's
overlay is given that choice, and makes none of its own.

What is drawn in a colour of its own follows a theme switched while it is on screen (`when_the_palette_changes`):
a label in a colour (`keep_readable`), a rich text's coloured spans (`show_readable`), and a view's cells whose text
has a colour or whose row is tinted (`ink_cell`, `tint_cell`: a tint is a pastel chosen on white, laid on the theme's
base as it lies on white, `tinted`).

What watches a palette holds no Qt object of its own (`when_the_palette_changes`): what it draws is its parent in
Qt, handed to it when the palette changes. A watch that held its label and the label's window (in a closure) made a
reference cycle through them; Python's collector freeing a closed settings dialog in that cycle crashed the process
(PySide let go of a label Qt deleted only later: PySide counts a form's row, `QFormLayout.addRow`, as the
layout's, Qt as the dialog's). Without the cycle a window let go is freed at once, and the collector finds nothing
of it."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import TypeVar, cast

from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QEvent, QModelIndex, QObject, QSignalBlocker, Qt
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import QAbstractItemView, QLabel, QWidget

READABLE = 4.5  # WCAG 2's least contrast ratio for body text
GRAPHICS = 3.0  # WCAG 2's least contrast ratio for the parts of a graphic needed to understand it (1.4.11)
WARNING_RED = "#b00020"  # a warning's text on a light background; lighter on a dark one (about 1.6:1 there as is)
# What a view's cell asks for, kept with it so that it is worked out again for another theme: its text's colour and
# its row's tint, each as chosen on white (far from the roles a view's own data takes, from UserRole on).
INK_ROLE = Qt.ItemDataRole.UserRole + 0x4C00
TINT_ROLE = Qt.ItemDataRole.UserRole + 0x4C01
Drawn = TypeVar("Drawn", bound=QObject)  # what a palette's watch draws again, handed to what it calls


def _luminance(colour: QColor) -> float:
    """WCAG's relative luminance of `colour`."""
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def contrast(first: QColor, second: QColor) -> float:
    """WCAG's contrast ratio of two colours, 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def ink_on(fill: str | QColor) -> QColor:
    """White or black, whichever reads better on `fill`: the number on a record's badge, which keeps its record's
    colour so that the colours stay as far apart as they are. White reads at only 2 to 3.4:1 on the palette's
    light colours (#bcbd22, #17becf, #ff7f0e), under the 4.5:1 small text needs; of white and black one always
    reads at 4.58:1 or more. The overlay draws a badge's number in the colour this gives (`PageView` sends it
    with each record), rather than judging the colour again in its script: a colour named other than by #rgb or
    #rrggbb (gold, yellow) was white there whatever it read at. No widget of the app draws text on a record colour
    yet; one that does takes its ink from here."""
    white, black = QColor("#ffffff"), QColor("#000000")
    return white if contrast(white, QColor(fill)) >= contrast(black, QColor(fill)) else black


def readable_on(colour: str | QColor, base: QColor, ratio: float = READABLE) -> QColor:
    """`colour`, or the nearest of its lighter (on a dark `base`) or darker (on a light one) shades of the same
    hue that reads on `base` at `ratio` (`READABLE` for text). The last shade each way is white or black, and the
    side is chosen so that it reads (on a base of luminance below 0.18 white reaches 4.56:1 at least, above it
    black 4.6:1)."""
    shade = QColor(colour)
    towards_white = _luminance(base) < 0.18  # darker than mid-grey: contrast lies with the lighter shades
    hue, saturation, lightness, alpha = shade.getHslF()
    last = 1.0 if towards_white else 0.0  # black on a dark base starts at the other end: it must get lighter
    while contrast(shade, base) < ratio and lightness != last:
        lightness = min(1.0, lightness + 0.02) if towards_white else max(0.0, lightness - 0.02)
        shade = QColor.fromHslF(hue, saturation, lightness, alpha)
    return shade


def readable_on_rows(colour: str | QColor, palette: QPalette, ratio: float = READABLE) -> QColor:
    """`colour` in the shade that reads at `ratio` (`READABLE` for text) on a list's rows in `palette`: on its base,
    and on its alternate base too (every other row of a list with alternating row colours, a little darker on a
    light theme). Both lie on the same side of mid-grey in any usable theme, so the second step only goes on in
    the first's way."""
    on_base = readable_on(colour, palette.color(QPalette.ColorRole.Base), ratio)
    return readable_on(on_base, palette.color(QPalette.ColorRole.AlternateBase), ratio)


def tinted(pastel: str | QColor, base: QColor) -> QColor:
    """A row's tint on `base`, for a tint chosen as the pastel `pastel` on white. The pastel is read as a thin wash
    of its own full colour over white (its lowest channel says how thin), and the same wash is laid over `base`:
    on white the pastel itself, on a dark theme's rows a dark row of the same hue, where the theme's light text
    reads (on the pastel itself it read at about 1.1:1)."""
    tint = QColor(pastel)
    white_left = min(tint.red(), tint.green(), tint.blue()) / 255  # how much of what lies under the wash shows

    def laid(channel: int, below: int) -> int:
        return max(0, round(channel - white_left * (255 - below)))

    return QColor(laid(tint.red(), base.red()), laid(tint.green(), base.green()), laid(tint.blue(), base.blue()))


def readable_style(background: QWidget, colour: str | QColor, *, bold: bool = False) -> str:
    """The style sheet of text in `colour` drawn on `background` (a window, a dialog, a panel: not the styled label
    itself, whose palette a style sheet fixes): `colour` in the shade that reads on it."""
    shade = readable_on(colour, background.palette().color(QPalette.ColorRole.Window)).name()
    return f"color: {shade}" + ("; font-weight: bold" if bold else "")


def warning_style(background: QWidget, *, bold: bool = False) -> str:
    """The style sheet of warning text drawn on `background` (`readable_style`): the warning red in the shade that
    reads on it."""
    return readable_style(background, WARNING_RED, bold=bold)


def keep_as_warning(label: QWidget, *, bold: bool = False) -> None:
    """Show `label`'s text as a warning on its parent's background (`warning_style`), now and whenever that
    background's palette changes: the theme switched while it is on screen. `label` is in its parent already."""
    keep_readable(label, WARNING_RED, bold=bold)


def keep_readable(label: QWidget, colour: str | QColor, *, bold: bool = False) -> None:
    """Show `label`'s text in `colour` (chosen on white) on its parent's background (`readable_style`), now and
    whenever that background's palette changes. The label's own palette, once a style sheet is set, no longer
    follows the theme: its parent's is watched. `label` is in its parent already."""
    restyle = partial(_restyle, colour=QColor(colour).name(), bold=bold)
    restyle(label)
    when_the_palette_changes(label.parentWidget() or label, restyle, owner=label)


def _restyle(label: QObject, *, colour: str, bold: bool) -> None:
    """`label`'s style sheet: `colour` in the shade that reads on its parent's background (`keep_readable`)."""
    shown = cast(QWidget, label)
    sheet = readable_style(shown.parentWidget() or shown, colour, bold=bold)
    if shown.styleSheet() != sheet:
        shown.setStyleSheet(sheet)


def when_the_palette_changes(widget: QWidget, redo: Callable[[Drawn], None], *, owner: Drawn | None = None) -> None:
    """`redo(owner)` whenever `widget`'s palette changes: the theme switched while it is on screen (Qt hands the
    change on to each widget without a style sheet of its own). `owner` (the widget itself unless given) is what
    `redo` draws: the watch is its child, so that it goes when what it draws goes, and `redo` is handed it. `redo`
    holds no Qt object itself (not a widget's bound method, nor a closure or partial over one): that would make
    the reference cycle through Qt objects which crashed the collector (see the module's words); refused."""
    if _holds_a_qt_object(redo):
        raise ValueError(f"{redo!r} holds a Qt object: watching with it would make a reference cycle through Qt "
                         "objects, for Python's collector to free (which crashed); it is handed what it draws")
    _PaletteWatch(owner or widget, widget, redo)


def _holds_a_qt_object(function: Callable[..., object]) -> bool:
    """Whether `function` holds a Qt object: as a bound method's object, a partial's argument, a closure's or a
    default's value."""
    held: list[object] = []
    while isinstance(function, partial):
        held += [*function.args, *function.keywords.values()]
        function = function.func
    held.append(getattr(function, "__self__", None))
    held += getattr(function, "__defaults__", None) or ()
    held += (getattr(function, "__kwdefaults__", None) or {}).values()
    for cell in getattr(function, "__closure__", None) or ():
        try:
            held.append(cell.cell_contents)
        except ValueError:  # a cell not filled yet
            continue
    return any(isinstance(thing, QObject) for thing in held)


class _PaletteWatch(QObject):
    """Calls its `redo` with its parent, what it draws, when the palette of the widget it watches changes; it holds
    no Qt object of its own (`when_the_palette_changes`)."""

    def __init__(self, owner: QObject, watched: QWidget, redo: Callable[[QObject], None]) -> None:
        super().__init__(owner)
        self._redo = redo
        watched.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.PaletteChange and (owner := self.parent()) is not None:
            self._redo(owner)
        return False


# A colour in a style attribute of rich text (not a background's): user text put in markup is escaped, so that no
# quote of its own can open one.
_STYLE = re.compile(r"""(\bstyle\s*=\s*)(['"])(.*?)\2""", re.DOTALL)
_COLOUR = re.compile(r"(?<![\w-])(color\s*:\s*)(#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b)")


def readable_markup(markup: str, background: QColor, ratio: float = READABLE) -> str:
    """Rich text `markup` with each colour its style attributes give its text (chosen on white) in the shade that
    reads on `background` at `ratio`."""
    def shaded(colour: re.Match[str]) -> str:
        return colour[1] + readable_on(colour[2], background, ratio).name()

    return _STYLE.sub(lambda style: style[1] + style[2] + _COLOUR.sub(shaded, style[3]) + style[2], markup)


def show_readable(label: QLabel, markup: str) -> None:
    """Show rich text `markup` in `label`, each of its coloured spans in the shade that reads on the label's
    background (`readable_markup`), now and whenever the label's palette changes, until the label is given a text
    or a picture otherwise (which is left as it is)."""
    shown = label.findChild(_ReadableMarkup, options=Qt.FindChildOption.FindDirectChildrenOnly)
    (shown or _ReadableMarkup(label)).show(markup)


class _ReadableMarkup(QObject):
    """A label's rich text as written, to shade its colours again for another theme. The label is its parent, and
    only that: it holds no Qt object (`when_the_palette_changes`)."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        self._markup = self._drawn = ""
        when_the_palette_changes(label, _ReadableMarkup._again, owner=self)

    def show(self, markup: str) -> None:
        label = cast(QLabel, self.parent())
        self._markup = markup
        self._drawn = readable_markup(markup, label.palette().color(label.backgroundRole()))
        label.setText(self._drawn)

    def _again(self) -> None:
        if self._drawn and cast(QLabel, self.parent()).text() == self._drawn:  # no text or picture of its own since
            self.show(self._markup)


def ink_cell(view: QAbstractItemView, index: QModelIndex, colour: str | QColor | None) -> None:
    """The text of `view`'s cell at `index` in `colour` (chosen on white; None: the theme's text colour), in the
    shade that reads on what the cell is drawn on (its row's tint, else the view's rows), now and for each theme
    switched to while it is on screen."""
    _ask(view, index, INK_ROLE, QColor(colour).name() if colour is not None else None)


def tint_cell(view: QAbstractItemView, index: QModelIndex, pastel: str | QColor | None) -> None:
    """`view`'s cell at `index` tinted as `pastel` tints white (`tinted` on the view's base; None: not tinted), its
    text in the shade that reads on the tint, now and for each theme switched to while it is on screen."""
    _ask(view, index, TINT_ROLE, QColor(pastel).name() if pastel is not None else None)


def _ask(view: QAbstractItemView, index: QModelIndex, role: int, wish: str | None) -> None:
    """Keep `wish` with the cell, and draw the cell as its wishes say."""
    if view.findChild(_CellsRedrawn, options=Qt.FindChildOption.FindDirectChildrenOnly) is None:
        _CellsRedrawn(view)
    with QSignalBlocker(view):  # a colour is no edit of the cell: a table that checks its rows on each would again
        _set(view.model(), index, role, wish)
        _draw_cell(view, index)


def _draw_cell(view: QAbstractItemView, index: QModelIndex) -> None:
    """The cell's background and text colour for the view's palette now, as its wishes say; set only where they
    differ (each set repaints)."""
    palette = view.palette()
    ink, tint = index.data(INK_ROLE), index.data(TINT_ROLE)
    background = tinted(tint, palette.color(QPalette.ColorRole.Base)) if tint else None
    if background is not None:
        text = readable_on(ink or palette.color(QPalette.ColorRole.Text), background)
    else:
        text = readable_on_rows(ink, palette) if ink else None
    _set(view.model(), index, Qt.ItemDataRole.BackgroundRole, QBrush(background) if background else QBrush())
    _set(view.model(), index, Qt.ItemDataRole.ForegroundRole, QBrush(text) if text else QBrush())


def _set(model: QAbstractItemModel, index: QModelIndex, role: int, value: object) -> None:
    """`value` as the cell's `role`, unless it is that already (no brush, or an empty wish, is as good as none)."""
    now = model.data(index, role)
    unset = value is None or (isinstance(value, QBrush) and value.style() == Qt.BrushStyle.NoBrush)
    if now == value or (now is None and unset):
        return
    model.setData(index, value, role)


class _CellsRedrawn(QObject):
    """Draws its view's cells that ask for a colour again when the view's palette changes. The view is its parent
    (so it lives as long), and only that: it holds no Qt object (`when_the_palette_changes`)."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        when_the_palette_changes(view, _CellsRedrawn._redraw, owner=self)

    def _redraw(self) -> None:
        view = cast(QAbstractItemView, self.parent())
        with QSignalBlocker(view):  # as `_ask` holds them
            for index in _cells(view.model()):
                if index.data(INK_ROLE) or index.data(TINT_ROLE):
                    _draw_cell(view, index)


def _cells(model: QAbstractItemModel) -> list[QModelIndex]:
    """Every cell of `model`, a tree's children too."""
    found, parents = [], [QModelIndex()]
    while parents:
        parent = parents.pop()
        for row in range(model.rowCount(parent)):
            found.extend(model.index(row, column, parent) for column in range(_columns(model, parent)))
            parents.append(model.index(row, 0, parent))  # a tree's row may hold rows (a list's, a table's none)
    return found


def _columns(model: QAbstractItemModel, parent: QModelIndex) -> int:
    """How many columns `model` has below `parent`: a list's one (a list's model keeps the count to itself, as it
    keeps `hasChildren`)."""
    return 1 if isinstance(model, QAbstractListModel) else model.columnCount(parent)
