"""A see-through backdrop the page's style draws as an element's ::before or ::after is looked through, as one drawn
by an element is (tests/app/test_backdrop_looked_through.py): a click and the hover take what shows through it.

A verifier's finding: `body.modal-open::before {position: fixed; inset: 0; background: rgba(0,0,0,.4)}`, or a nearly
invisible `html::after` over the whole view, took every click, reported as /body[1] or /, and no record could be
made. Still taken as they are: an opaque cover, one that says something (content: "Loading"), and a box smaller
than the view (a link stretched over its card is the link).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from tests.app.page_helpers import js
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app

ITEMS = "".join(f"<li class='card'><h3>Item {k}</h3><p>Price {k}.99</p><a href='#{k}'>More</a></li>"
                for k in range(1, 6))
TARGET = "/body[1]/ul[1]/li[2]/h3[1]"


def page(style: str, body_class: str = "") -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>backdrop</title><style>{style}</style></head>"
            f"<body class='{body_class}'><h1>Items</h1><ul>{ITEMS}</ul></body></html>")


COVER = "content: ''; position: fixed; inset: 0; z-index: 1000;"
LOOKED_THROUGH = {
    "body's ::before": page(f"body.modal-open::before {{ {COVER} background: rgba(0, 0, 0, .4); }}", "modal-open"),
    "html's faint ::after": page(f"html::after {{ {COVER} z-index: 2147483647; background: rgba(0, 0, 0, .01); }}"),
    "a list's absolute ::after": page("ul { position: relative } ul::after { content: ''; position: absolute;"
                                      " left: -100vw; top: -100vh; width: 300vw; height: 300vh;"
                                      " background: rgba(255, 255, 255, .3); }"),
}
TAKEN_AS_IS = {
    "an opaque cover": (page(f"body::before {{ {COVER} background: #fff; }}"), "/body[1]"),
    "a cover that says something": (
        page(f"body::before {{ {COVER} content: 'Loading'; background: rgba(0, 0, 0, .4); }}"), "/body[1]"),
    "a link stretched over its card": (page(".card { position: relative } .card a::after { content: '';"
                                            " position: absolute; inset: 0; background: rgba(0, 0, 0, .05); }"),
                                       "/body[1]/ul[1]/li[2]/a[1]"),
}


def centre(view: PageView, xpath: str) -> QPoint:
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)];
    }})()""")
    return QPoint(x, y)


def topmost(view: PageView, at: QPoint) -> str:
    """The XPath of the element the page's own hit test finds at `at` (what the click lands on)."""
    return view.offline.run_js(f"__recordlens.xpathOf(document.elementFromPoint({at.x()}, {at.y()}))")


def clicked_at(qtbot, view: PageView, at: QPoint) -> str:
    """A real left click at `at`; what the view reports of it."""
    with qtbot.waitSignal(view.element_clicked, timeout=5_000) as clicked:
        QTest.mouseClick(view.view.focusProxy(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    return clicked.args[0]


def hovered_at(qtbot, view: PageView, at: QPoint) -> str:
    """Move the pointer for real to `at` (from above it); what the line above the page is told."""
    said: list[str] = []
    view.hovered.connect(said.append)
    try:
        QTest.mouseMove(view.view.focusProxy(), QPoint(at.x(), max(1, at.y() - 40)))
        spin(100)
        QTest.mouseMove(view.view.focusProxy(), at)
        qtbot.waitUntil(lambda: bool(said) and said[-1] != "", timeout=5_000)
        spin(200)
    finally:
        view.hovered.disconnect(said.append)
    return said[-1]


def opened(view: PageView, folder: Path, html: str) -> None:
    path = folder / "page.html"
    path.write_text(html, encoding="utf-8")
    view.open(path)
    assert view.wait_until_loaded(30_000)
    spin(200)


@pytest.mark.parametrize("case", list(LOOKED_THROUGH))
def test_a_see_through_generated_backdrop_is_looked_through(qtbot, page_view, tmp_path, case):
    opened(page_view, tmp_path, LOOKED_THROUGH[case])
    at = centre(page_view, TARGET)
    assert topmost(page_view, at) != TARGET  # the backdrop is what the page's hit test finds there
    assert hovered_at(qtbot, page_view, at) == TARGET
    assert clicked_at(qtbot, page_view, at) == TARGET


@pytest.mark.parametrize("case", list(TAKEN_AS_IS))
def test_other_generated_boxes_are_what_the_click_is_on(qtbot, page_view, tmp_path, case):
    html, on_top = TAKEN_AS_IS[case]
    opened(page_view, tmp_path, html)
    at = centre(page_view, TARGET)
    assert topmost(page_view, at) == on_top
    assert clicked_at(qtbot, page_view, at) == on_top


def test_in_the_window_a_click_through_the_bodys_backdrop_makes_a_record_of_what_shows_through(qtbot, tmp_path):
    folder = imported_project(tmp_path, {"html/1.html": LOOKED_THROUGH["body's ::before"]})
    window: MainWindow = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        window.wait_until_drawn()
        at = centre(window.page_view, TARGET)
        assert topmost(window.page_view, at) == "/body[1]"
        QTest.mouseClick(window.page_view.view.focusProxy(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, at)
        qtbot.waitUntil(lambda: [label.xpaths for label in window.project.labels("1")] == [(TARGET,)],
                        timeout=10_000)
    finally:
        window.close()
