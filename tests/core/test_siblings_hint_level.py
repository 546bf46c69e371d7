"""G's hint after a click on a field names the level a labeller wants: the ancestor whose siblings make the most
records (the list's item), not the nearest one with a sibling (a wrapper of the title inside the item, beside the
item's other wrapper: one record). Seen on nexteval-synth-dev page 21: the hint said "U twice ... 1 record" where
the `li` eight levels up makes the page's 249."""

from __future__ import annotations

import json

from recordlens.core.page.dataset import load_page
from recordlens.core.page.dom import parse_html
from recordlens.core.records.siblings import SIBLINGS_CLIMB, levels_above, sibling_records, siblings_above
from tests.conftest import SHARED_DATA, require_shared

ITEMS = 6
# Each item: a card whose title (an h3 in a link, in a div) sits beside a div of details: the title's div has one
# sibling of its tag, two levels up; the item (li) has five, four levels up.
CARD = "<li><div><div><a><h3>{k}. Film {k}</h3></a></div><div><span>{k} h</span></div></div></li>"
LIST = parse_html("<html><body><nav><a>Home</a></nav><ul>"
                  + "".join(CARD.format(k=k) for k in range(1, ITEMS + 1)) + "</ul><footer>x</footer></body></html>")
TITLE = "/body[1]/ul[1]/li[2]/div[1]/div[1]/a[1]/h3[1]"


def test_the_hint_names_the_level_whose_siblings_make_the_most_records() -> None:
    assert sibling_records(LIST, [TITLE]) == []  # G on the title itself adds nothing
    every = [(level.levels, level.ancestor.tag, level.records) for level in levels_above(LIST, [TITLE])]
    assert every == [(2, "div", 1), (4, "li", ITEMS - 1)]  # nearest first
    best = siblings_above(LIST, [TITLE])
    assert best is not None
    levels, item, count = best
    assert (levels, item.key, count) == (4, "/body[1]/ul[1]/li[2]", ITEMS - 1)


def test_on_a_tie_the_nearest_level_is_named() -> None:
    # The title's div has one sibling, and so has the item (two items): the nearer level is named.
    page = parse_html("<html><body><ul>" + "".join(CARD.format(k=k) for k in (1, 2)) + "</ul></body></html>")
    best = siblings_above(page, ["/body[1]/ul[1]/li[1]/div[1]/div[1]/a[1]/h3[1]"])
    assert best is not None and (best.levels, best.ancestor.tag, best.records) == (2, "div", 1)


def test_items_already_recorded_are_not_counted_and_the_climb_stops_below_body() -> None:
    recorded = [[f"/body[1]/ul[1]/li[{k}]"] for k in range(3, ITEMS + 1)]
    every = [(level.levels, level.records) for level in levels_above(LIST, [TITLE], recorded)]
    assert every == [(2, 1), (4, 1)]
    assert siblings_above(LIST, [TITLE], recorded).levels == 2  # a tie: the nearer
    # Nothing repeats above the menu's link (body's children differ), and no climb goes past a deep page's limit.
    assert siblings_above(LIST, ["/body[1]/nav[1]/a[1]"]) is None
    deep = parse_html("<html><body><ul><li>" + "<div>" * 30 + "<b>x</b>" + "</div>" * 30 + "</li><li>y</li></ul>"
                      "</body></html>")
    assert siblings_above(deep, ["/body[1]/ul[1]/li[1]" + "/div[1]" * 30 + "/b[1]"]) is None
    assert SIBLINGS_CLIMB < 30


def test_page_21_of_the_dev_set_is_told_its_list_items() -> None:
    dev = require_shared(SHARED_DATA / "nexteval-synth-dev")
    page = load_page(dev / "html" / "21.html").page
    truth = json.loads((dev / "gt" / "21.json").read_text(encoding="utf-8"))
    title = ("/body[1]/div[2]/main[1]/div[1]/div[3]/section[1]/div[1]/div[2]/div[1]/ul[1]/li[8]/div[1]/div[1]/div[1]"
             "/div[1]/div[2]/div[1]/a[1]/h3[1]")
    best = siblings_above(page, [title])
    assert best is not None
    assert (best.levels, best.ancestor.tag, best.records) == (8, "li", len(truth) - 1)
    made = {frozenset(r) for r in sibling_records(page, [best.ancestor.key])} | {frozenset([best.ancestor.key])}
    assert made == {frozenset(r) for r in truth}
