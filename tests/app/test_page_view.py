"""The page view: real clicks report the core's XPath, records get boxes, HTML and MHTML behave alike.

Clicks are real mouse events sent to the widget QWebEngineView forwards input to (its focus proxy), so they go
through Chromium's hit testing and the injected capture-phase listener, and reach Python over the web channel.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.page_view import PALETTE, STATE_COLOURS, PageView, record_colour
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.demo_project import CARDS, DEMO
from tests.app.page_helpers import click_element, js, turn_wheel, viewport_point

pytestmark = pytest.mark.app

DEMO_PAGE = DEMO / "html" / "1.html"
DEMO_GT = DEMO / "gt" / "1.json"

SINGLE_LINE_LINK = f"{CARDS}/div[3]/h3[1]/a[1]"  # "Cast-Iron Skillet 26 cm" fits on one line
PRICE = f"{CARDS}/div[1]/div[1]/span[1]"
SVG_CIRCLE = f"{CARDS}/div[1]/a[1]/svg[1]/circle[1]"
BELOW_THE_FOLD = f"{CARDS}/div[16]/div[1]/span[1]"




@pytest.fixture(scope="module")
def demo_mhtml(tmp_path_factory) -> Path:
    html = DEMO_PAGE.read_text(encoding="utf-8")
    return write_mhtml(tmp_path_factory.mktemp("mhtml") / "1.mhtml", html, url="https://shop.example.com/kitchen")


def open_page(view: PageView, path: Path) -> None:
    view.open(path)
    assert view.wait_until_loaded(30_000), f"{path} did not load"








def a_click_reports_the_cores_xpath(qtbot, page_view: PageView, xpath: str) -> None:
    """A real click on the element at `xpath` reports the element the core resolves it to."""
    expected = page_view.core_page.resolve(xpath)
    assert expected is not None
    with qtbot.waitSignal(page_view.element_clicked, timeout=5_000) as clicked:
        click_element(page_view, xpath)
    assert clicked.args == [expected.key]


@pytest.mark.parametrize("xpath", [SINGLE_LINE_LINK, PRICE, SVG_CIRCLE, BELOW_THE_FOLD])
def test_a_real_click_reports_the_cores_xpath(qtbot, page_view, xpath):
    open_page(page_view, DEMO_PAGE)
    a_click_reports_the_cores_xpath(qtbot, page_view, xpath)


def test_a_link_click_does_not_navigate_while_annotating(qtbot, page_view):
    open_page(page_view, DEMO_PAGE)
    url = page_view.offline.page.url()
    with qtbot.waitSignal(page_view.element_clicked, timeout=5_000):
        click_element(page_view, SINGLE_LINE_LINK)
    spin(300)
    assert page_view.offline.page.url() == url
    assert not any("product/p1043" in u for u in page_view.offline.blocked_urls)


def test_alt_click_and_annotating_off_reach_the_page_unreported(qtbot, page_view):
    open_page(page_view, DEMO_PAGE)
    reported: list[str] = []
    page_view.element_clicked.connect(reported.append)
    try:
        # An Alt+click on the link is the page's: it tries to follow it, and the blocker stops the request.
        click_element(page_view, SINGLE_LINE_LINK, Qt.KeyboardModifier.AltModifier)
        qtbot.waitUntil(lambda: any("product/p1043" in u for u in page_view.offline.blocked_urls), timeout=5_000)
        open_page(page_view, DEMO_PAGE)
        page_view.set_annotating(False)
        click_element(page_view, PRICE)
        spin(300)
        assert reported == []
    finally:
        page_view.set_annotating(True)


def test_mhtml_opens_and_reports_the_same_xpaths(qtbot, page_view, demo_mhtml):
    open_page(page_view, demo_mhtml)
    assert page_view.offline.page.url().isLocalFile()
    assert page_view.core_page.resolve(SVG_CIRCLE) is not None
    with qtbot.waitSignal(page_view.element_clicked, timeout=5_000) as clicked:
        click_element(page_view, SVG_CIRCLE)
    assert clicked.args == [SVG_CIRCLE]


@pytest.mark.parametrize("kind", ["html", "mhtml"])
def test_every_ground_truth_record_gets_a_box(qtbot, page_view, demo_mhtml, kind):
    gt = json.loads(DEMO_GT.read_text(encoding="utf-8"))
    page_view.open(DEMO_PAGE if kind == "html" else demo_mhtml)
    # Given before the page has loaded: kept and drawn once it has.
    page_view.show_records([{"xpaths": r, "colour_index": i} for i, r in enumerate(gt)])
    with qtbot.waitSignal(page_view.overlays_drawn, timeout=30_000) as drawn:
        assert page_view.wait_until_loaded()
    assert drawn.args == [sum(len(r) for r in gt)]
    boxes = page_view.boxes()
    assert len(boxes) == len(gt)
    for record, located in zip(gt, boxes, strict=True):
        assert [b.xpath for b in located] == record
        for box in located:
            assert box.resolved and box.visible, box
            assert box.path == page_view.core_page.resolve(box.xpath).key
            assert box.rect[2] > 0 and box.rect[3] > 0


def test_unresolvable_xpaths_are_reported_not_drawn(page_view):
    open_page(page_view, DEMO_PAGE)
    page_view.show_records([{"xpaths": ["/body[1]/div[99]", "//div", "/body[1]/div[01]", f"/html{PRICE}"]}])
    summary = page_view.wait_until_drawn()
    assert (summary.records, summary.xpaths, summary.resolved, summary.boxes) == (1, 4, 1, 1)
    located = page_view.locate(["/body[1]/div[99]", "//div", "/body[1]/div[01]", f"/html{PRICE}", "/", ""])
    assert [b.resolved for b in located] == [False, False, False, True, True, True]
    assert [b.resolved for b in located] == [page_view.core_page.resolve(b.xpath) is not None for b in located]
    assert located[3].path == PRICE and located[4].path == "/"
    # A trailing "/" names the element's descendants, as the score reads it: drawn on that element, as the
    # core resolves it; a path ending "//" names nothing in either.
    ends = page_view.locate([f"{PRICE}/", f"{PRICE}//"])
    assert [b.resolved for b in ends] == [True, False]
    assert [b.resolved for b in ends] == [page_view.core_page.resolve(b.xpath) is not None for b in ends]


def test_selection_and_states_change_the_drawing(page_view):
    open_page(page_view, DEMO_PAGE)
    page_view.show_records([
        {"xpaths": [f"{CARDS}/div[1]"], "colour_index": 0, "state": "matched"},
        {"xpaths": [f"{CARDS}/div[2]"], "colour_index": 1, "label": "B"},
    ])
    page_view.wait_until_drawn()
    page_view.select_record(1)
    styles = js(page_view, """(() => {
        const host = document.querySelector("recordlens-overlay");
        return [host.parentElement === document.documentElement, getComputedStyle(host).pointerEvents];
    })()""")
    assert styles == [True, "none"]
    assert record_colour(0, "matched") == STATE_COLOURS["matched"]
    assert record_colour(13) == PALETTE[1]
    page_view.select_record(None)


def test_drawing_again_builds_only_the_records_that_changed_and_draws_the_same(page_view):
    open_page(page_view, DEMO_PAGE)

    def card(k: int, **more) -> dict:
        return {"xpaths": [f"{CARDS}/div[{k}]"], "colour_index": k, "label": str(k), **more}

    def badges() -> list:
        return [b and b["label"] for b in json.loads(page_view.offline.run_js("__recordlens.overlay.badgeRects()"))]

    page_view.show_records([card(k) for k in range(1, 6)])
    assert page_view.wait_until_drawn().built == 5
    card_3 = f"{CARDS}/div[3]"
    assert outline_colour(page_view.settled_image(), page_view, card_3) == (0xD6, 0x27, 0x28)  # PALETTE[3]
    # Only the selection changed (an accept that moves on): nothing is built again.
    page_view.show_records([card(k, selected=k == 2) for k in range(1, 6)])
    summary = page_view.wait_until_drawn()
    assert (summary.built, summary.records, summary.boxes) == (0, 5, 5)
    # One record gone (a reject): the others keep their boxes, and its box and badge are gone from the page.
    page_view.show_records([card(k) for k in (1, 2, 4, 5)])
    summary = page_view.wait_until_drawn()
    assert (summary.built, summary.records, summary.boxes) == (0, 4, 4)
    assert badges() == ["1", "2", "4", "5"]
    assert outline_colour(page_view.settled_image(), page_view, card_3) != (0xD6, 0x27, 0x28)
    # Another label or colour, or other XPaths, make a record anew.
    page_view.show_records([card(1), {**card(2), "label": "two"}, {**card(4), "colour_index": 9},
                            {**card(5), "xpaths": [f"{CARDS}/div[6]"]}])
    summary = page_view.wait_until_drawn()
    assert (summary.built, summary.records, summary.boxes) == (3, 4, 4)
    assert badges() == ["1", "two", "4", "5"]
    # The same record twice is drawn twice, each with its own boxes.
    page_view.show_records([card(1), card(1)])
    summary = page_view.wait_until_drawn()
    assert (summary.built, summary.records, summary.boxes) == (1, 2, 2)


def move_onto(view: PageView, point: QPoint, xpath: str, seen: list[str]) -> Callable[[], bool]:
    """A poll that moves the pointer onto `point` (where `xpath` is) and says whether the hover reported it."""
    target = view.view.focusProxy()

    def moved() -> bool:
        # From somewhere else first, in steps: a pointer that does not move is reported by nobody. Moved again
        # on every poll, as a person's pointer keeps moving, in case the page missed the first moves.
        for y in (2, point.y() - 1, point.y()):
            QTest.mouseMove(target, QPoint(point.x(), y))
            spin(50)
        return xpath in seen

    return moved


def hovering_the_price(qtbot, view: PageView) -> tuple[QPoint, list[str]]:
    """The demo page open, the pointer moved onto its first price: where it is, and what the hover reported."""
    open_page(view, DEMO_PAGE)
    point = viewport_point(view, PRICE)
    seen: list[str] = []
    view.hovered.connect(seen.append)
    qtbot.waitUntil(move_onto(view, point, PRICE, seen), timeout=10_000)
    return point, seen


def under_the_pointer(view: PageView, point: QPoint) -> str:
    """The element at that spot of the view, in the page's CSS pixels at the zoom it has now."""
    zoom = view.view.zoomFactor()
    return view.offline.run_js(
        f"__recordlens.xpathOf(document.elementFromPoint({point.x() / zoom}, {point.y() / zoom}))") or ""


