"""Records the page paints nothing of although they are laid out with a box are "⊘ hidden" as display: none ones
are, each with its reason: hidden by visibility (on the element or inherited from one around it), transparent
(opacity: 0 on it or on one around it), placed wholly off the page (left: -9999px), or cut to no height with its
overflow hidden. A verifier's finding: such records were drawn as empty coloured boxes, or nowhere at all with
nothing said when one was selected, and Ctrl+A, A accepted them unseen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.annotator.labelling.record_panel import HIDDEN_MARK
from tests.app.window_helpers import record_rows, said, window_on_page

pytestmark = pytest.mark.app

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>invisible</title>
<style>.card{border:1px solid #888;margin:4px;padding:4px} .vh{visibility:hidden} .op{opacity:0}
.off{position:absolute;left:-9999px} .clip{height:0;overflow:hidden;padding:0;border:0}</style></head><body>
<div class="card"><h3>Shown</h3></div>
<div class="card vh"><h3>Hidden by visibility</h3></div>
<section class="vh"><div class="card"><h3>Inside a hidden section</h3></div></section>
<div class="card op"><h3>Transparent</h3></div>
<section class="op"><div class="card"><h3>Inside a transparent section</h3></div></section>
<div class="card off"><h3>Off the page</h3></div>
<div class="card clip"><h3>Clipped</h3></div>
<div class="card" style="opacity:.4"><h3>Faint but shown</h3></div>
</body></html>"""
TRUTH = [["/body[1]/div[1]"], ["/body[1]/div[2]"], ["/body[1]/section[1]/div[1]"], ["/body[1]/div[3]"],
         ["/body[1]/section[2]/div[1]"], ["/body[1]/div[4]"], ["/body[1]/div[5]"], ["/body[1]/div[6]"]]
REASONS = [None, "visibility", "visibility:section", "opacity", "opacity:section", "offpage", "clipped", None]


@pytest.fixture
def window(qtbot, tmp_path: Path):
    with window_on_page(qtbot, tmp_path, PAGE, TRUTH) as win:
        yield win


def test_records_painted_nowhere_are_marked_hidden_with_their_reason_and_drawn_nowhere(qtbot, window):
    summary = window.page_view.wait_until_drawn()
    assert list(summary.unseen) == REASONS
    assert summary.boxes == 2  # the shown card and the faint one: no empty box where nothing is painted
    hidden = [k for k, why in enumerate(REASONS) if why]
    qtbot.waitUntil(lambda: [k for k, line in enumerate(record_rows(window)) if HIDDEN_MARK in line] == hidden,
                    timeout=10_000)
    badges = json.loads(window.page_view.offline.run_js("__recordlens.overlay.badgeRects()"))
    assert [k for k, badge in enumerate(badges) if badge is None] == hidden


def test_selecting_a_record_off_the_page_says_it_is_not_displayed(qtbot, window):
    window.select_records([window.labels[5].id])
    qtbot.waitUntil(lambda: said(window).startswith("record 6 is not displayed on the page: "), timeout=10_000)
