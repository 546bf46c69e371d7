"""A page that scrolls inside a container of its own (html and body overflow hidden, the content in a scrolling
<main>): its records below the first screen lie past the root's scroll size, yet the annotator scrolls to them, so
they are no records "placed wholly off the page" (they were marked unseen)."""

from __future__ import annotations

from pathlib import Path

from tests.app.window_helpers import window_on_page

ROWS = "".join(f'<div class="card"><h3>Row {i}</h3><p>text of row {i}</p></div>' for i in range(60))
PAGE = f"""<!doctype html><html><head><meta charset="utf-8"><title>shell</title>
<style>html,body{{height:100%;margin:0;overflow:hidden}} main{{height:100%;overflow:auto}}
.card{{border:1px solid #888;margin:4px;padding:20px}}</style></head><body><main>{ROWS}</main></body></html>"""
TRUTH = [[f"/body[1]/main[1]/div[{i + 1}]"] for i in range(60)]


def test_records_below_the_first_screen_of_a_scrolling_pane_are_seen(qtbot, tmp_path: Path) -> None:
    with window_on_page(qtbot, tmp_path, PAGE, TRUTH) as window:
        unseen = list(window.page_view.wait_until_drawn().unseen)
        assert len(unseen) == 60 and not any(unseen), [k + 1 for k, why in enumerate(unseen) if why]
