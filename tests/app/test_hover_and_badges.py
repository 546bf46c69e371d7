"""Hover and badges on large unseen pages (issue 12), in the main window on the pages where the bugs were seen:
`nexteval-synth-more` pages 14 (a long paragraph), 25 (a table at the left edge), 101 (dates at the left edge) and
109 (wider than the view, records reaching its right edge).

The pointer is moved for real over the view; what the overlay drew is read back from the page.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.event_loop import spin
from tests.app.page_helpers import js, text_line_boxes
from tests.app.window_helpers import imported_project, open_window
from tests.conftest import SHARED_DATA, require_shared

pytestmark = pytest.mark.app

MORE = SHARED_DATA / "nexteval-synth-more"
PAGES = ("14", "25", "101", "109")
COSMETIC = "/body[1]/div[1]/div[1]/div[3]/div[2]/ul[1]/li[4]/div[1]/div[3]/p[1]"


@pytest.fixture(scope="module")
def window(qapp, tmp_path_factory):
    more = require_shared(MORE)
    data = tmp_path_factory.mktemp("more")
    files = {}
    for name in PAGES:
        files[f"html/{name}.html"] = (more / "html" / f"{name}.html").read_bytes()
        files[f"gt/{name}.json"] = (more / "gt" / f"{name}.json").read_bytes()
    folder = imported_project(data, files)
    win = open_window(folder, data / "settings.json", timeout_ms=60_000)
    yield win
    win.close()


def crumb(window: MainWindow) -> str:
    label = window.breadcrumb
    return label.full_text() if hasattr(label, "full_text") else label.text()


def open_page(window: MainWindow, name: str) -> None:
    window.open_page(name)
    assert window.page_view.wait_until_loaded(60_000)
    window.page_view.wait_until_drawn(60_000)
    spin(100)


def scrolled_to(window: MainWindow, xpath: str) -> None:
    """Scroll the element into view and wait until the page has done it (its box comes back)."""
    boxes: list[object] = []
    window.page_view.scroll_to(xpath, boxes.append)
    for _ in range(500):
        if boxes:
            break
        spin(20)
    assert boxes and boxes[0] is not None, f"{xpath} was not scrolled to"


def hover(window: MainWindow, xpath: str) -> QPoint:
    """Move the pointer for real onto the element's first line box (from outside it) and wait for the report."""
    view = window.page_view
    scrolled_to(window, xpath)
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + Math.min(40, r.width / 2)), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, max(1, y - 200)))
    spin(100)
    QTest.mouseMove(proxy, QPoint(x, y))
    for _ in range(100):
        if f"   {xpath}   " in crumb(window):
            break
        spin(20)
    spin(300)
    return QPoint(x, y)


def test_hovering_a_long_paragraph_changes_no_width(window):
    open_page(window, "14")
    for _ in range(3):
        QTest.keySequence(window, "J")
    spin(300)
    splitter = window.centralWidget()
    width, sizes = window.width(), splitter.sizes()
    list_width = window.page_list.width()
    scroll_x = js(window.page_view, "window.scrollX")
    hover(window, COSMETIC)
    assert window.width() == width
    assert splitter.sizes() == sizes
    assert window.page_list.width() == list_width
    assert js(window.page_view, "window.scrollX") == scroll_x
    assert f"   {COSMETIC}   " in crumb(window) and "Cosmetic Filters" in crumb(window)
    # The whole text stays available where it does not take room: the label's tooltip.
    assert "Cosmetic Filters" in window.breadcrumb.toolTip()


def tip(window: MainWindow) -> dict:
    return json.loads(window.page_view.offline.run_js("__recordlens.overlay.hoverTip()"))


def element_rects(window: MainWindow, xpath: str) -> list[list[float]]:
    """The element's text line boxes in viewport coordinates."""
    return js(window.page_view, f"""(() => {{
        const el = __recordlens.resolve({json.dumps(xpath)});
        const out = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {{
            if (!n.data.trim()) continue;
            range.selectNodeContents(n);
            for (const r of range.getClientRects())
                if (r.width && r.height) out.push([r.left, r.top, r.width, r.height]);
        }}
        return out;
    }})()""")


