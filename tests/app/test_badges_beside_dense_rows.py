"""Badges on a dense list (a verifier's finding on a synthetic page, 65_v1): rows that touch each other and start
at the page's left edge, a date line above them, the page wider than the view. Every badge used to go on its own
record's first letters, the first one on the date; zoomed out, into the next rows' boxes.

A badge covers no record's text (its own included), no other record's box and no other badge, stays inside the
view across, keeps off the page's other text where it can, and is left out where no spot is free (shown while its
record is selected). Placement is the same every time the same records are drawn, and scrolling down the page does
not move a badge.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from tests.app.page_helpers import js, text_line_boxes
from tests.conftest import SHARED_DATA, require_shared

pytestmark = pytest.mark.app

ROWS = 30
FULL_ROW = 12  # its text fills the row: no room for a badge anywhere

_ROW = ("<tr><td style='width:220px;padding:0;vertical-align:top'><a href='#r{k}'>Will box lead result community "
        "do a affect partner - discuss rise without third {k}</a></td><td style='padding:0 0 0 8px'>"
        "samuelfreeman{k}@example.com</td></tr>")
# One line across the whole row, justified to its ends: a row without a free spot.
_FULL = ("<tr><td colspan='2' style='padding:0;text-align:justify;text-align-last:justify;white-space:nowrap'>"
         "Every word of this row stands side by side across its whole width</td></tr>")
PAGE = ("<!doctype html><html><head><meta charset='utf-8'><title>Dense</title></head>"
        "<body style='margin:0;font:16px/1.2 serif'><p style='margin:0'>Fri, Oct 29</p>"
        "<table style='border-collapse:collapse;width:1500px'>"
        + "".join(_FULL if k == FULL_ROW else _ROW.format(k=k) for k in range(1, ROWS + 1))
        + "</table><div style='height:40px'>the page's end</div>"
        "</body></html>")
RECORDS = [[f"/body[1]/table[1]/tbody[1]/tr[{k}]"] for k in range(1, ROWS + 1)]
DATE = "/body[1]/p[1]"


def overlap(a, b) -> bool:
    """Two boxes (x, y, w, h) share more than half a pixel each way."""
    return (a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5
            and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5)


def badges(view: PageView) -> list[dict | None]:
    return json.loads(view.offline.run_js("__recordlens.overlay.badgeRects()"))


def boxes(view: PageView, records) -> list[list[float]]:
    return js(view, f"""{json.dumps(records)}.map(([x]) => {{
        const r = __recordlens.resolve(x).getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.width, r.height];
    }})""")


@pytest.fixture
def dense(page_view: PageView, tmp_path: Path) -> PageView:
    path = tmp_path / "dense.html"
    path.write_text(PAGE, encoding="utf-8")
    page_view.open(path)
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([{"xpaths": r, "colour_index": i} for i, r in enumerate(RECORDS)])
    page_view.wait_until_drawn()
    return page_view


def test_on_a_dense_list_no_badge_covers_any_text_or_another_rows_box(dense):
    view = dense
    drawn = badges(view)
    rows = boxes(view, RECORDS)
    texts = text_line_boxes(view, RECORDS)
    date = text_line_boxes(view, [[DATE]])[0]
    shown = [(i, b["rect"]) for i, b in enumerate(drawn) if b]
    on_text = [(i, j) for i, r in shown for j, lines in enumerate(texts) if any(overlap(r, t) for t in lines)]
    assert not on_text, on_text[:5]  # (badge, record): its own first letters, before
    # Every row has its badge but the one its text fills: that one is left out.
    assert len(shown) == ROWS - 1 and drawn[FULL_ROW - 1] is None, [i for i, b in enumerate(drawn) if b is None]
    astray = [(i, j) for i, r in shown for j, row in enumerate(rows) if j != i and overlap(r, row)]
    assert not astray, astray[:5]  # (badge, record)
    assert not [i for i, r in shown if any(overlap(r, t) for t in date)]  # badge 1 sat on the date
    view_x = js(view, "[scrollX, scrollX + document.documentElement.clientWidth]")
    assert all(view_x[0] <= r[0] and r[0] + r[2] <= view_x[1] + 0.01 for _, r in shown)
    crossing = [(i, j) for i, a in shown for j, b in shown if i < j and overlap(a, b)]
    assert not crossing, crossing
    # Each badge is inside its own row: read as that row's.
    assert all(overlap(r, rows[i]) for i, r in shown)


def test_a_badge_without_room_shows_while_its_record_is_selected(dense):
    view = dense
    view.select_record(FULL_ROW - 1)
    spin(100)
    chosen = badges(view)[FULL_ROW - 1]
    assert chosen is not None and chosen["label"] == str(FULL_ROW)
    view.select_record(None)
    spin(100)
    assert badges(view)[FULL_ROW - 1] is None


def test_badges_go_to_the_same_spots_every_time_and_stay_as_the_page_scrolls_down(dense):
    view = dense
    first = badges(view)
    view.show_records([{"xpaths": r, "colour_index": i} for i, r in enumerate(RECORDS)])
    view.wait_until_drawn()
    assert badges(view) == first
    view.scroll_to_y(200)
    for _ in range(100):
        if view.scroll_y == 200:
            break
        spin(20)
    view.settled_image()
    assert view.scroll_y == 200 and badges(view) == first


MORE = SHARED_DATA / "nexteval-synth-more"


def test_a_page_of_hundreds_of_records_gets_its_badges_at_once(page_view):
    more = require_shared(MORE)
    records = json.loads((more / "gt" / "30.json").read_text(encoding="utf-8"))
    assert len(records) > 400
    page_view.open(more / "html" / "30.html")
    assert page_view.wait_until_loaded(60_000)
    spec = [{"xpaths": r, "colour_index": i} for i, r in enumerate(records)]
    started = time.monotonic()
    page_view.show_records(spec)
    page_view.wait_until_drawn(60_000)
    assert time.monotonic() - started < 10  # some 0.3 s here; generous for a busy machine
    first = badges(page_view)
    assert sum(1 for b in first if b) >= len(records) * 0.9
    # One record judged: the others are drawn again where they were.
    spec[5]["label"] = "6 ✗"
    started = time.monotonic()
    page_view.show_records(spec)
    page_view.wait_until_drawn(60_000)
    assert time.monotonic() - started < 5
    again = badges(page_view)
    spec[5]["label"] = "6"
    page_view.show_records(spec)
    page_view.wait_until_drawn(60_000)
    assert badges(page_view) == first
    assert sum(1 for a, b in zip(first, again, strict=True) if a != b) <= 3
