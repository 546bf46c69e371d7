"""The Review tab's legend shows each class's dot (and the kept disagreements') before its toggle's words. The dots
were drawn in the page's colours as they are, chosen on white: on a dark theme's window the matched green showed at
about 2.4:1, under WCAG's 3:1 for a graphic that tells something, and a theme switched while the app runs left them
as they were. Each dot is now its class's colour in the shade that shows on the panel's background at 3:1, its hue
kept (the classes still told apart), and drawn again when the theme switches under it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QAbstractButton

from recordlens.annotator.labelling.page_view import STATE_COLOURS
from recordlens.annotator.labelling.review_panel import KEPT, KEPT_COLOUR, ReviewPanel
from recordlens.annotator.qt.contrast import GRAPHICS, contrast
from tests.app.themes import DARK, LIGHT, Theme, switch_to, theme_put_back

pytestmark = pytest.mark.app

HUE_KEPT = 3  # degrees a shade's hue may stray from its colour's, whole bytes for its channels
HUES_APART = 30  # degrees between any two classes' hues: told apart as on the page


@pytest.fixture(params=[(LIGHT, DARK), (DARK, LIGHT)], ids=["light to dark", "dark to light"])
def switched(request, qtbot) -> Iterator[tuple[ReviewPanel, Theme, dict[str, str]]]:
    """The review panel on screen in one theme, then that switched to the other while it is shown: the panel, the
    theme it is in now, and its legend's dots as they were in the first; the session's palette back after."""
    first, then = request.param
    with theme_put_back():
        switch_to(first)
        shown = ReviewPanel()
        qtbot.addWidget(shown)
        shown.offer_keep("ann")  # the kept toggle shown, as while an annotator's labels are under review
        shown.resize(420, 700)
        shown.show()
        qtbot.waitExposed(shown)
        before = {name: dot(toggle).name() for name, toggle in toggles(shown).items()}
        switch_to(then)
        yield shown, then, before


def toggles(review: ReviewPanel) -> dict[str, QAbstractButton]:
    """The legend's toggles, by what they show: each class's, and the kept disagreements'."""
    return {**review.kind_toggles, KEPT: review.kept_toggle}


def dot(toggle: QAbstractButton) -> QColor:
    """The colour the toggle's dot is filled with: its middle pixel."""
    image = toggle.icon().pixmap(14, 14).toImage()
    return image.pixelColor(image.width() // 2, image.height() // 2)


def hue_apart(first: int, second: int) -> int:
    """Degrees between two hues, round the circle."""
    apart = abs(first - second) % 360
    return min(apart, 360 - apart)


def test_each_dot_shows_on_the_panel_after_the_theme_switched(switched) -> None:
    review, colours, _ = switched
    for name, toggle in toggles(review).items():
        background = toggle.palette().color(QPalette.ColorRole.Window)
        assert background == QColor(colours[3]), name  # the theme's window: the toggle followed it
        filled = dot(toggle)
        assert contrast(filled, background) >= GRAPHICS, (name, filled.name(), background.name())


def test_each_dot_keeps_its_hue_and_the_classes_stay_apart(switched) -> None:
    review, _, _ = switched
    page = {**STATE_COLOURS, KEPT: KEPT_COLOUR}
    hues = {}
    for name, toggle in toggles(review).items():
        hues[name] = dot(toggle).hslHue()
        assert hue_apart(hues[name], QColor(page[name]).hslHue()) <= HUE_KEPT, (name, dot(toggle).name(), page[name])
    classes = [hues[kind] for kind in review.kind_toggles]
    assert all(hue_apart(a, b) >= HUES_APART for k, a in enumerate(classes) for b in classes[k + 1:]), hues


def test_the_dots_are_drawn_again_for_the_theme_switched_to(switched) -> None:
    review, _, before = switched
    now = {name: dot(toggle).name() for name, toggle in toggles(review).items()}
    assert now != before  # the shades of the first theme did not stay