def overlap(a, b) -> bool:
    """Two boxes share more than half a pixel each way."""
    return (a[0] < b[0] + b[2] - 0.5 and b[0] < a[0] + a[2] - 0.5
            and a[1] < b[1] + b[3] - 0.5 and b[1] < a[1] + a[3] - 0.5)


VIEW_SIZE = "[document.documentElement.clientWidth, document.documentElement.clientHeight]"
FILTER_HEADING = "/body[1]/div[1]/div[1]/div[2]/div[1]/div[1]/div[2]/div[4]/div[1]/div[1]/a[1]/span[1]/h3[1]"


def test_the_hover_tip_is_wide_inside_the_view_and_off_the_hovered_text(window):
    open_page(window, "14")
    for xpath in (COSMETIC, FILTER_HEADING, "/body[1]/div[1]/header[1]/h1[1]"):
        hover(window, xpath)
        shown = tip(window)
        assert shown["shown"]
        x, y, w, h = shown["rect"]
        view_w, view_h = js(window.page_view, VIEW_SIZE)
        # A sensible width: XPath and text on a line each (a long XPath on two), not a column of characters.
        assert h <= 70, shown
        assert w >= 300 or h <= 40, shown
        assert x >= 0 and x + w <= view_w and y >= 0 and y + h <= view_h, (shown, view_w, view_h)
        assert not any(overlap(shown["rect"], r) for r in element_rects(window, xpath)), xpath


def test_a_tall_element_gets_its_tip_inside_the_view_where_its_text_is_not(window):
    open_page(window, "14")
    tall = "/body[1]/div[1]/div[1]/div[3]/div[2]/ul[1]"  # the list of results: taller than the view
    assert js(window.page_view, f"__recordlens.resolve({json.dumps(tall)}).getBoundingClientRect().height") > 900
    view = window.page_view
    scrolled_to(window, tall)
    # Hover the list itself (the gap between two of its items is the list's own area).
    window.page_view.offline.run_js(f"""(() => {{
        const el = __recordlens.resolve({json.dumps(tall)});
        const r = el.getBoundingClientRect();
        el.dispatchEvent(new MouseEvent("mousemove", {{bubbles: true, clientX: r.left + 2, clientY: 300}}));
    }})()""")
    spin(300)
    shown = tip(window)
    assert shown["shown"]
    x, y, w, h = shown["rect"]
    view_w, view_h = js(view, VIEW_SIZE)
    assert x >= 0 and x + w <= view_w and y >= 0 and y + h <= view_h
    # In the corner of the view where it covers the least of the list's own text (here: none of it).
    assert not any(overlap(shown["rect"], r) for r in element_rects(window, tall))


