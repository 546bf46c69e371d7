"""A record's state shows on the page itself, not by its colour (verifier's report v38, findings 1 and 2):

- labelling: a proposed record, still to be decided, is boxed dashed, its badge "4 ?", where a decided one
  (accepted, edited) is boxed solid under its number alone; the dashes are in the record's colour and its ink, so
  that the line shows on a light page and on a dark one; the colour still follows the record;
- review: a missed true record is drawn dashed and hatched, a matched one solid and filled plain: they differ for a
  reader who cannot tell green from orange (under protanopia their colours come within a ΔE of 15).

Before: every record was boxed alike whatever its state (main_window.redraw sent none), and review told matched
from missed by colour alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from recordlens.annotator.labelling.page_view import PALETTE, STATE_COLOURS, PageView
from recordlens.annotator.qt.contrast import contrast, ink_on
from recordlens.core.store import Provenance
from tests.app.window_helpers import imported_project, key, window_on_page

pytestmark = pytest.mark.app

ROWS = len(PALETTE)
# Two columns of empty blocks of whole pixels, room around each for its badge: proposed left, accepted right.
GRID = ("<!doctype html><html><head><style>html,body{{margin:0;background:{bg}}}"
        "main{{display:grid;grid-template-columns:300px 300px;gap:24px 80px;padding:24px 60px}}"
        "div{{height:30px}}</style></head><body><main>" + "<div></div><div></div>" * ROWS + "</main></body></html>")
BLOCK = "/body[1]/main[1]/div[{}]"


def box_styles(view: PageView) -> list[dict | None]:
    return json.loads(view.offline.run_js("__recordlens.overlay.boxStyles()"))


def badge_labels(view: PageView) -> list[str | None]:
    return [b and b["label"] for b in json.loads(view.offline.run_js("__recordlens.overlay.badgeColours()"))]


def near(pixel: QColor, colour: QColor) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel.getRgb()[:3], colour.getRgb()[:3], strict=True)) <= 40


def top_edge(image: QImage, rect: tuple[float, ...]) -> list[QColor]:
    """The pixels along the top border of a box (a row inside its 2 px border), its corners left out."""
    x, y, w, _ = (round(v) for v in rect)
    return [image.pixelColor(px, y + 1) for px in range(x + 12, x + w - 12)]


@pytest.mark.parametrize("background", ["#ffffff", "#121212"])
def test_a_proposed_record_is_dashed_in_its_colour_and_its_ink_on_a_light_page_and_a_dark_one(
        page_view: PageView, tmp_path: Path, background: str):
    page = tmp_path / "grid.html"
    page.write_text(GRID.format(bg=background), encoding="utf-8")
    page_view.open(page)
    assert page_view.wait_until_loaded(30_000)
    records = []
    for k in range(ROWS):  # each colour twice: proposed on the left, accepted on the right
        records.append({"xpaths": [BLOCK.format(2 * k + 1)], "colour_index": k, "state": "proposed",
                        "label": f"{k + 1} ?"})
        records.append({"xpaths": [BLOCK.format(2 * k + 2)], "colour_index": k, "state": "accepted",
                        "label": str(k + 1)})
    page_view.show_records(records)
    page_view.wait_until_drawn(30_000)
    image = page_view.settled_image()
    page_colour = QColor(background)
    boxes = page_view.boxes()
    for k, colour in enumerate(PALETTE):
        colour_, ink = QColor(colour), ink_on(colour)
        proposed, accepted = (top_edge(image, boxes[2 * k + j][0].rect) for j in (0, 1))
        # Decided: one solid line in the record's colour.
        assert all(near(p, colour_) for p in accepted), (colour, "accepted", {p.name() for p in accepted})
        # Proposed: dashes of the colour with gaps of the ink, each a good part of the line, not a solid line.
        in_colour = sum(near(p, colour_) for p in proposed) / len(proposed)
        in_ink = sum(near(p, ink) for p in proposed) / len(proposed)
        assert in_colour > 0.35 and in_ink > 0.2, (colour, background, in_colour, in_ink)
        changes = sum(near(a, colour_) != near(b, colour_) for a, b in zip(proposed, proposed[1:], strict=False))
        assert changes >= 20, (colour, changes)  # dashes all along the line
        # Whatever the page's background, part of the line stands out from it (the colour's or the ink's part).
        assert max(contrast(p, page_colour) for p in proposed) >= 3.0, (colour, background)
    page_view.show_records([])
    page_view.wait_until_drawn(30_000)


CARDS = "".join(f"<div class='card'><h3>{t}</h3></div>" for t in ("One", "Two", "Three", "Four"))
PAGE = ("<!doctype html><html><head><style>.card{height:90px;margin:0 0 30px 40px;width:420px}h3{margin:0}"
        "</style></head><body>" + CARDS + "</body></html>")
CARD = "/body[1]/div[{}]"


def test_the_window_draws_each_record_by_its_status_and_a_decision_redraws_it(qtbot, tmp_path):
    with window_on_page(qtbot, tmp_path, PAGE, [[CARD.format(1)]]) as window:
        proposer = Provenance.extractor("test", "1")
        window.project.add_record("1", [CARD.format(2)], proposer, status="proposed")
        third = window.project.add_record("1", [CARD.format(3) + "/h3[1]"], proposer, status="proposed")
        window.project.edit(third.record.id, [CARD.format(3)], Provenance.person("tester"))
        window.project.add_record("1", [CARD.format(4)], proposer, status="proposed")
        window.reload_labels([])
        window.page_view.wait_until_drawn()
        assert [label.status for label in window.labels] == ["accepted", "proposed", "edited", "proposed"]
        # The page draws the undecided apart: under "n ?", dashed; the decided under their number, solid.
        assert badge_labels(window.page_view) == ["1", "2 ?", "3", "4 ?"]
        styles = box_styles(window.page_view)
        assert [(s.get("state"), s["border"], s.get("dashes")) for s in styles] == [
            ("accepted", "solid", False), ("proposed", "dashed", True), ("edited", "solid", False),
            ("proposed", "dashed", True)], styles
        # The status is what reaches the page.
        assert [r["state"] for r in window.page_view._records] == ["accepted", "proposed", "edited", "proposed"]
        # The colour still follows the record, whatever its state.
        assert [r["colour"] for r in window.page_view._records] == [PALETTE[label.id % len(PALETTE)]
                                                                    for label in window.labels]
        # A decision redraws the record it decided: accepted, record 2 is solid under its number.
        window.select_records([window.labels[1].id])
        key(window, "A")
        qtbot.waitUntil(lambda: window.labels[1].status == "accepted", timeout=10_000)
        window.page_view.wait_until_drawn()
        styles = box_styles(window.page_view)
        assert (styles[1]["state"], styles[1]["border"], styles[1]["dashes"]) == ("accepted", "solid", False)
        assert badge_labels(window.page_view)[1] == "2"


@pytest.fixture
def review_project(tmp_path: Path) -> Path:
    return imported_project(tmp_path, {"html/1.html": PAGE, "gt/1.json": json.dumps([[CARD.format(1)],
                                                                                        [CARD.format(2)]])})


def luminance_spread(image: QImage, rect: tuple[float, ...]) -> int:
    """How far apart in lightness the pixels of a row inside a box's lower part are (its fill, below its text)."""
    x, y, w, h = (round(v) for v in rect)
    row = [image.pixelColor(px, y + h - 12).lightness() for px in range(x + 12, x + w - 12)]
    return max(row) - min(row)


