"""What app tests do on a rendered page: evaluate a script, find an element on screen, click it for real."""

from __future__ import annotations

import json
from collections.abc import Iterable

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from recordlens.annotator.qt.widgets import web_input_widget


def js(view: PageView, expression: str):
    """Evaluate `expression` in the overlay's world; its value travels as JSON (Qt drops JS arrays' items)."""
    raw = view.offline.run_js(f"JSON.stringify({expression})")
    assert isinstance(raw, str), f"no value from {expression}"
    return json.loads(raw)


def text_line_boxes(view: PageView, records: Iterable[Iterable[str]]) -> list[list[list[float]]]:
    """Each record's text line boxes ([x, y, w, h], document coordinates), measured here apart from the overlay."""
    return js(view, f"""(() => {{
        const range = document.createRange();
        return {json.dumps([list(r) for r in records])}.map((record) => {{
            const out = [];
            for (const x of record) {{
                const el = __recordlens.resolve(x);
                if (!el) continue;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {{
                    if (!n.data.trim()) continue;
                    range.selectNodeContents(n);
                    for (const r of range.getClientRects())
                        if (r.width && r.height) out.push([r.left + scrollX, r.top + scrollY, r.width, r.height]);
                }}
            }}
            return out;
        }});
    }})()""")


def viewport_point(view: PageView, xpath: str) -> QPoint:
    """Scroll the element into view and return the centre of its first line box, in the view's pixels (CSS
    pixels times the page's zoom)."""
    box: list = []
    view.scroll_to(xpath, box.append)
    for _ in range(100):
        if box:
            break
        spin(20)
    assert box and box[0] is not None, f"{xpath} is not on the page"
    spin(50)  # let the scroll settle before asking for the box
    first = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [r.left + r.width / 2, r.top + r.height / 2];
    }})()""")
    # The point must hit this very element, or the test would check Chromium's layout instead of our path.
    hit = view.offline.run_js(f"__recordlens.xpathOf(document.elementFromPoint({first[0]}, {first[1]}))")
    assert hit == xpath, (hit, xpath)
    zoom = view.view.zoomFactor()
    return QPoint(round(first[0] * zoom), round(first[1] * zoom))


def click_element(view: PageView, xpath: str, modifier=Qt.KeyboardModifier.NoModifier) -> QPoint:
    """A real left click (QTest, on the view's focus proxy) in the middle of the element's first line box."""
    point = viewport_point(view, xpath)
    target = view.view.focusProxy()
    assert target is not None
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, modifier, point)
    return point


def turn_wheel(target: QWidget, deltas: Iterable[int], at: QPoint,
               modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Turn the mouse wheel over `target` (a view's focus proxy) at `at`, one event per angle delta in Qt's
    terms: 120 a notch, negative scrolls down (or zooms out, with Ctrl); 60 is half a notch, as from a touchpad."""
    where = QPointF(at)
    for delta in deltas:
        event = QWheelEvent(where, target.mapToGlobal(where), QPoint(0, 0), QPoint(0, delta), Qt.MouseButton.NoButton,
                            modifier, Qt.ScrollPhase.NoScrollPhase, False)
        QApplication.sendEvent(target, event)
        spin(30)


def click_at(view: PageView, xpath: str, dx: float = 20, dy: float = 10) -> str:
    """A real click at (dx, dy) inside the element's box; what the page's topmost element there is (its XPath)."""
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getBoundingClientRect();
        return [Math.round(r.left + {dx}), Math.round(r.top + {dy})]; }})()""")
    top = view.offline.run_js(f"__recordlens.xpathOf(document.elementFromPoint({x}, {y}))")
    QTest.mouseClick(web_input_widget(view.view), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(x, y))
    return top
