"""A record's coloured dot in the record list is what ties its row to its box on the page: a graphic that must show
at WCAG's 3:1 against its row (1.4.11). On a dark theme's rows (#323232) the palette's indigo, brown and blue
showed at 1.66, 1.69 and 2.66:1. Each dot is now in the shade of its colour that shows on the rows of the theme
(lighter on a dark one, darker on a light one), its hue kept; one that shows already is left as it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette

from recordlens.annotator.labelling.page_view import PALETTE
from recordlens.annotator.labelling.record_panel import RecordPanel, RecordRow
from recordlens.annotator.qt.contrast import GRAPHICS, contrast
from tests.app.themes import theme

pytestmark = pytest.mark.app

DARK = ("#323232", "#2b2b2b", "#e0e0e0")  # the verifier's dark theme's rows, every other one a little darker
LIGHT = ("#ffffff", "#f7f7f7", "#000000")


def rows() -> list[RecordRow]:
    """A record in each colour of the palette."""
    return [RecordRow(10 + k, k + 1, colour, "accepted", f"item {k + 1}", 1, 1, "mdr", False)
            for k, colour in enumerate(PALETTE)]


def dot(panel: RecordPanel, row: int) -> QColor:
    """The colour the row's dot is filled with: its middle pixel."""
    image = panel.list.item(row).icon().pixmap(14, 14).toImage()
    return image.pixelColor(image.width() // 2, image.height() // 2)


@pytest.fixture(params=[DARK, LIGHT], ids=["dark", "light"])
def themed(request, qapp) -> Iterator[tuple[str, str, str]]:
    """The application in a theme's palette while the test runs, as a theme chosen before the app starts; the
    palette before it after."""
    before = QPalette(qapp.palette())
    qapp.setPalette(theme(*request.param))
    yield request.param
    qapp.setPalette(before)


def test_every_dot_shows_on_the_rows_of_the_theme_in_its_own_hue(qtbot, themed) -> None:
    panel = RecordPanel()
    qtbot.addWidget(panel)
    panel.set_rows(rows(), [])
    panel.show()
    qtbot.waitExposed(panel)
    palette = panel.list.palette()
    assert palette.color(QPalette.ColorRole.Base) == QColor(themed[0])  # the rows are the theme's
    shown = {}
    for index, colour in enumerate(PALETTE):
        filled, own = dot(panel, index), QColor(colour)
        shown[colour] = filled.name()
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
            assert contrast(filled, palette.color(role)) >= GRAPHICS, (themed, colour, filled.name())
        assert abs(filled.hslHue() - own.hslHue()) <= 2 or own.hslSaturation() < 10, (colour, filled.name())
        if all(contrast(own, palette.color(role)) >= GRAPHICS
               for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase)):
            assert filled == own, (colour, filled.name())  # one that shows already is its own colour
    assert len(set(shown.values())) == len(PALETTE), shown  # still twelve colours
