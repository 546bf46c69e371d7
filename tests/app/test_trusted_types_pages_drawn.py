"""A page whose policy requires Trusted Types shows its records, the hover tip and the line above the page.

`<meta http-equiv="Content-Security-Policy" content="require-trusted-types-for 'script'">` makes the browser refuse
a plain string given to innerHTML and its kin, in the overlay's world too. A verifier's finding: on such a page (HTML
or MHTML) the overlay built its layer from markup, was refused, and drew nothing at all, silently. The layer is now
built node by node; these pages, as saved HTML and as MHTML, are drawn and hovered as any other.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtTest import QTest

from recordlens.annotator.labelling.page_view import PageView
from recordlens.annotator.qt.event_loop import spin
from recordlens.core.page.mhtml_writer import write_mhtml
from tests.app.page_helpers import js

pytestmark = pytest.mark.app

POLICIES = ["require-trusted-types-for 'script'", "require-trusted-types-for 'script'; trusted-types 'none'"]
ITEMS = [f"/body[1]/ul[1]/li[{k}]" for k in range(1, 5)]
HOVERED = "/body[1]/ul[1]/li[2]/h3[1]"


def page(policy: str) -> str:
    items = "".join(f"<li><h3>Item {k}</h3><p>Text of item {k}</p></li>" for k in range(1, 5))
    return (f"<!doctype html><html><head><meta charset='utf-8'><meta http-equiv='Content-Security-Policy' "
            f"content=\"{policy}\"><title>tt</title></head><body><h1>Items</h1><ul>{items}</ul></body></html>")


def saved(folder: Path, policy: str, kind: str) -> Path:
    if kind == "mhtml":
        return write_mhtml(folder / "page.mhtml", page(policy), url="https://site.example/items")
    path = folder / "page.html"
    path.write_text(page(policy), encoding="utf-8")
    return path


def hover_over(view: PageView, xpath: str) -> None:
    """Move the pointer for real onto the element (from above it)."""
    x, y = js(view, f"""(() => {{
        const r = __recordlens.resolve({json.dumps(xpath)}).getClientRects()[0];
        return [Math.round(r.left + Math.min(20, r.width / 2)), Math.round(r.top + r.height / 2)];
    }})()""")
    proxy = view.view.focusProxy()
    QTest.mouseMove(proxy, QPoint(x, max(1, y - 60)))
    spin(100)
    QTest.mouseMove(proxy, QPoint(x, y))


@pytest.mark.parametrize("kind", ["html", "mhtml"])
@pytest.mark.parametrize("policy", POLICIES)
def test_records_hover_tip_and_hover_line_on_a_trusted_types_page(qtbot, page_view, tmp_path, policy, kind):
    page_view.open(saved(tmp_path, policy, kind))
    assert page_view.wait_until_loaded(30_000)
    page_view.show_records([{"xpaths": [x]} for x in ITEMS])
    assert page_view.wait_until_drawn(20_000).boxes == len(ITEMS)
    assert all(box.resolved and box.visible for record in page_view.boxes() for box in record)

    said: list[str] = []
    page_view.hovered.connect(said.append)
    try:
        hover_over(page_view, HOVERED)
        qtbot.waitUntil(lambda: HOVERED in said, timeout=5_000)
    finally:
        page_view.hovered.disconnect(said.append)
    tip = json.loads(page_view.offline.run_js("__recordlens.overlay.hoverTip()"))
    assert tip["shown"] and [line["text"] for line in tip["lines"]] == [HOVERED, "Item 2"]
