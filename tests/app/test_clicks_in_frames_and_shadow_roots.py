"""What a real click cannot label is said, not passed over or mistaken (a verifier's findings):

- inside a frame of the page (an <iframe>), where the overlay is not: the click made nothing and said nothing,
  and the line above the page went on promising "click: new record" for the element hovered before the frame;
- on a web component's text held in a shadow root, which the core does not read: the click made an accepted
  record of the host holding no text, said to be "an image or an icon", with U advised (its parent holds none
  of that text either); and the line above the page, while hovering it, went on promising "click: new record".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.qt.event_loop import spin
from tests.app.page_helpers import click_element, js
from tests.app.window_helpers import imported_project, open_window, said

pytestmark = pytest.mark.app

FRAMED = "<ul><li>Framed 1</li><li>Framed 2</li><li>Framed 3</li></ul>"
PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><title>frames and shadows</title>
<style>iframe{{width:400px;height:160px;border:4px solid #888;display:block}} .host{{margin:6px;font-size:20px}}</style>
</head><body><h1>Heading</h1>
<iframe srcdoc="{FRAMED}"></iframe>
<section><div class="host"><template shadowrootmode="closed"><h3>Closed shadow 1</h3><p>price 1</p></template></div>
<div class="host"><template shadowrootmode="closed"><h3>Closed shadow 2</h3><p>price 2</p></template></div></section>
<section><div class="host"><template shadowrootmode="open"><h3>Open shadow</h3><slot></slot></template><span>light
text</span></div></section>
<p>Plain text</p>
</body></html>"""
CLOSED_HOST = "/body[1]/section[1]/div[2]"


@pytest.fixture
def window(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": PAGE})
    win = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    win.wait_until_drawn()
    yield win
    win.close()


def frame_point(window: MainWindow) -> QPoint:
    """The middle of the frame's content ("Framed 2"), in the view's pixels."""
    x, y = js(window.page_view, """(() => {
        const r = document.querySelector('iframe').getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; })()""")
    zoom = window.page_view.view.zoomFactor()
    return QPoint(round(x * zoom), round(y * zoom))


def move_to(window: MainWindow, point: QPoint) -> None:
    QTest.mouseMove(window.page_view.view.focusProxy(), point)
    spin(200)


def test_the_hover_line_stops_promising_a_record_inside_a_frame(qtbot, window):
    click_point = frame_point(window)
    heading = js(window.page_view, """(() => { const r = document.querySelector('h1').getBoundingClientRect();
        return [Math.round(r.left + 20), Math.round(r.top + r.height / 2)]; })()""")
    move_to(window, QPoint(*heading))
    qtbot.waitUntil(lambda: "click: new record" in window.breadcrumb.text(), timeout=10_000)
    move_to(window, click_point)
    qtbot.waitUntil(lambda: "new record" not in window.breadcrumb.text(), timeout=10_000)
    assert window.breadcrumb.text().startswith("a frame of the page: a click there makes no record, as what a frame "
                                               "shows cannot be labelled")


def test_a_click_inside_a_frame_says_it_cannot_be_labelled(qtbot, window):
    point = frame_point(window)
    move_to(window, point)
    QTest.mouseClick(window.page_view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     point)
    qtbot.waitUntil(lambda: said(window).startswith("no record made: that click was in a frame"), timeout=10_000)
    assert window.project.labels("1") == []
    window.message("")
    spin(100)
    QTest.mouseClick(window.page_view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     point + QPoint(0, 20))  # a second click in the frame is told too
    qtbot.waitUntil(lambda: said(window).startswith("no record made: that click was in a frame"), timeout=10_000)


def test_a_click_on_a_closed_shadow_roots_text_names_the_shadow_root(qtbot, window):
    point = js(window.page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(CLOSED_HOST)}).getBoundingClientRect();
        return [Math.round(r.left + 30), Math.round(r.top + 12)]; }})()""")
    hit = window.page_view.offline.run_js(f"__recordlens.xpathOf(document.elementFromPoint({point[0]}, {point[1]}))")
    assert hit == CLOSED_HOST
    QTest.mouseClick(window.page_view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(*point))
    qtbot.waitUntil(lambda: said(window).startswith("no record made: the text shown there is inside a shadow root "
                                                    "of <div>"), timeout=10_000)
    assert "an image or an icon" not in said(window)
    assert window.project.labels("1") == []


def test_the_hover_line_says_a_click_on_a_shadow_roots_text_makes_nothing(qtbot, window):
    point = js(window.page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(CLOSED_HOST)}).getBoundingClientRect();
        return [Math.round(r.left + 30), Math.round(r.top + 12)]; }})()""")
    heading = js(window.page_view, """(() => { const r = document.querySelector('h1').getBoundingClientRect();
        return [Math.round(r.left + 20), Math.round(r.top + r.height / 2)]; })()""")
    zoom = window.page_view.view.zoomFactor()
    move_to(window, QPoint(round(heading[0] * zoom), round(heading[1] * zoom)))
    qtbot.waitUntil(lambda: window.breadcrumb.text().startswith("click: new record"), timeout=10_000)
    move_to(window, QPoint(round(point[0] * zoom), round(point[1] * zoom)))
    qtbot.waitUntil(lambda: window.breadcrumb.text().startswith("click: nothing (the text shown there is inside a "
                                                                "shadow root"), timeout=10_000)
    assert CLOSED_HOST in window.breadcrumb.text()


def test_in_review_the_hover_line_over_a_shadow_roots_text_says_a_click_edits_nothing(qtbot, window, monkeypatch):
    monkeypatch.setattr(window.reviewing, "active", lambda: True)  # as in the Review tab, where no click edits
    point = js(window.page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(CLOSED_HOST)}).getBoundingClientRect();
        return [Math.round(r.left + 30), Math.round(r.top + 12)]; }})()""")
    zoom = window.page_view.view.zoomFactor()
    move_to(window, QPoint(5, 5))  # from elsewhere: a pointer already on the spot would make no move
    move_to(window, QPoint(round(point[0] * zoom), round(point[1] * zoom)))
    qtbot.waitUntil(lambda: CLOSED_HOST in window.breadcrumb.text(), timeout=10_000)
    assert window.breadcrumb.text().startswith("review: a click edits nothing"), window.breadcrumb.text()


def test_elements_of_the_pages_own_text_still_make_records(qtbot, window):
    click_element(window.page_view, "/body[1]/p[1]")
    qtbot.waitUntil(lambda: [label.xpaths for label in window.project.labels("1")] == [("/body[1]/p[1]",)],
                    timeout=10_000)
    window.select_records([])  # Esc: the next click starts a record of its own
    click_element(window.page_view, "/body[1]/section[2]/div[1]/span[1]")  # an open host's own (slotted) text
    qtbot.waitUntil(lambda: len(window.project.labels("1")) == 2, timeout=10_000)


def test_a_click_on_an_open_shadow_roots_text_makes_a_record_of_the_hosts_own_text(qtbot, window):
    host = "/body[1]/section[2]/div[1]"
    point = js(window.page_view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(host)}).getBoundingClientRect();
        return [Math.round(r.left + 30), Math.round(r.top + 12)]; }})()""")  # on "Open shadow"
    QTest.mouseClick(window.page_view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(*point))
    qtbot.waitUntil(lambda: [label.xpaths for label in window.project.labels("1")] == [(host,)], timeout=10_000)
    assert "of its own text alone: the text its shadow root shows is not read" in said(window)
