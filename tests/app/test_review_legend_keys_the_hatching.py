"""The Review tab's legend says what each colour is (a class's toggle, its dot and its name), but not what the
hatching is that marks a missed record on the page, the mark that tells it apart whatever its colour looks like
to its reader (matched and missed come close under protanopia). Its key is in the legend now, under missed: a
hatched swatch before its words, named by its words as the toggles are, the swatch showing on a dark theme too."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QAbstractButton, QGridLayout, QLabel

from recordlens.annotator.labelling.page_view import STATE_COLOURS
from recordlens.annotator.labelling.review_panel import ReviewPanel
from recordlens.annotator.qt.contrast import GRAPHICS, contrast
from recordlens.core.records import MISSED
from tests.app.test_every_control_has_a_spoken_name import spoken_name
from tests.app.themes import DARK, LIGHT, Theme, switch_to, theme_put_back

pytestmark = pytest.mark.app


@pytest.fixture(params=[LIGHT, DARK], ids=["light", "dark"])
def panel(request, qtbot) -> Iterator[tuple[ReviewPanel, Theme]]:
    """The review panel on screen in a theme (switched to once it is there); the session's palette back after."""
    with theme_put_back():
        switch_to(LIGHT)
        shown = ReviewPanel()
        qtbot.addWidget(shown)
        shown.resize(420, 700)
        shown.show()
        qtbot.waitExposed(shown)
        switch_to(request.param)
        yield shown, request.param


def test_the_legend_names_the_hatching_under_missed_as_it_names_the_classes(panel) -> None:
    review, _ = panel
    key = review.hatch_key
    grid = key.parentWidget().layout()
    assert isinstance(grid, QGridLayout) and key.isVisible()
    missed = review.kind_toggles[MISSED]
    assert grid.indexOf(missed) >= 0  # one legend
    below = grid.getItemPosition(grid.indexOf(missed))
    assert grid.getItemPosition(grid.indexOf(key))[:2] == (below[0] + 1, below[1])
    entries = [*review.kind_toggles.values(), key]
    for entry in entries:  # each named by the words it shows
        assert isinstance(entry, QAbstractButton | QLabel)
        assert spoken_name(entry) == entry.text(), entry.text()
    assert "hatched" in spoken_name(key) and MISSED in spoken_name(key)
    assert "hatched" in key.toolTip() and MISSED in key.toolTip()


def swatch(review: ReviewPanel) -> tuple[QImage, QColor]:
    """The key's swatch as drawn, and the background it is drawn on (between it and the words)."""
    key = review.hatch_key
    image = key.grab().toImage()
    area = key.swatch()
    assert key.rect().contains(area)  # drawn whole
    background = image.pixelColor(area.right() + key.GAP // 2, area.center().y())
    return image.copy(area), background


def test_the_legend_shows_a_hatched_swatch_that_shows_on_the_theme(panel) -> None:
    review, colours = panel
    image, background = swatch(review)
    assert background == QColor(colours[3])  # the theme's window: the panel followed it
    inside = [(x, y) for y in range(2, image.height() - 2) for x in range(1, image.width() - 2)]
    drawn = {image.pixelColor(x, y).name() for x, y in inside} - {background.name()}
    assert len(drawn) == 1, drawn  # stripes of one colour on the background
    stripe = QColor(drawn.pop())
    assert contrast(stripe, background) >= GRAPHICS, (stripe.name(), background.name())
    assert abs(stripe.hslHue() - QColor(STATE_COLOURS[MISSED]).hslHue()) <= 2  # the missed colour's
    striped = sum(image.pixelColor(x, y) == stripe for x, y in inside)
    assert 0.25 * len(inside) < striped < 0.6 * len(inside)  # hatched: neither empty nor filled
    # Rising to the right: each pixel as the one up and to the right of it, as the page's missed record is hatched
    assert all(image.pixelColor(x, y) == image.pixelColor(x + 1, y - 1) for x, y in inside), "not hatched"
