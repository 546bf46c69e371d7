"""G on any item of a list of several-row items finds the same items as G on its first: the item picked may be the
one whose own row is empty (no points yet), walking back may meet an item that ends in an empty row (a list
without spacers, where that row is not a spacer), and an item may begin with an empty row. Hand-made tables only:
items of two or three rows, each row made up as its kind of row is (`<td><a>`, `<td><span>`, `<td><i>`), with or
without a spacer row after each item."""

from __future__ import annotations

import random

import pytest

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.siblings import sibling_records

BODY = "/body[1]/table[1]/tbody[1]"
CELLS = ("<td><a>{}</a></td>", "<td><span>{}</span> <a>{}</a></td>", "<td><i>{}</i></td>")
SPACER = '<tr class="spacer" style="height:5px"></tr>'


def _row(k: int, r: int, empty: bool) -> str:
    if r == 1 and empty:  # no points and no comments link yet: the row's cell is there, its text is not
        return "<tr><td><span></span></td></tr>"
    texts = ("",) * 2 if empty else (f"item {k} row {r}", f"{k} comments")
    return "<tr>" + CELLS[r].format(*texts) + "</tr>"


def _table(rows: int, empty: dict[int, set[int]], spacers: list[int], items: int = 6
           ) -> tuple[Page, list[list[str]]]:
    """`items` items of `rows` rows each, item k's rows `empty[k]` without text, item k followed by `spacers[k]`
    spacer rows; the items' rows by XPath."""
    html: list[str] = []
    truth: list[list[str]] = []
    for k in range(items):
        start = len(html) + 1
        html += [_row(k, r, r in empty.get(k, set())) for r in range(rows)]
        truth.append([f"{BODY}/tr[{start + r}]" for r in range(rows)])
        html += [SPACER] * spacers[k]
    return parse_html("<html><body><table>" + "".join(html) + "</table><p>More</p></body></html>"), truth


def _from_every_item(page: Page, truth: list[list[str]]) -> list[int]:
    """The items G picked on does not pair as the list's items (none when G on each finds every other)."""
    return [k for k, record in enumerate(truth)
            if sibling_records(page, record) != [other for j, other in enumerate(truth) if j != k]]


def test_picking_the_item_whose_own_row_is_empty_walks_back_over_the_spacer_to_the_items_before() -> None:
    # Item 3's second row is empty: picked, it walked back pairing item 2's second row with the spacer after it.
    page, truth = _table(2, {2: {1}}, [1] * 6)
    assert sibling_records(page, truth[2]) == truth[:2] + truth[3:]
    assert _from_every_item(page, truth) == []


def test_a_list_without_spacers_whose_item_ends_in_an_empty_row_walking_back_past_it() -> None:
    # Item 3 ends in an empty row: from items 4 to 6, walking back took that row for a spacer and paired item 2's
    # second row with item 3's first.
    page, truth = _table(2, {2: {1}}, [0] * 6)
    assert sibling_records(page, truth[5]) == truth[:5]
    assert _from_every_item(page, truth) == []


@pytest.mark.parametrize("spacers", [[1] * 6, [0] * 6, [1, 0, 2, 1, 0, 1]])
def test_the_last_item_or_two_in_a_row_with_an_empty_row(spacers: list[int]) -> None:
    for empty in ({5: {1}}, {1: {1}, 2: {1}}, {0: {1}}):
        page, truth = _table(2, empty, spacers)
        assert _from_every_item(page, truth) == [], empty


def test_an_item_whose_first_row_is_empty_after_a_spacer() -> None:
    page, truth = _table(2, {3: {0}}, [1] * 6)
    assert _from_every_item(page, truth) == []


def test_any_item_of_random_lists_of_two_or_three_rows_finds_the_others() -> None:
    rng = random.Random(41)
    for _ in range(60):
        rows, items = rng.choice([2, 3]), rng.randint(4, 8)
        spacing = rng.choice(["none", "one", "some"])
        spacers = [{"none": 0, "one": 1, "some": rng.randint(0, 2)}[spacing] for _ in range(items)]
        empty = {k: {r} for k in range(items) if rng.random() < 0.3 for r in [rng.randrange(rows)]}
        page, truth = _table(rows, empty, spacers, items)
        assert _from_every_item(page, truth) == [], (rows, spacers, empty)


def test_g_from_the_last_item_of_a_long_table_finds_every_other() -> None:
    # 3,000 items with a spacer each, every 50th with its second row empty: G from the last one walks back over
    # 9,000 rows (it read the container's children again for every place it tried: seconds each G).
    page, truth = _table(2, {k: {1} for k in range(0, 3000, 50)}, [1] * 3000, items=3000)
    assert sibling_records(page, truth[-1]) == truth[:-1]