def test_review_draws_a_missed_record_apart_from_a_matched_one_by_more_than_its_colour(qtbot, tmp_path,
                                                                                         review_project):
    from tests.app.window_helpers import open_window

    window = open_window(review_project, tmp_path / "settings.json", qtbot=qtbot)
    try:
        run = window.project.runs.add("handmade")
        window.project.runs.add_predictions(run, {"1": [[CARD.format(1)]]})
        window.project.runs.finish(run)
        window.start_review(run)
        window.page_view.wait_until_drawn()
        drawn = window.page_view._records
        assert [(r["label"], r["colour"]) for r in drawn] == [("T1", STATE_COLOURS["matched"]),
                                                             ("T2", STATE_COLOURS["missed"])]
        # On the screen: the missed record's fill is striped light and dark, the matched one's even, which a
        # reader sees whatever hues the two colours look like to them.
        image = window.page_view.settled_image()
        matched, missed = (window.page_view.boxes()[k][0].rect for k in (0, 1))
        assert luminance_spread(image, matched) <= 4
        assert luminance_spread(image, missed) >= 25
        # As drawn: the missed one dashed (in its colour and its ink) and hatched, the matched one solid and plain.
        styles = box_styles(window.page_view)
        assert [(s["state"], s["border"], s["dashes"], s["hatched"]) for s in styles] == [
            ("matched", "solid", False, False), ("missed", "dashed", True, True)], styles
    finally:
        window.close()
