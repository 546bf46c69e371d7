"""G on a record of several table rows where the items are parted by rows that hold no text (a spacer row after
each item, as some link-aggregator tables have): the rows between items belong to no record, so every sibling is
an item's own rows, never the spacer and the next item's first row. Hand-made pages only."""

from __future__ import annotations

import random

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.siblings import same_list, sibling_records

BODY = "/body[1]/table[1]/tbody[1]"
SPACER = '<tr class="gap" style="height:5px"></tr>'


def _item_rows(k: int, rows: int) -> list[str]:
    cells = ["<td><a>Item {k} headline</a></td>", "<td><span>{k} points</span> <a>{k} comments</a></td>",
             "<td><i>note {k}</i></td>"]
    return [f"<tr>{cells[r].format(k=k)}</tr>" for r in range(rows)]


def _table(items: int, rows: int, spacers: list[int], header: bool = False) -> tuple[Page, list[list[str]]]:
    """A table of `items` items of `rows` rows each, item k followed by `spacers[k]` empty rows, and the true
    records (each item's rows by XPath)."""
    html: list[str] = ["<tr><th>Front page</th></tr>"] if header else []
    truth: list[list[str]] = []
    for k in range(items):
        start = len(html) + 1
        html += _item_rows(k + 1, rows)
        truth.append([f"{BODY}/tr[{start + r}]" for r in range(rows)])
        html += [SPACER] * spacers[k]
    page = parse_html("<html><body><table>" + "".join(html) + "</table><p>More</p></body></html>")
    return page, truth


def _others(truth: list[list[str]], picked: int) -> list[list[str]]:
    return [record for k, record in enumerate(truth) if k != picked]


def test_items_of_two_rows_each_followed_by_a_spacer_are_paired_as_items() -> None:
    page, truth = _table(10, 2, [1] * 10)
    for picked in (0, 4, 9):  # the first, one in the middle (the walk goes back as well), the last
        assert sibling_records(page, truth[picked]) == _others(truth, picked), picked
    # A record of fields in those rows (the headline link, the points) is paired the same way.
    fields = [[f"{rows[0]}/td[1]/a[1]", f"{rows[1]}/td[1]/span[1]"] for rows in truth]
    assert sibling_records(page, fields[2]) == _others(fields, 2)


def test_items_of_three_rows_with_spacers_and_a_last_item_without_one() -> None:
    page, truth = _table(6, 3, [1, 1, 1, 1, 1, 0])
    assert sibling_records(page, truth[0]) == _others(truth, 0)
    assert sibling_records(page, truth[5]) == _others(truth, 5)


def test_items_without_spacers_step_one_item_at_a_time_as_before() -> None:
    page, truth = _table(8, 2, [0] * 8)
    assert sibling_records(page, truth[3]) == _others(truth, 3)
    page, truth = _table(5, 3, [0] * 5)
    assert sibling_records(page, truth[0]) == _others(truth, 0)


def test_irregular_spacers_and_a_header_row_do_not_shift_the_items() -> None:
    spacers = random.Random(7).choices([0, 1, 2, 3], k=12)
    page, truth = _table(12, 2, spacers, header=True)
    for picked in (0, 5, 11):
        assert sibling_records(page, truth[picked]) == _others(truth, picked), (picked, spacers)


def test_a_record_that_takes_in_its_spacer_moves_with_it() -> None:
    # The labeller selected an item's rows and the spacer after it: its siblings are the same, spacer included,
    # however many spacers follow an item.
    page, _ = _table(5, 2, [1, 2, 1, 1, 1])
    with_spacer = [[f"{BODY}/tr[{start + r}]" for r in range(3)] for start in (1, 4, 8, 11, 14)]
    assert sibling_records(page, with_spacer[3]) == _others(with_spacer, 3)


def test_an_item_whose_first_or_last_row_is_empty_keeps_its_place_in_a_list_without_spacers() -> None:
    # dt/dd pairs where one term and one definition are empty: they are items still, and the pace is kept.
    page = parse_html("<html><body><dl><dt>a</dt><dd>1</dd><dt></dt><dd>2</dd><dt>c</dt><dd>3</dd>"
                      "<dt>d</dt><dd></dd><dt>e</dt><dd>5</dd></dl></body></html>")
    pair = [[f"/body[1]/dl[1]/dt[{k}]", f"/body[1]/dl[1]/dd[{k}]"] for k in range(1, 6)]
    assert sibling_records(page, pair[0]) == _others(pair, 0)
    assert sibling_records(page, pair[4]) == _others(pair, 4)


def test_shift_g_selects_the_items_of_the_list_g_made() -> None:
    page, truth = _table(4, 2, [1] * 4)
    records = [truth[1], *sibling_records(page, truth[1])]
    assert same_list(page, truth[1], records) == [0, 1, 2, 3]


def test_an_item_whose_second_row_is_empty_is_paired_on_its_own_rows_not_the_spacer_before_it() -> None:
    # Six two-row items each followed by a spacer; item 3 has no points yet (its second row holds no text). The
    # walk, both ways, must make item 3's own rows a record, never [spacer, item 3's first row].
    rows: list[str] = []
    truth: list[list[str]] = []
    for k in range(1, 7):
        start = len(rows) + 1
        second = f"<td><span>{k} points</span></td>" if k != 3 else "<td><span></span></td>"
        rows += [f"<tr><td><a>Item {k} headline</a></td></tr>", f"<tr>{second}</tr>", SPACER]
        truth.append([f"{BODY}/tr[{start}]", f"{BODY}/tr[{start + 1}]"])
    page = parse_html("<html><body><table>" + "".join(rows) + "</table><p>More</p></body></html>")
    for picked in (0, 1, 3, 5):  # before the empty-row item (walking on) and after it (walking back)
        assert sibling_records(page, truth[picked]) == _others(truth, picked), picked