def test_hover_reports_the_element_under_the_pointer(qtbot, page_view):
    hovering_the_price(qtbot, page_view)


def test_the_hover_follows_the_page_scrolled_under_a_pointer_that_stays(qtbot, page_view):
    # Chromium sends no mouse event when the wheel moves the page under a still pointer: the line above the
    # page must still name the element a click there would take, not the one that was there before.
    point, seen = hovering_the_price(qtbot, page_view)
    top = js(page_view, "window.scrollY")
    turn_wheel(page_view.view.focusProxy(), [-120] * 3, point)
    qtbot.waitUntil(lambda: js(page_view, "window.scrollY") > top, timeout=10_000)
    qtbot.waitUntil(lambda: seen[-1] != PRICE and seen[-1] == under_the_pointer(page_view, point), timeout=10_000)


def test_the_hover_follows_the_page_zoomed_under_a_pointer_that_stays(qtbot, page_view):
    # Zooming moves every element under a still pointer, as a scroll does: the line must name the new one.
    point, seen = hovering_the_price(qtbot, page_view)
    try:
        page_view.set_zoom(0.5)
        qtbot.waitUntil(lambda: page_view.view.zoomFactor() == 0.5 and seen[-1] != PRICE
                        and seen[-1] == under_the_pointer(page_view, point), timeout=10_000)
    finally:
        page_view.set_zoom(1.0)


