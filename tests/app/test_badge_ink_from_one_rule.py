"""A badge's number is white or black, whichever reads better on the badge's colour: one rule, in
annotator/qt/contrast.py (`ink_on`), which the app's widgets use and whose choice the page's overlay is given. The
overlay had a copy of the rule of its own in JavaScript (resources/js/overlay.js), which judged only colours
written as #rgb or #rrggbb and drew white on any other (a named colour: "gold", white on it reading at 1.4:1).

The badges are drawn by overlay.js as shipped, in every colour the app draws records in and in colours written
otherwise; the number's colour each was drawn in is read back from the page and compared with `ink_on`'s."""

from __future__ import annotations

import json
import re

import pytest
from PySide6.QtGui import QColor

from recordlens.annotator.labelling import page_view as page_view_module
from recordlens.annotator.labelling.page_view import PALETTE, STATE_COLOURS, PageView
from recordlens.annotator.qt.contrast import READABLE, contrast, ink_on
from tests.app.demo_project import CARD, DEMO

pytestmark = pytest.mark.app

# The app's colours, then colours the old JavaScript copy could not read (named; three-digit hex it did read)
COLOURS = (*PALETTE, *STATE_COLOURS.values(), "gold", "yellow", "lightgreen", "navy", "#ff0")
CARDS = 16  # on the demo grid's page


def css_colour(value: str) -> QColor:
    """A computed CSS colour ("rgb(23, 190, 207)"), opaque."""
    channels = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", value)
    assert channels is not None and channels.group(4) in (None, "1"), value
    return QColor(*(int(channels.group(k)) for k in (1, 2, 3)))


def _element(k: int) -> str:
    """An element of the demo grid for record `k`: a card of its 16, then a card's title."""
    return CARD.format(k + 1) if k < CARDS else f"{CARD.format(k - CARDS + 1)}/h3[1]"


def test_the_overlay_draws_each_badge_s_number_in_the_app_s_choice(page_view: PageView,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Each record in a colour of COLOURS, by its index: as if the app's palette held them all
    monkeypatch.setattr(page_view_module, "record_colour", lambda index, state=None: COLOURS[index])
    page_view.open(DEMO / "html" / "1.html")
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([{"xpaths": [_element(k)], "colour_index": k, "label": str(k + 1)}
                            for k in range(len(COLOURS))])
    page_view.wait_until_drawn(30_000)
    badges = json.loads(page_view.offline.run_js("__recordlens.overlay.badgeColours()"))
    assert len(badges) == len(COLOURS) and all(badges), badges
    drawn = {colour: css_colour(badge["ink"]).name() for colour, badge in zip(COLOURS, badges, strict=True)}
    chosen = {colour: ink_on(colour).name() for colour in COLOURS}
    assert drawn == chosen  # the page and the app: one choice for each colour
    assert all(css_colour(badge["fill"]) == QColor(colour) for colour, badge in zip(COLOURS, badges, strict=True))
    readings = {colour: round(contrast(ink_on(colour), QColor(colour)), 2) for colour in COLOURS}
    assert all(ratio >= READABLE for ratio in readings.values()), readings
    page_view.show_records([])
    page_view.wait_until_drawn(30_000)


@pytest.mark.parametrize(("fill", "ink"), [("#ffffff", "#000000"), ("#000000", "#ffffff"), ("#bcbd22", "#000000"),
                                           ("#3949ab", "#ffffff"), ("gold", "#000000"), ("navy", "#ffffff")])
def test_ink_on_picks_the_one_that_reads_better(fill: str, ink: str) -> None:
    assert ink_on(fill).name() == ink
    assert ink_on(QColor(fill)).name() == ink