@pytest.mark.parametrize("name", ["101", "25", "14", "109"])
def test_badges_are_inside_the_page_out_of_other_records_and_their_text_and_apart(window, name):
    open_page(window, name)
    badges = json.loads(window.page_view.offline.run_js("__recordlens.overlay.badgeRects()"))
    gt = json.loads((MORE / "gt" / f"{name}.json").read_text(encoding="utf-8"))
    assert len(badges) == len(gt)
    # Every record's text line boxes, in document coordinates, computed here independently of the overlay.
    texts = text_line_boxes(window.page_view, gt)
    drawn = [b["rect"] for b in badges if b]
    assert len(drawn) >= len(gt) - 2  # records without a rendered box get no badge
    assert all(r[0] >= 0 and r[1] >= 0 for r in drawn), "a badge cut off at the page's edge"
    shown = js(window.page_view, "[scrollX, scrollX + document.documentElement.clientWidth]")
    assert all(shown[0] <= r[0] and r[0] + r[2] <= shown[1] for r in drawn), "a badge out of sight across"
    crossing = [(i, j) for i, a in enumerate(drawn) for j, b in enumerate(drawn) if i < j and overlap(a, b)]
    assert not crossing, crossing[:5]
    # Nor in another record's box (in a table, a badge in the row above reads as that row's), unless its own
    # record lies inside that one (nested labels), where no spot can avoid it. Nor on its own record's text: a
    # row whose every spot beside it is taken has its badge inside its box where its text leaves room (on page
    # 25's table, a few of its 240 rows went over their own first letters before).
    boxes = js(window.page_view, f"""{json.dumps(gt)}.map((record) => {{
        const rects = record.map((x) => __recordlens.resolve(x)).filter(Boolean).map((el) => el.getBoundingClientRect())
            .filter((r) => r.width || r.height);
        if (!rects.length) return null;
        const l = Math.min(...rects.map((r) => r.left)), t = Math.min(...rects.map((r) => r.top));
        return [l + scrollX, t + scrollY, Math.max(...rects.map((r) => r.right)) - l,
                Math.max(...rects.map((r) => r.bottom)) - t];
    }})""")

    def holds(outer, inner) -> bool:
        return (outer[0] <= inner[0] + 0.5 and outer[1] <= inner[1] + 0.5 and inner[0] + inner[2] <= outer[0] + outer[2]
                + 0.5 and inner[1] + inner[3] <= outer[1] + outer[3] + 0.5)

    astray = [(i, j) for i, b in enumerate(badges) if b and boxes[i] for j, box in enumerate(boxes)
              if j != i and box and overlap(b["rect"], box) and not holds(box, boxes[i])]
    others_text = [(i, j) for i, b in enumerate(badges) if b for j, rects in enumerate(texts)
                   if j != i and not (boxes[i] and boxes[j] and holds(boxes[j], boxes[i]))
                   and any(overlap(b["rect"], t) for t in rects)]
    own_text = [i for i, b in enumerate(badges) if b and any(overlap(b["rect"], t) for t in texts[i])]
    assert not astray, astray[:5]
    assert not others_text, others_text[:5]
    assert not own_text, (len(own_text), own_text[:5])


def first_record_top(window: MainWindow) -> float:
    first = window.labels[0].xpaths[0]
    return js(window.page_view, f"__recordlens.resolve({json.dumps(first)}).getBoundingClientRect().top")


def test_a_page_opens_at_its_first_record_then_where_it_was_left_and_the_marks_show_the_records(window):
    open_page(window, "25")
    view_h = js(window.page_view, "document.documentElement.clientHeight")
    for _ in range(50):
        if 0 <= first_record_top(window) < view_h:
            break
        spin(20)
    assert 0 <= first_record_top(window) < view_h  # the table starts below the fold: the page is scrolled to it
    marks = window.page_view.scroll_marks.marks
    assert len(marks) == len(window.labels) and all(0 < m < 1 for m, _ in marks)
    window.page_view.scroll_to_y(3000)
    for _ in range(50):
        if window.page_view.scroll_y == 3000:
            break
        spin(20)
    assert window.page_view.scroll_y == 3000
    open_page(window, "14")
    open_page(window, "25")
    spin(300)
    assert js(window.page_view, "Math.round(window.scrollY)") == 3000

    # Review and back (F6 twice) on the same page: the labelling goes on where it was, wherever review went
    run = window.project.runs.add("handmade")
    window.project.runs.add_predictions(run, {"25": window.project.true_records("25")[-1:]})
    window.project.runs.finish(run)
    window.start_review(run)
    window.page_view.scroll_to_y(0)
    for _ in range(50):
        if window.page_view.scroll_y == 0:
            break
        spin(20)
    window.reviewing.do_review()
    for _ in range(50):
        if window.page_view.scroll_y == 3000:
            break
        spin(20)
    assert window.page_view.scroll_y == 3000


def test_j_on_a_record_taller_than_the_view_brings_its_badge_into_view(window):
    open_page(window, "101")
    view_h = js(window.page_view, "document.documentElement.clientHeight")
    heights = [js(window.page_view, f"__recordlens.resolve({json.dumps(label.xpaths[0])}).getBoundingClientRect()"
                                    ".height") for label in window.labels]
    assert max(heights) > view_h
    for index, label in enumerate(window.labels):
        window.select_records([label.id])
        window.page_view.settled_image()  # a frame of the page with the scroll to the record and its badge done
        badge = json.loads(window.page_view.offline.run_js("__recordlens.overlay.badgeRects()"))[index]
        top = badge["rect"][1] - js(window.page_view, "window.scrollY")
        assert 0 <= top <= view_h - badge["rect"][3], (index, heights[index], top)
