"""The structural transformations do a page's work in passes over each container's children, not a scan per record:
a 50,000-row table took minutes (a scan of the table's rows to find each row). Not timed: the look-ups one at a time
(`position`) are counted, and the one-pass helpers are held to the one-at-a-time results they replace."""

from __future__ import annotations

import pytest

from recordlens.core.page.dom import Element
from recordlens.core.synth import transforms
from recordlens.core.synth.pipeline import TRANSFORM_NAMES, Source, SynthOptions, synthesise_page
from recordlens.core.synth.transforms import new_element, position, positions, remove, remove_all, wrap, wrap_spans


def table_and_cards(rows: int) -> Source:
    """A table whose rows are records and a list of cards with chrome between them: every transformation applies."""
    table = "".join(f"<tr><td>row {i}</td><td><a href='/x{i}'>link {i}</a></td></tr>" for i in range(rows))
    cards = "".join(f"<div class=c><h3>card {i}</h3><span>{i}</span></div><p>ad {i}</p>" for i in range(rows))
    html = f"<html><body><p>head</p><table>{table}</table><div class=list>{cards}</div><p>foot</p></body></html>"
    records = [[f"/body[1]/table[1]/tbody[1]/tr[{i}]"] for i in range(1, rows + 1)]
    records += [[f"/body[1]/div[1]/div[{i}]"] for i in range(1, rows + 1)]
    return Source("1", html, records)


def one_at_a_time_lookups(rows: int, monkeypatch: pytest.MonkeyPatch) -> int:
    calls = 0

    def counted(node: Element) -> int:
        nonlocal calls
        calls += 1
        return position(node)

    monkeypatch.setattr(transforms, "position", counted)
    synthesise_page(table_and_cards(rows), 1, SynthOptions(seed=3, rate=1.0), chosen=TRANSFORM_NAMES)
    return calls


def test_the_one_at_a_time_lookups_do_not_grow_with_the_records(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each such look-up scans its parent's children: one per record made synth quadratic in a page's records.
    # What is left are a few wraps around whole containers (wrap_container: one or two levels for each of two).
    assert one_at_a_time_lookups(40, monkeypatch) <= 4
    assert one_at_a_time_lookups(400, monkeypatch) <= 4


def children_of(parent: Element) -> list[object]:
    """The parent's children as comparable values: texts, and (tag, children) for elements."""
    return [c if isinstance(c, str) else (c.tag, children_of(c)) for c in parent.children]


def siblings() -> Element:
    """<div>a<b>1</b>b<i>2</i><u>3</u>c<s>4</s><em>5</em>d</div>, built as the transformations build elements."""
    return new_element("div", {}, ["a", new_element("b", {}, ["1"]), "b", new_element("i", {}, ["2"]),
                                   new_element("u", {}, ["3"]), "c", new_element("s", {}, ["4"]),
                                   new_element("em", {}, ["5"]), "d"])


def test_positions_are_the_look_ups_one_at_a_time() -> None:
    div = siblings()
    index = positions(div)
    assert [index[id(c)] for c in div.element_children()] == [position(c) for c in div.element_children()]


def test_wrap_spans_makes_the_tree_successive_wraps_make() -> None:
    one_by_one, in_one_pass = siblings(), siblings()
    spans = [(1, 2), (3, 5), (7, 8)]  # <b>; <i><u>; <em> (children: a <b> b <i> <u> c <s> <em> d)
    for start, end in reversed(spans):  # from the last, so that a wrap does not shift the spans still to wrap
        wrap(one_by_one.children[start:end], new_element("span", {"class": "w"}))
    wrappers = [(start, end, new_element("span", {"class": "w"})) for start, end in spans]
    wrap_spans(in_one_pass, wrappers)
    assert children_of(in_one_pass) == children_of(one_by_one)
    assert [c.tag for w in one_by_one.element_children() if w.tag == "span" for c in w.element_children()] == [
        "b", "i", "u", "em"]
    assert all(w.parent is in_one_pass and all(c.parent is w for c in w.element_children()) for _, _, w in wrappers)


def test_remove_all_leaves_what_removing_one_at_a_time_leaves() -> None:
    one_by_one, in_one_pass = siblings(), siblings()
    for element in [c for c in one_by_one.element_children() if c.tag in ("b", "u", "em")]:
        remove(element)
    gone = [c for c in in_one_pass.element_children() if c.tag in ("b", "u", "em")]
    remove_all(gone)
    assert children_of(in_one_pass) == children_of(one_by_one)
    assert all(e.parent is None for e in gone)
