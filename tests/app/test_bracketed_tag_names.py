"""Tag names holding brackets (HTML makes an element named "item[2]" of `<item[2]>`, and Chromium shows it): the
overlay (what the app draws) and set-of-mark (the agent's targets) read an XPath step by the core's rule, the tag
being all before the step's last [k]. A verifier's finding: records the core resolved on such elements were
"⊘ hidden" in the app, "no XPath of it names an element of the page as shown"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import read_resource
from tests.app.page_helpers import js

pytestmark = pytest.mark.app

ITEMS = "".join(f"<item[2]><t.n>Bracket {k}</t.n></item[2]>" for k in range(1, 4))
ODD = "".join(f"<x:y:z><q\"w>Quote {k}</q\"w></x:y:z><a[b]c[1]>Twice {k}</a[b]c[1]>" for k in range(1, 3))
PAGE = (f"<!doctype html><html><head><meta charset='utf-8'><title>odd</title></head><body><div>{ITEMS}{ODD}</div>"
        "</body></html>")
RECORDS = [[f"/body[1]/div[1]/item[2][{k}]"] for k in range(1, 4)] + [["/body[1]/div[1]/a[b]c[1][2]"]]


@pytest.fixture
def drawn(page_view, tmp_path: Path):
    page = tmp_path / "odd.html"
    page.write_text(PAGE, encoding="utf-8")
    page_view.open(page)
    page_view.show_records([{"xpaths": record, "colour_index": i} for i, record in enumerate(RECORDS)])
    assert page_view.wait_until_loaded(30_000)
    return page_view


def test_records_on_bracketed_tags_are_drawn(drawn):
    summary = drawn.wait_until_drawn()
    assert list(summary.unseen) == [None] * len(RECORDS)
    assert summary.boxes == len(RECORDS)


def test_the_overlay_and_set_of_mark_resolve_every_element_the_core_keys(drawn):
    core = drawn.core_page
    keys = [key for key in core.element_xpaths() if key.startswith("/body[1]/div[1]/")]
    assert "/body[1]/div[1]/item[2][3]/t.n[1]" in keys and "/body[1]/div[1]/a[b]c[1][2]" in keys
    # Set-of-mark beside the overlay, in its world, as the agent's browser has it beside dom_rules.js.
    drawn.offline.run_js(read_resource("js", "som.js"))
    found = js(drawn, f"{json.dumps(keys)}.map((k) => [__recordlens.resolve(k), __recordlens.som.resolve(k)]"
                      ".map((el) => el && __recordlens.xpathOf(el)))")
    assert found == [[key, key] for key in keys]

