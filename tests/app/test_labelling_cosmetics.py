"""What the page looks like while labelling (a user's list of cosmetic bugs): badges zoomed far out, the hover
tip beside its neighbours' text, and an inline SVG without a size in a page whose style sheet is missing.

Each on a real page in QtWebEngine, zoomed with the window's keys and hovered with real pointer events.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.page_helpers import js
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def overlap(a, b) -> bool:
    """Two boxes (x, y, w, h) share more than half a pixel each way."""
    return (a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5
            and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5)


# ---- badges zoomed far out ------------------------------------------------------------------------------------

ROWS = 60
# Rows 20 px tall, as wide as the page but for a margin on the left (where a badge is in no row's box): at 33 %
# each is 7 px on screen, under badges that stay 18 px.
LIST = ("<!doctype html><html><head><meta charset='utf-8'><title>Rows</title></head>"
        "<body style='margin:0 0 0 80px'>"
        + "".join(f"<p style='height:20px;margin:0'>Row {k} <i>${k}</i></p>" for k in range(1, ROWS + 1))
        + "</body></html>")
LIST_TRUTH = json.dumps([[f"/body[1]/p[{k}]"] for k in range(1, ROWS + 1)])


def _shown_badges(window) -> list[dict | None]:
    return json.loads(window.page_view.offline.run_js("__recordlens.overlay.badgeRects()"))


def _zoomed_to(window, qtbot, key: Qt.Key, factor: float, presses: int) -> None:
    for _ in range(presses):
        QTest.keyClick(window, key, Qt.KeyboardModifier.ControlModifier)
    assert window.page_view.zoom == pytest.approx(factor)
    qtbot.waitUntil(lambda: abs(js(window.page_view, "window.devicePixelRatio") - factor) < 0.02, timeout=10_000)
    window.wait_until_drawn()
    spin(300)


def test_zoomed_far_out_badges_never_pile_up_and_the_selected_ones_stays(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": LIST, "gt/1.json": LIST_TRUTH})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.wait_until_drawn()
        assert sum(1 for b in _shown_badges(window) if b) == ROWS  # at 100 % every row has room for its badge

        _zoomed_to(window, qtbot, Qt.Key.Key_Minus, 0.33, 6)
        badges = _shown_badges(window)
        shown = [b["rect"] for b in badges if b]
        crossing = [(i, j) for i, a in enumerate(shown) for j, b in enumerate(shown) if i < j and overlap(a, b)]
        assert not crossing, crossing[:5]  # no heap: a badge that has no room of its own is left out
        assert badges[0] is not None and len(shown) >= ROWS // 4, len(shown)
        rows = js(window.page_view, "[...document.querySelectorAll('p')].map((p) => { const r = "
                  "p.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height]; })")
        astray = [(i, j) for i, b in enumerate(badges) if b for j, row in enumerate(rows)
                  if j != i and overlap(b["rect"], row)]
        assert not astray, astray[:5]  # (badge, row): none in another row's box, which it would be read as
        labels = [b["label"] for b in badges if b]
        assert labels == sorted(labels, key=int)  # those shown are the records' own numbers, in order

        # The selected record's badge shows, with or without room (over the others: it is the one looked at).
        hidden = next(k for k, b in enumerate(badges) if b is None)
        window.select_records([window.labels[hidden].id], scroll=False)
        window.wait_until_drawn()
        badges = _shown_badges(window)
        assert badges[hidden] is not None and badges[hidden]["label"] == str(hidden + 1)
        window.select_records([], scroll=False)
        window.wait_until_drawn()
        assert _shown_badges(window)[hidden] is None

        _zoomed_to(window, qtbot, Qt.Key.Key_0, 1.0, 1)
        assert sum(1 for b in _shown_badges(window) if b) == ROWS  # back at 100 %, every badge again
    finally:
        window.close()


# ---- the hover tip ----------------------------------------------------------------------------------------------

# A link on a line of its own, text right above and right below it, and the page's width free beside it.
NEIGHBOURS = """<!doctype html><html><head><meta charset="utf-8"><title>Cookies</title></head>
<body style="margin:8px; font: 16px/1.2 sans-serif">
<p style="margin:0 0 4px">You can proceed with only the necessary cookies by closing this notification.</p>
<p style="margin:0"><a href="/settings" id="settings">Cookie Settings</a></p>
<ul style="margin:4px 0 0"><li>Marketing Communications</li><li>Customization Options</li>
<li>Performance Analysis</li><li>Product Reviews</li></ul>
<div style="height:1200px"></div></body></html>"""
SETTINGS = "/body[1]/p[2]/a[1]"


def _text_rects(view: PageView) -> list[list[float]]:
    """Every line box of the page's text, in viewport coordinates."""
    return js(view, """(() => {
        const out = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            if (!n.data.trim()) continue;
            range.selectNodeContents(n);
            for (const r of range.getClientRects())
                if (r.width && r.height) out.push([r.left, r.top, r.width, r.height]);
        }
        return out;
    })()""")