def outline_colour(image: QImage, view: PageView, xpath: str) -> tuple[int, int, int]:
    """The colour on screen at the element's left edge, half way down (where its box's outline is)."""
    left, top, _, height = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getBoundingClientRect();
        return [r.left, r.top, r.width, r.height];
    }})()""")
    colour = image.pixelColor(round(left) + 1, round(top + height / 2))
    return colour.red(), colour.green(), colour.blue()


def test_overlays_follow_scrolling(page_view):
    open_page(page_view, DEMO_PAGE)
    page_view.show_records([{"xpaths": [BELOW_THE_FOLD], "colour_index": 3}])
    page_view.wait_until_drawn()
    before = page_view.boxes()[0][0].rect
    viewport_point(page_view, BELOW_THE_FOLD)  # scrolls the element into the middle of the view
    assert page_view.offline.run_js("window.scrollY") > 0
    assert page_view.boxes()[0][0].rect == before  # document coordinates do not move with the page
    image = page_view.settled_image()
    assert outline_colour(image, page_view, BELOW_THE_FOLD) == (0xD6, 0x27, 0x28)  # PALETTE[3]


def test_grab_png_shows_the_overlays(tmp_path, page_view):
    open_page(page_view, DEMO_PAGE)
    page_view.show_records([{"xpaths": [f"{CARDS}/div[1]"], "colour_index": 3}])
    path = page_view.grab_png(tmp_path / "shot.png")
    image = QImage(str(path))
    assert not image.isNull() and image.width() == page_view.view.width()
    assert outline_colour(image, page_view, f"{CARDS}/div[1]") == (0xD6, 0x27, 0x28)  # PALETTE[3]


def test_blocked_requests_are_counted(qtbot, page_view, tmp_path):
    page = tmp_path / "remote.html"
    page.write_text('<html><body><img src="https://example.com/a.png"><p>x</p></body></html>', encoding="utf-8")
    counts: list[int] = []
    page_view.blocked_count_changed.connect(counts.append)
    open_page(page_view, page)
    qtbot.waitUntil(lambda: page_view.blocked_count >= 1, timeout=5_000)
    assert counts[0] == 0 and counts[-1] == page_view.blocked_count


VEILED_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>veiled</title></head><body>
<div style="position: relative">
<div style="position: absolute; width: 100%; height: 100%"></div>
<ul><li><h3>First card</h3><p>one</p></li><li><h3>Second card</h3><p>two</p></li></ul>
</div></body></html>"""
VEILED_TITLE = "/body[1]/div[1]/ul[1]/li[2]/h3[1]"


