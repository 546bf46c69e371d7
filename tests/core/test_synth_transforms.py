"""Each structural transformation does what it says on the demo pages and on a page full of parser traps,
and the records' labels follow them: same count, every XPath resolves, the same words in each record."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.synth.pipeline import Source, SynthOptions, SynthPage, synthesise_page
from recordlens.core.synth.transforms import TRANSFORMS

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"
STRUCTURE_ONLY = SynthOptions(content=False)

# Records in places where a careless wrapper would be moved by the HTML parser: table rows and cells, list
# items inside a paragraph's neighbour, options, dt/dd pairs, SVG text, spans inside a paragraph.
TRAPS = """<!DOCTYPE html><html><head><title>Traps</title></head><body>
<nav><a href="/a">Home</a> <a href="/b">About</a></nav>
<table><caption>Scores</caption><colgroup><col><col></colgroup>
<tr><td>Alpha</td><td>1</td></tr><tr><td>Beta</td><td>2</td></tr><tr><td>Gamma</td><td>3</td></tr></table>
<table><tr><td>Left cell</td><td>Right cell</td><td>Third cell</td></tr></table>
<p>Inline <span>first</span> and <span>second</span> and <span>third</span>.</p>
<select><option>One</option><option>Two</option><option>Three</option></select>
<dl><dt>Term A</dt><dd>Def A</dd><dt>Term B</dt><dd>Def B</dd></dl>
<svg><text>Svg one</text><text>Svg two</text></svg>
<ul><li>Outer one <ul><li>Inner a</li><li>Inner b</li></ul></li><li>Outer two</li></ul>
<footer>Footer text</footer>
</body></html>"""
TRAP_RECORDS = [
    ["/body[1]/table[1]/tbody[1]/tr[1]"], ["/body[1]/table[1]/tbody[1]/tr[2]"], ["/body[1]/table[1]/tbody[1]/tr[3]"],
    ["/body[1]/table[2]/tbody[1]/tr[1]/td[1]"], ["/body[1]/table[2]/tbody[1]/tr[1]/td[2]"],
    ["/body[1]/table[2]/tbody[1]/tr[1]/td[3]"],
    ["/body[1]/p[1]/span[1]"], ["/body[1]/p[1]/span[2]"], ["/body[1]/p[1]/span[3]"],
    ["/body[1]/select[1]/option[1]"], ["/body[1]/select[1]/option[2]"], ["/body[1]/select[1]/option[3]"],
    ["/body[1]/dl[1]/dt[1]", "/body[1]/dl[1]/dd[1]"], ["/body[1]/dl[1]/dt[2]", "/body[1]/dl[1]/dd[2]"],
    ["/body[1]/svg[1]/text[1]"], ["/body[1]/svg[1]/text[2]"],
    ["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"],
    ["/body[1]/ul[1]/li[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[1]/ul[1]/li[2]"],
    ["/body[1]/missing[1]"],
]


def demo_source(name: str) -> Source:
    return Source(name, (DEMO / "html" / f"{name}.html").read_text(encoding="utf-8"),
                  json.loads((DEMO / "gt" / f"{name}.json").read_text(encoding="utf-8")))


def record_words(page: Page, records: list[list[str]]) -> list[Counter[str]]:
    words = []
    for record in records:
        elements = [page.resolve(x) for x in record]
        assert all(e is not None for e in elements), record
        words.append(Counter(" ".join(e.text() for e in elements if e is not None).split()))
    return words


def assert_labels_follow(source: Source, result: SynthPage) -> Page:
    before = parse_html(source.html)
    after = parse_html(result.html)
    kept = [r for r in source.records if any(before.resolve(x) is not None for x in r)]
    assert len(result.records) == len(kept)
    assert record_words(after, result.records) == record_words(before, [
        [x for x in r if before.resolve(x) is not None] for r in kept])
    assert not result.warnings
    return after


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("name", ["1", "2", "3", "4"])
def test_each_transformation_keeps_the_records_on_the_demo_pages(name: str, transform: str) -> None:
    source = demo_source(name)
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=[transform])
    assert_labels_follow(source, result)
    assert [t["name"] for t in result.transforms] == [transform]


@pytest.mark.parametrize("seed", range(6))
def test_all_transformations_together_survive_the_parser_traps(seed: int) -> None:
    source = Source("traps", TRAPS, TRAP_RECORDS)
    result = synthesise_page(source, 1, SynthOptions(seed=seed, content=False, rate=1.0))
    assert result.dropped_xpaths == ["/body[1]/missing[1]"] and result.dropped_records == [len(TRAP_RECORDS)]
    assert_labels_follow(source, result)
    changed = synthesise_page(source, 1, SynthOptions(seed=seed, rate=1.0))
    assert len(changed.records) == len(TRAP_RECORDS) - 1 and not changed.warnings


def depth(xpath: str) -> int:
    return xpath.count("/")


def test_wrap_records_puts_each_record_one_level_deeper() -> None:
    source = demo_source("1")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=["wrap_records"])
    assert [depth(r[0]) for r in result.records] == [depth(r[0]) + 1 for r in source.records]
    assert len({r[0].rsplit("/", 2)[0] for r in result.records}) == 1  # one container still holds them


def test_wrap_container_adds_levels_above_the_records() -> None:
    source = demo_source("3")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=["wrap_container"])
    added = result.transforms[0]["count"]
    assert added in (1, 2)
    assert all(depth(new[0]) == depth(old[0]) + added for new, old in zip(result.records, source.records,
                                                                            strict=True))


def test_shuffle_records_changes_their_order_and_keeps_the_label_order() -> None:
    source = demo_source("2")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=["shuffle_records"])
    assert sorted(result.records) == sorted(source.records)  # the same slots...
    assert result.records != source.records  # ...filled by other records; the n-th label is still record n
    before, after = parse_html(source.html), parse_html(result.html)
    assert record_words(after, result.records) == record_words(before, source.records)


def test_table_rows_become_cards_and_cards_become_rows() -> None:
    table = synthesise_page(demo_source("2"), 1, STRUCTURE_ONLY, chosen=["table_cards"])
    assert not any("/tr[" in x or "/table[" in x for r in table.records for x in r)
    cards = synthesise_page(demo_source("1"), 1, STRUCTURE_ONLY, chosen=["table_cards"])
    assert all("/table[1]/tbody[1]/tr[" in r[0] for r in cards.records)


def test_rename_container_changes_the_container_tag() -> None:
    source = demo_source("1")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=["rename_container"])
    old, new = source.records[0][0].split("/")[-2], result.records[0][0].split("/")[-2]
    assert old.split("[")[0] != new.split("[")[0]


@pytest.mark.parametrize(("transform", "sign"), [("remove_chrome", -1), ("insert_chrome", 1), ("reorder_chrome", 0)])
def test_chrome_changes_the_elements_around_the_records(transform: str, sign: int) -> None:
    source = demo_source("4")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=[transform])
    before, after = parse_html(source.html), parse_html(result.html)
    difference = len(after.elements) - len(before.elements)
    assert (difference > 0) - (difference < 0) == sign
    assert after.element_xpaths() != before.element_xpaths() or sign == 0 and result.transforms[0]["count"] > 0


def test_nest_records_gives_each_record_element_a_single_inner_child() -> None:
    result = synthesise_page(demo_source("3"), 1, STRUCTURE_ONLY, chosen=["nest_records"])
    page = parse_html(result.html)
    for record in result.records:
        element = page.resolve(record[0])
        assert element is not None and len(element.element_children()) == 1
        assert not element.own_texts()


def test_attributes_change_classes_in_the_records() -> None:
    source = demo_source("1")
    result = synthesise_page(source, 1, STRUCTURE_ONLY, chosen=["attributes"])
    before, after = parse_html(source.html), parse_html(result.html)
    old = [before.resolve(r[0]).attrs for r in source.records]  # type: ignore[union-attr]
    new = [after.resolve(r[0]).attrs for r in result.records]  # type: ignore[union-attr]
    assert old != new
    assert not any("data-rl-id" in attrs for attrs in new)