def _hover(view: PageView, qtbot, xpath: str) -> dict:
    """Move the pointer for real onto the element (from above it) and return the tip as the overlay shows it."""
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + Math.min(30, r.width / 2)), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, y + 300))
    spin(100)
    with qtbot.waitSignal(view.hovered, timeout=5_000, check_params_cb=lambda path: path == xpath):
        QTest.mouseMove(proxy, QPoint(x, y))
    spin(200)
    return json.loads(view.offline.run_js("__recordlens.overlay.hoverTip()"))


HIDDEN_MENU = '<nav style="display:none">' + "".join(f'<a href="/{k}">link {k}</a>' for k in range(700)) + "</nav>"


# A menu hidden before the content, its hundreds of links no text on show: they must not use up what is weighed.
@pytest.mark.parametrize("before", ["", HIDDEN_MENU], ids=["plain", "after-a-hidden-menu"])
def test_the_hover_tip_goes_where_it_covers_no_neighbouring_text(qtbot, page_view: PageView, tmp_path: Path,
                                                                   before: str):
    page = tmp_path / "cookies.html"
    page.write_text(NEIGHBOURS.replace('font: 16px/1.2 sans-serif">', 'font: 16px/1.2 sans-serif">' + before),
                    encoding="utf-8")
    page_view.open(page)
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([])
    page_view.wait_until_drawn()
    tip = _hover(page_view, qtbot, SETTINGS)
    assert tip["shown"]
    x, y, w, h = tip["rect"]
    view_w, view_h = js(page_view, "[document.documentElement.clientWidth, document.documentElement.clientHeight]")
    assert x >= 0 and y >= 0 and x + w <= view_w and y + h <= view_h, tip
    covered = [r for r in _text_rects(page_view) if overlap(tip["rect"], r)]
    assert not covered, (tip, covered)  # below it would hide the list, above it the notice: beside it, nothing
    # Still on the element's line, just past the list's text: not off in a corner of the view.
    link = js(page_view, f"(() => {{ const r = __recordlens.resolve({json.dumps(SETTINGS)})"
                         ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()")
    list_end = js(page_view, "Math.max(...[...document.querySelectorAll('li')].map((li) => { "
                             "const range = document.createRange(); range.selectNodeContents(li); "
                             "return range.getBoundingClientRect().right; }))")
    assert abs(y - link[1]) < 20 and link[0] + link[2] < x <= list_end + 12, (tip, link, list_end)
    page_view.offline.run_js("__recordlens.overlay.hideHover()")


def test_a_hover_tip_with_room_below_stays_below(qtbot, page_view: PageView, tmp_path: Path):
    page = tmp_path / "list.html"
    page.write_text("<!doctype html><html><head><meta charset='utf-8'></head><body style='margin:8px'>"
                    "<h1>Title</h1><div style='height:300px'></div><p>Below</p></body></html>", encoding="utf-8")
    page_view.open(page)
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([])
    page_view.wait_until_drawn()
    tip = _hover(page_view, qtbot, "/body[1]/h1[1]")
    heading = js(page_view, "(() => { const r = document.querySelector('h1').getBoundingClientRect(); "
                            "return [r.left, r.top, r.width, r.height]; })()")
    assert tip["shown"] and heading[1] + heading[3] <= tip["rect"][1] <= heading[1] + heading[3] + 12, (tip, heading)
    page_view.offline.run_js("__recordlens.overlay.hideHover()")


# ---- an SVG without a size, in a page without its style sheet ----------------------------------------------------

ICONS = """<!doctype html><html><head><meta charset="utf-8"><title>Icons</title>
<link rel="stylesheet" href="https://shop.example.com/site.css">
<style>.sized-by-css { width: 20px; } .full-width { width: 100%; } .wave { position: relative; height: 80px; }
.wave svg { position: absolute; left: 0; right: 0; } .row { display: flex; width: 600px; } .row svg { flex: 1; }
.column { width: 600px; }</style></head><body>
<nav><a href="/"><svg id="icon" viewBox="0 0 24 24"><path d="M0 0h24v24H0z" fill="#c00"/></svg> Home</a>
<a href="/big"><svg id="icon-512" viewBox="0 0 512 512"><path d="M0 0h512v512H0z"/></svg> Shop</a>
<a href="/cart"><svg id="no-viewbox"><circle cx="10" cy="10" r="8"/></svg> Cart</a></nav>
<p>Text <svg id="attributes" viewBox="0 0 24 24" width="16" height="16"><path d="M0 0h24v24H0z"/></svg> inline.</p>
<p><svg id="by-css" class="sized-by-css" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg> sized by CSS</p>
<p><svg id="inline-style" viewBox="0 0 24 24" style="height: 30px"><path d="M0 0h24v24H0z"/></svg> inline style</p>
<div><svg id="chart" class="full-width" viewBox="0 0 200 100"><rect width="200" height="100"/></svg></div>
<div class="wave"><svg id="wave" viewBox="0 0 1200 100"><path d="M0 50h1200"/></svg></div>
<div class="row"><svg id="flexed" viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg></div>
<div class="column"><svg id="plain-chart" viewBox="0 0 600 300"><rect width="600" height="300"/></svg></div>
<p>End.</p></body></html>"""


def _svg_sizes(view: PageView) -> dict[str, list[float]]:
    return js(view, "Object.fromEntries([...document.querySelectorAll('svg')].map((s) => "
                    "[s.id, [s.getBoundingClientRect().width, s.getBoundingClientRect().height]]))")


def test_an_svg_without_a_size_is_capped_and_sized_ones_are_left_alone(qtbot, page_view: PageView, tmp_path: Path):
    archive = write_mhtml(tmp_path / "icons.mhtml", ICONS, url="https://shop.example.com/")
    page_view.open(archive)
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([])
    page_view.wait_until_drawn()
    # judged once the page has loaded and the SVG is drawn: on a busy machine, a moment after the load is said
    qtbot.waitUntil(lambda: _svg_sizes(page_view)["icon"][0] < 100, timeout=10_000)
    sizes = _svg_sizes(page_view)
    body_w = js(page_view, "document.body.clientWidth")
    # Without a size a viewBox alone makes an icon as wide as its container (here 1200 px each way): it gets its
    # viewBox's size, as an image gets its own, and never more than a browser's box for an SVG without one.
    assert sizes["icon"] == pytest.approx([24, 24], abs=0.5)
    assert sizes["icon-512"] == pytest.approx([150, 150], abs=0.5)
    assert sizes["no-viewbox"] == pytest.approx([300, 150], abs=0.5)
    # Those with a size of their own keep it: attributes, the page's CSS, an inline style.
    assert sizes["attributes"] == pytest.approx([16, 16], abs=0.5)
    assert sizes["by-css"] == pytest.approx([20, 20], abs=0.5)
    assert sizes["inline-style"] == pytest.approx([30, 30], abs=0.5)
    assert sizes["chart"] == pytest.approx([body_w, body_w / 2], abs=1)
    # Sized by their place, or drawn at about their own scale, with the style sheet there: as the page meant.
    assert sizes["wave"][0] == pytest.approx(body_w, abs=1)  # absolute, left and right
    assert sizes["flexed"][0] == pytest.approx(600, abs=1)  # flex: 1 in a 600 px row
    assert sizes["plain-chart"] == pytest.approx([600, 300], abs=1)  # a viewBox-only chart in its column
    # The page's elements are as they were: same XPaths, nothing added.
    assert js(page_view, "__recordlens.xpathOf(document.getElementById('chart'))") == "/body[1]/div[1]/svg[1]"


def test_an_svg_drawn_at_nothing_when_the_page_loads_is_judged_once_the_view_has_its_size(qtbot, page_view: PageView,
                                                                                          tmp_path: Path):
    archive = write_mhtml(tmp_path / "icons-later.mhtml", ICONS, url="https://shop.example.com/")
    page_view.resize(0, 0)  # a view not laid out yet as the page loads (a window about to be shown)
    try:
        page_view.open(archive)
        assert page_view.wait_until_loaded(30_000)
    finally:
        page_view.resize(1280, 900)
    qtbot.waitUntil(lambda: _svg_sizes(page_view)["icon"][0] > 0, timeout=10_000)
    spin(300)
    assert _svg_sizes(page_view)["icon"] == pytest.approx([24, 24], abs=0.5)
