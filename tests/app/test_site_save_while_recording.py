""""Save this page to the site" during a recording wrote the app's set-of-mark layer (`<recordlens-som>` with its
numbered boxes) into the site's MHTML, and left the page's meta.json giving the old file's SHA-256 and saying
nothing of the tree and screenshot beside it now describing another file. The saved page is the page alone, the
numbers come back on screen, and the meta says the MHTML was saved again and that the tree and screenshot are
the capture's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from recordlens.annotator.agent.site_page import prepare_snapshot, restore_saved, without_app_elements
from recordlens.annotator.agent.window import AgentWindow
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.page.snapshot import Snapshot, read_snapshot
from tests.app.agent_helpers import wait_for
from tests.app.agent_site import HOME, PNG_1PX, make_site

pytestmark = pytest.mark.app

TASK = Task(id="shop-1", instruction="What does the desk lamp cost?", answer="$24.90", start_url=HOME)
CAPTURED_AT = "2026-01-02T03:04:05+00:00"


def captured_shop(root: Path) -> Path:
    """The test shop with the side files a capture leaves beside its home page."""
    make_site(root)
    page = root / "home.mhtml"
    (root / "home.axtree.json").write_text(json.dumps({"format": "recordlens-axtree/1", "nodes": []}))
    (root / "home.png").write_bytes(PNG_1PX)
    meta = {"final_url": HOME, "captured_at": CAPTURED_AT,
            "sha256": {"mhtml": hashlib.sha256(page.read_bytes()).hexdigest(), "screenshot": "s", "axtree": "a"}}
    (root / "home.meta.json").write_text(json.dumps(meta))
    build_site(root)
    return page


def badge_count(window: AgentWindow) -> int:
    return len(window.browser.js_json("__recordlens.som.labelBoxes()") or [])


@pytest.mark.timeout(180)
def test_a_page_saved_while_recording_has_no_marks_and_its_meta_says_what_is_stale(qapp, tmp_path: Path) -> None:
    page = captured_shop(tmp_path / "shop")
    window = AgentWindow(site=tmp_path / "shop")
    try:
        window.show()
        assert window.browser.wait_until_loaded()
        window.panel.choose(TASK)
        QTest.mouseClick(window.panel.record_button, Qt.MouseButton.LeftButton)  # ● Record
        wait_for(lambda: window.recorder.recording and badge_count(window) > 0)
        shown = badge_count(window)

        QTest.mouseClick(window.browser.save_button, Qt.MouseButton.LeftButton)  # "Save this page to the site"
        saved = read_snapshot(page)
        assert "recordlens-som" not in saved.html and "shadowmode" not in saved.html, saved.html[-600:]
        assert "Desk lamp" in saved.html  # the page itself is there
        assert badge_count(window) == shown and window.recorder.recording  # the numbers are back on screen

        meta = json.loads((page.with_name("home.meta.json")).read_text())
        assert meta["sha256"]["mhtml"] == hashlib.sha256(page.read_bytes()).hexdigest()
        assert meta["captured_at"] == CAPTURED_AT  # when the tree and screenshot were made
        assert meta["resaved"]["stale"] == ["axtree", "screenshot"]
        assert CAPTURED_AT in meta["resaved"]["note"] and "capture the page again" in meta["resaved"]["note"]
        assert "are still the capture's" in window.statusBar().currentMessage()
        assert '"resaved"' in window.captured_view.meta.toPlainText()  # the Site tab's stored parts, shown anew
    finally:
        window.close()


def test_what_chromium_wrote_of_the_marks_is_stripped_even_when_drawn_during_the_save() -> None:
    layer = ('<recordlens-som style="position: fixed !important;"><template shadowmode="closed"><style>.box{}</style>'
             '<div class="layer"><div class="box"><div class="label">1</div></div></div></template></recordlens-som>')
    page = "<html><head><title>A</title></head><body><p>Price</p></body>" + layer + "</html>"
    assert without_app_elements(page) == "<html><head><title>A</title></head><body><p>Price</p></body></html>"
    # A page saved with them by an older version is served without them (they would show, frozen, on top).
    prepared = prepare_snapshot(Snapshot(html=page, url=HOME, title="A", charset="utf-8"), HOME, "recordlens-page:/x/")
    assert "recordlens-som" not in prepared.html and "<p>Price</p>" in prepared.html
    # What Chromium writes of a page marked while it was being saved: stripped.
    html, _ = restore_saved(Snapshot(html=prepared.html + layer, url=HOME, title="A", charset="utf-8"), prepared)
    assert "recordlens-som" not in html and "<p>Price</p>" in html
