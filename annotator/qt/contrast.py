"""Text colours readable on the background they are drawn on: a colour chosen on white (the page's boxes) is
made lighter on a dark palette's base, or darker on a light one, until it reads at WCAG's 4.5:1 for text (a
graphic that tells something, as a record's coloured dot, at WCAG's 3:1 for graphics: `GRAPHICS`). The
app's warning text is red in this way (`keep_as_warning`, `warning_style`), whatever the theme. Text on a colour
that must stay as it is (a record's badge, on the page and in the app) is white or black (`ink_on`): the page's
overlay is given that choice, and makes none of its own."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

READABLE = 4.5  # WCAG 2's least contrast ratio for body text
GRAPHICS = 3.0  # WCAG 2's least contrast ratio for the parts of a graphic needed to understand it (1.4.11)
WARNING_RED = "#b00020"  # a warning's text on a light background; lighter on a dark one (about 1.6:1 there as is)


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


def warning_style(background: QWidget, *, bold: bool = False) -> str:
    """The style sheet of warning text drawn on `background` (a window, a dialog, a panel: not the styled label
    itself, whose palette a style sheet fixes): the warning red in the shade that reads on it."""
    red = readable_on(WARNING_RED, background.palette().color(QPalette.ColorRole.Window)).name()
    return f"color: {red}" + ("; font-weight: bold" if bold else "")


def keep_as_warning(label: QWidget, *, bold: bool = False) -> None:
    """Show `label`'s text as a warning on its parent's background (`warning_style`), now and whenever that
    background's palette changes: the theme switched while it is on screen. `label` is in its parent already."""
    _WarningColour(label, bold=bold)


class _WarningColour(QObject):
    """Recolours its label (its parent, so it lives as long) when the palette of the widget it is drawn on
    changes: the label's own palette, once a style sheet is set, no longer follows the theme."""

    def __init__(self, label: QWidget, *, bold: bool) -> None:
        super().__init__(label)
        self._label, self._bold = label, bold
        self._background = label.parentWidget() or label
        self._background.installEventFilter(self)
        self._colour()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.PaletteChange:
            self._colour()
        return False

    def _colour(self) -> None:
        style = warning_style(self._background, bold=self._bold)
        if self._label.styleSheet() != style:
            self._label.setStyleSheet(style)
