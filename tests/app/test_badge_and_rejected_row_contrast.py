"""Badge numbers and rejected rows read at WCAG's 4.5:1 for small text (verifier's finding: white 11 px digits on
the palette's light colours read at 2.0 to 3.4:1, rejected rows were #999999 on white, 2.85:1).

The badges are drawn by overlay.js as shipped, in every colour the app draws records in (its twelve palette
colours and review's four state colours); what the page computed for each badge's number and fill is read back and
measured with the app's own contrast (annotator/qt/contrast.py)."""

from __future__ import annotations

import json
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette

from recordlens.annotator.labelling.page_view import PALETTE, STATE_COLOURS, PageView
from recordlens.annotator.labelling.record_panel import STATUS_MARKS, RecordPanel, RecordRow
from recordlens.annotator.qt.contrast import READABLE, contrast
from recordlens.core.store import REJECTED
from tests.app.demo_project import CARD, DEMO
from tests.app.themes import theme

pytestmark = pytest.mark.app

EVERY_COLOUR = (*PALETTE, *STATE_COLOURS.values())


def css_colour(value: str) -> QColor:
    """A computed CSS colour ("rgb(23, 190, 207)"), opaque: a badge is filled in full."""
    channels = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", value)
    assert channels is not None and channels.group(4) in (None, "1"), value
    return QColor(*(int(channels.group(k)) for k in (1, 2, 3)))


def test_every_badge_s_number_reads_on_its_colour(page_view: PageView):
    page_view.open(DEMO / "html" / "1.html")
    assert page_view.wait_until_loaded(30_000)
    states = list(STATE_COLOURS)
    # One record per colour, on the demo page's cards: the palette's by colour index, then review's by state.
    records = [{"xpaths": [CARD.format(k + 1)], "colour_index": k, "label": str(k + 1)} for k in range(len(PALETTE))]
    records += [{"xpaths": [CARD.format(len(PALETTE) + k + 1)], "state": state, "label": f"{k + 1} ✗"}
                for k, state in enumerate(states)]
    page_view.show_records(records)
    page_view.wait_until_drawn(30_000)
    badges = json.loads(page_view.offline.run_js("__recordlens.overlay.badgeColours()"))
    assert len(badges) == len(EVERY_COLOUR) and all(badges), badges
    readings = {}
    for colour, badge in zip(EVERY_COLOUR, badges, strict=True):
        fill, ink = css_colour(badge["fill"]), css_colour(badge["ink"])
        assert fill == QColor(colour), (colour, badge)  # the record's own colour: the colours stay apart
        assert ink in (QColor("#ffffff"), QColor("#000000")), badge
        readings[colour] = round(contrast(ink, fill), 2)
    assert all(ratio >= READABLE for ratio in readings.values()), readings
    page_view.show_records([])
    page_view.wait_until_drawn(30_000)


def rows() -> list[RecordRow]:
    return [RecordRow(10 + k, k + 1, PALETTE[k], status, f"item {k + 1}", 1, 1, "mdr", False)
            for k, status in enumerate(("accepted", REJECTED, "proposed", REJECTED))]


@pytest.mark.parametrize("colours", [None, ("#1e1e1e", "#2a2a2a", "#e0e0e0"), ("#f6f5f4", "#e8e6e3", "#2e3436")],
                         ids=["default", "dark", "light grey"])
def test_rejected_rows_read_on_every_row_of_the_list_and_stay_marked(qtbot, colours):
    panel = RecordPanel()
    qtbot.addWidget(panel)  # closed after the test
    panel.set_rows(rows(), [])
    if colours is not None:  # the theme switched with the rows on show: they follow it
        panel.setPalette(theme(*colours))
    panel.show()
    qtbot.waitExposed(panel)
    palette = panel.list.palette()
    text = palette.color(QPalette.ColorRole.Text)
    for index, row in enumerate(rows()):
        item = panel.list.item(index)
        if row.status != REJECTED:
            assert item.foreground().style() == Qt.BrushStyle.NoBrush  # the theme's text colour
            continue
        grey = item.foreground().color()
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):  # every other row is the other
            assert contrast(grey, palette.color(role)) >= READABLE, (colours, grey.name(), role)
        assert grey != text and grey.hsvSaturation() == 0  # still grey, not the text of a live record
        assert f"  {STATUS_MARKS[REJECTED]}  " in item.text() and f"· {REJECTED}" in item.text()
