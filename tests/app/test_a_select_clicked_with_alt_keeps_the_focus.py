"""Alt+click reaches the page's own controls while annotating (README: it is let through to the page). A <select> or
a slider so clicked keeps the focus, so that its list stays open and an option can be chosen, or the slider moved;
one reached by Tab, or a plain click (which selects the element for labelling), still loses it at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.page_view import PageView
from tests.app.page_helpers import js

pytestmark = pytest.mark.app

PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>controls</title></head><body>
<p style="font-size:28px"><select name="size"><option>small</option><option selected>medium</option></select>
<input type="range" name="zoom" value="50"></p></body></html>"""
FOCUSED = "document.activeElement && document.activeElement.tagName"


def opened(qtbot, page_view: PageView, tmp_path: Path) -> None:
    page = tmp_path / "controls.html"
    page.write_text(PAGE, encoding="utf-8")
    page_view.open(page)
    assert page_view.wait_until_loaded()
    qtbot.wait(300)


def pressed_on(qtbot, page_view: PageView, selector: str, modifier: Qt.KeyboardModifier) -> None:
    """A real click on the control's middle, and time for the focus it gives to be taken off, if it is."""
    x, y = js(page_view, f"""(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect();
        return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; }})()""")
    target = page_view.view.focusProxy()
    assert target is not None
    QTest.mouseClick(target, Qt.MouseButton.LeftButton, modifier, QPoint(x, y))
    qtbot.wait(500)


@pytest.mark.parametrize("selector, tag", [("select", "SELECT"), ("input", "INPUT")])
def test_a_select_or_slider_alt_clicked_keeps_the_focus_and_a_plain_click_does_not(qtbot, page_view: PageView,
                                                                                   tmp_path: Path, selector: str,
                                                                                   tag: str) -> None:
    opened(qtbot, page_view, tmp_path)
    page_view.set_annotating(True)
    pressed_on(qtbot, page_view, selector, Qt.KeyboardModifier.NoModifier)
    assert js(page_view, FOCUSED) != tag  # annotating: the click selects the element, the control takes no keys
    pressed_on(qtbot, page_view, selector, Qt.KeyboardModifier.AltModifier)
    assert js(page_view, FOCUSED) == tag  # the page's own use of its control