def test_an_empty_box_laid_over_the_content_takes_neither_hover_nor_click(qtbot, page_view, tmp_path):
    # A page's background div, positioned and saved without the style sheet that kept it beneath, covers the
    # cards: a click on a title must reach the title, not make a record of the empty box.
    page = tmp_path / "veiled.html"
    page.write_text(VEILED_PAGE, encoding="utf-8")
    open_page(page_view, page)
    centre = js(page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(VEILED_TITLE)}).getClientRects()[0];
        return [r.left + r.width / 2, r.top + r.height / 2];
    }})()""")
    covering = page_view.offline.run_js(f"__recordlens.xpathOf(document.elementFromPoint({centre[0]}, {centre[1]}))")
    assert covering == "/body[1]/div[1]/div[1]"  # the box is on top where the title shows
    zoom = page_view.view.zoomFactor()
    point = QPoint(round(centre[0] * zoom), round(centre[1] * zoom))
    seen: list[str] = []
    page_view.hovered.connect(seen.append)
    qtbot.waitUntil(move_onto(page_view, point, VEILED_TITLE, seen), timeout=10_000)
    expected = page_view.core_page.resolve(VEILED_TITLE)
    with qtbot.waitSignal(page_view.element_clicked, timeout=5_000) as clicked:
        QTest.mouseClick(page_view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         point)
    assert clicked.args == [expected.key]


DOT_PNG = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAA"
           "AABJRU5ErkJggg==")
# Childless, textless and positioned, yet each shows something: an image drawn as its background, over nothing
# (only the body beneath) and over text, and a badge whose word is generated by ::after.
SHOWING_BOXES = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>boxes</title>
<style>.badge::after {{ content: "New"; }}</style></head><body>
<div style="position: relative"><p>A product under its picture, a long line of words</p>
<div style="position: absolute; left: 0; top: 0; width: 120px; height: 14px; background-image: url({DOT_PNG})"></div>
</div>
<div style="position: relative"><p>A card with a badge on it, a long line of words</p>
<span class="badge" style="position: absolute; left: 0; top: 0; background: yellow"></span></div>
<div style="position: absolute; left: 40px; top: 300px; width: 80px; height: 80px; background-image: url({DOT_PNG})">
</div></body></html>"""


@pytest.mark.parametrize("xpath", ["/body[1]/div[1]/div[1]", "/body[1]/div[2]/span[1]", "/body[1]/div[3]"],
                         ids=["picture over text", "badge of generated text", "picture over nothing"])
def test_a_positioned_box_that_shows_something_is_what_a_click_reports(qtbot, page_view, tmp_path, xpath):
    # Not an empty box laid over the content: the pointer must not look through it to what is beneath (nor to the
    # body, when nothing is).
    page = tmp_path / "boxes.html"
    page.write_text(SHOWING_BOXES, encoding="utf-8")
    open_page(page_view, page)
    a_click_reports_the_cores_xpath(qtbot, page_view, xpath)


LOCKED_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>locked</title></head>
<body style="overflow-y: hidden"><div style="height: 3000px">tall</div>
<div inert><ul><li><a href="/contact">Contact us</a></li><li><a href="/help">Help</a></li></ul></div>
</body></html>"""
INERT_LINK = "/body[1]/div[2]/ul[1]/li[2]/a[1]"


def test_a_page_saved_with_its_scroll_locked_and_a_part_inert_can_be_scrolled_and_clicked(qtbot, page_view, tmp_path):
    # A cookie banner's scroll lock and a dialog's `inert`, left in the saved page by scripts that never run
    # offline: the records below could be neither scrolled to nor clicked.
    page = tmp_path / "locked.html"
    page.write_text(LOCKED_PAGE, encoding="utf-8")
    open_page(page_view, page)
    point, seen = QPoint(100, 100), []
    page_view.hovered.connect(seen.append)
    qtbot.waitUntil(move_onto(page_view, point, "/body[1]/div[1]", seen), timeout=10_000)  # the pointer on the page
    turn_wheel(page_view.view.focusProxy(), [-120] * 3, point)
    qtbot.waitUntil(lambda: js(page_view, "window.scrollY") > 0, timeout=10_000)
    a_click_reports_the_cores_xpath(qtbot, page_view, INERT_LINK)
