"""Apply to siblings, split and the click toggle, on hand-made pages and on the demo pages' ground truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.page.dataset import load_page
from recordlens.core.page.dom import parse_html
from recordlens.core.records.siblings import (
    parent_xpath,
    places_in_page_order,
    relevelled,
    same_list,
    sibling_records,
    siblings_above,
    split_parts,
    toggle_xpath,
)

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"

LIST = parse_html("""<html><body><nav><a>Home</a></nav><ul>
  <li><b>Camera</b> <i>$399</i></li>
  <li><b>Lens</b> <i>$129</i><em>sale</em></li>
  <li><b>Tripod</b></li>
  <li><p>an advert, not a product</p></li>
</ul><footer>x</footer></body></html>""")


def test_one_element_record_is_repeated_on_every_sibling_with_its_tag() -> None:
    assert sibling_records(LIST, ["/body[1]/ul[1]/li[2]"]) == [
        ["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[3]"], ["/body[1]/ul[1]/li[4]"]]


def test_inner_xpaths_are_mapped_and_a_sibling_needs_most_of_them() -> None:
    record = ["/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]"]
    # li[3] lacks the price (one of two is enough); li[4] has neither, so it is not the same structure.
    assert sibling_records(LIST, record) == [
        ["/body[1]/ul[1]/li[2]/b[1]", "/body[1]/ul[1]/li[2]/i[1]"],
        ["/body[1]/ul[1]/li[3]/b[1]"],
    ]
    three = [*record, "/body[1]/ul[1]/li[2]/em[1]"]  # a stray third XPath on another card widens the group
    assert sibling_records(LIST, three) == []


def test_a_sibling_without_any_text_is_no_record() -> None:
    page = parse_html("<html><body><ul><li><b>Camera</b></li><li><b> </b></li><li><b><img></b></li>"
                      "<li><b>Lens</b></li></ul></body></html>")
    assert sibling_records(page, ["/body[1]/ul[1]/li[1]"]) == [["/body[1]/ul[1]/li[4]"]]


def test_existing_records_and_other_spellings_are_not_added_again() -> None:
    existing = [["/html[1]/body/ul/li[3]"]]
    assert sibling_records(LIST, ["/html/body/ul/li"], existing) == [["/body[1]/ul[1]/li[2]"],
                                                                     ["/body[1]/ul[1]/li[4]"]]


def test_new_records_are_placed_in_front_of_the_first_record_that_starts_later_on_the_page() -> None:
    # The list holds li[2] (id 7) and the footer (id 9), in that order; G from li[2] adds li[1], li[3], li[4]
    existing = [(7, ["/body[1]/ul[1]/li[2]"]), (9, ["/body[1]/footer[1]"]), (11, ["/body[1]/div[9]"])]
    new = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[3]"], ["/body[1]/ul[1]/li[4]"], ["/body[1]/aside[1]"]]
    assert places_in_page_order(LIST, existing, new) == [7, 9, 9, None]  # before li[2]; before the footer; none
    assert places_in_page_order(LIST, [], new[:1]) == [None]


def test_unresolvable_records_have_no_siblings() -> None:
    assert sibling_records(LIST, ["/body[1]/div[9]", "//li"]) == []
    assert sibling_records(LIST, []) == []


def test_a_record_of_two_sibling_elements_moves_two_steps_at_a_time() -> None:
    page = parse_html("<html><body><dl><dt>a</dt><dd>1</dd><dt>b</dt><dd>2</dd><dt>c</dt><dd>3</dd>"
                      "<dt>lonely</dt></dl></body></html>")
    assert sibling_records(page, ["/body[1]/dl[1]/dt[2]", "/body[1]/dl[1]/dd[2]"]) == [
        ["/body[1]/dl[1]/dt[1]", "/body[1]/dl[1]/dd[1]"], ["/body[1]/dl[1]/dt[3]", "/body[1]/dl[1]/dd[3]"]]


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_one_true_record_of_a_demo_page_rebuilds_its_neighbours(number: int) -> None:
    page = load_page(DEMO / "html" / f"{number}.html").page
    truth = json.loads((DEMO / "gt" / f"{number}.json").read_text(encoding="utf-8"))
    found = sibling_records(page, truth[1])
    truth_sets = [frozenset(r) for r in truth]
    # Every true record of the same structure comes back; a page may hold a differing one (the sponsored item).
    hits = [r for r in found if frozenset(r) in truth_sets]
    assert len(hits) >= len(truth) - 2, (number, len(hits), len(truth))
    assert frozenset(truth[1]) not in {frozenset(r) for r in found}


def test_a_lone_field_is_told_the_level_whose_siblings_g_would_find() -> None:
    levels, item, count = siblings_above(LIST, ["/body[1]/ul[1]/li[1]/b[1]"])
    assert (levels, item.key, count) == (1, "/body[1]/ul[1]/li[1]", 3)
    # The items already recorded are not counted, as G would not add them again.
    existing = [["/body[1]/ul[1]/li[2]"], ["/body[1]/ul[1]/li[3]"]]
    assert siblings_above(LIST, ["/body[1]/ul[1]/li[1]/b[1]"], existing)[2] == 1
    # Nothing repeats above the menu link (body's children differ), and a record of two elements is not guessed.
    assert siblings_above(LIST, ["/body[1]/nav[1]/a[1]"]) is None
    assert siblings_above(LIST, ["/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]"]) is None
    # An item whose siblings all have records already: G has done its work, climbing would record the list.
    items = [[f"/body[1]/ul[1]/li[{k}]"] for k in (2, 3, 4)]
    assert siblings_above(LIST, ["/body[1]/ul[1]/li[1]"], items) is None


def test_split_cuts_a_record_at_the_children_of_its_common_ancestor() -> None:
    two_cards = ["/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]", "/body[1]/ul[1]/li[2]/b[1]",
                 "/body[1]/div[7]"]
    assert split_parts(LIST, two_cards) == [
        ["/body[1]/div[7]", "/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]"],
        ["/body[1]/ul[1]/li[2]/b[1]"]]
    assert split_parts(LIST, ["/body[1]/ul[1]/li[1]"]) == [["/body[1]/ul[1]/li[1]"]]
    assert len(split_parts(LIST, ["/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]"])) == 2


def test_a_click_inside_the_record_narrows_it_and_one_around_its_elements_widens_it() -> None:
    item, bold, price = "/body[1]/ul[1]/li[1]", "/body[1]/ul[1]/li[1]/b[1]", "/body[1]/ul[1]/li[1]/i[1]"
    assert relevelled(LIST, [item, "/body[1]/nav[1]"], bold) == ("narrow", [item], [bold, "/body[1]/nav[1]"])
    assert relevelled(LIST, [bold, price], item) == ("widen", [bold, price], [item])
    assert relevelled(LIST, [bold], "/body[1]/ul[1]/li[2]/b[1]") is None  # apart: an element to add
    assert relevelled(LIST, [bold], "/body[1]/ul[1]/li[9]") is None  # names nothing


def test_toggle_adds_or_removes_whatever_the_spelling() -> None:
    record = ["/html[1]/body/ul/li[2]", "/body[1]/nav[1]"]
    assert toggle_xpath(record, "/body[1]/ul[1]/li[2]") == ["/body[1]/nav[1]"]
    assert toggle_xpath(record, "/body[1]/footer[1]") == [*record, "/body[1]/footer[1]"]
    assert toggle_xpath([], "/body[1]") == ["/body[1]"]


def test_the_records_of_one_list_are_found_whatever_their_inner_xpaths_and_no_other() -> None:
    page = parse_html("""<html><body><nav><ul><li><a>Home</a></li><li><a>Shop</a></li></ul></nav><ul>
      <li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li><li><b>Tripod</b></li>
    </ul><dl><dt>Size</dt><dd>12</dd><dt>Weight</dt><dd>3 kg</dd></dl></body></html>""")
    records = [
        ["/body[1]/nav[1]/ul[1]/li[1]"], ["/body[1]/nav[1]/ul[1]/li[2]"],        # 0, 1: the menu
        ["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]/b[1]", "/body[1]/ul[1]/li[2]/i[1]"],  # 2, 3: products
        ["/body[1]/ul[1]/li[3]/b[1]"],                                             # 4: a field of the third
        ["/body[1]/dl[1]/dt[1]", "/body[1]/dl[1]/dd[1]"], ["/body[1]/dl[1]/dt[2]", "/body[1]/dl[1]/dd[2]"],  # 5, 6
        ["/body[1]/div[9]"],                                                       # 7: names nothing
    ]
    assert same_list(page, records[0], records) == [0, 1]
    assert same_list(page, records[2], records) == [2, 3]  # li[3]/b alone is a field, not an item of the list
    assert same_list(page, records[3], records) == [2, 3]
    assert same_list(page, records[5], records) == [5, 6]  # runs of dt + dd under one dl
    assert same_list(page, records[7], records) == []


def test_a_menu_of_links_is_one_list_and_a_container_or_a_neighbouring_list_is_not() -> None:
    page = parse_html("""<html><body><nav><ul>
      <li><a>Home</a></li><li><a>Shop</a><ul><li><a>Cups</a></li><li><a>Pots</a></li></ul></li><li><a>Help</a></li>
    </ul></nav>
    <dl><dt>Size</dt><dd>12</dd><dt>Weight</dt><dd>3 kg</dd></dl><dl><dt>Colour</dt><dd>red</dd></dl>
    </body></html>""")
    menu = "/body[1]/nav[1]/ul[1]"
    records = [
        [f"{menu}/li[1]/a[1]"], [f"{menu}/li[2]/a[1]"], [f"{menu}/li[3]/a[1]"],   # 0-2: links alone in their items
        [f"{menu}/li[2]/ul[1]/li[1]/a[1]"], [f"{menu}/li[2]/ul[1]/li[2]/a[1]"],     # 3, 4: the submenu's
        ["/body[1]/dl[1]/dt[1]", "/body[1]/dl[1]/dd[1]"], ["/body[1]/dl[1]/dt[2]", "/body[1]/dl[1]/dd[2]"],  # 5, 6
        ["/body[1]/dl[1]"],                                                          # 7: the whole first list
        ["/body[1]/dl[2]/dt[1]", "/body[1]/dl[2]/dd[1]"],                            # 8: a pair of the second
    ]
    assert same_list(page, records[1], records) == [0, 1, 2]  # the items are the list: one level up
    assert same_list(page, records[3], records) == [3, 4]     # a submenu is a list of its own
    assert same_list(page, records[5], records) == [5, 6]     # neither the container nor the next list
    lone = parse_html("<html><body><p><a>only</a></p><ul><li>a</li></ul></body></html>")
    assert same_list(lone, ["/body[1]/p[1]/a[1]"], [["/body[1]/p[1]/a[1]"], ["/body[1]/ul[1]/li[1]"]]) == [0]


def test_climbing_stops_below_the_whole_page() -> None:
    assert parent_xpath("/body[1]/ul[1]/li[2]") == "/body[1]/ul[1]"
    assert parent_xpath("/body[1]/ul[1]") is None and parent_xpath("/body[1]") is None
