"""The project's own demo dataset (resources/demo/dataset): its ground truth agrees with the core's DOM."""

from __future__ import annotations

import json
import re
from itertools import combinations
from pathlib import Path

import pytest

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.model import TextKeyIndex

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"

# page -> (number of records, XPaths per record)
DESIGN = {"1": (16, 1), "2": (18, 1), "3": (12, 1), "4": (12, 2)}
XPATH = re.compile(r"^/body\[1\](/[a-z][a-z0-9]*\[[1-9]\d*\])+$")


def load(name: str) -> tuple[str, Page, list[list[str]]]:
    text = (DEMO / "html" / f"{name}.html").read_text(encoding="utf-8")
    records = json.loads((DEMO / "gt" / f"{name}.json").read_text(encoding="utf-8"))
    return text, parse_html(text), records


def test_the_dataset_holds_exactly_the_designed_pages() -> None:
    assert sorted(p.stem for p in (DEMO / "html").glob("*.html")) == sorted(DESIGN)
    assert sorted(p.stem for p in (DEMO / "gt").glob("*.json")) == sorted(DESIGN)


@pytest.mark.parametrize("name", sorted(DESIGN))
def test_record_counts_are_as_designed(name: str) -> None:
    _, _, records = load(name)
    count, width = DESIGN[name]
    assert len(records) == count
    assert all(len(record) == width for record in records)


@pytest.mark.parametrize("name", sorted(DESIGN))
def test_every_xpath_resolves_and_covers_text(name: str) -> None:
    _, page, records = load(name)
    for record in records:
        for xpath in record:
            assert XPATH.match(xpath), xpath
            element = page.resolve(xpath)
            assert element is not None, xpath
            assert element.xpath == xpath
            assert page.text_keys_under(element), f"{xpath} covers no text"


@pytest.mark.parametrize("name", sorted(DESIGN))
def test_records_do_not_overlap(name: str) -> None:
    _, page, records = load(name)
    expanded = TextKeyIndex(page.text_map).expand_all(records)
    assert all(expanded)
    for (i, a), (j, b) in combinations(enumerate(expanded), 2):
        assert not a & b, f"records {i + 1} and {j + 1} share text entries"
    xpaths = [x for record in records for x in record]
    assert len(set(xpaths)) == len(xpaths)
    for a, b in combinations(xpaths, 2):
        assert not a.startswith(b + "/") and not b.startswith(a + "/"), (a, b)


@pytest.mark.parametrize("name", sorted(DESIGN))
def test_ground_truth_matches_the_data_record_markers(name: str) -> None:
    _, page, records = load(name)
    marked: dict[int, list[str]] = {}
    for element in page.elements:
        if (k := element.attrs.get("data-record")) is not None:
            marked.setdefault(int(k or 0), []).append(element.xpath)
    assert [marked[k] for k in sorted(marked)] == records


def test_the_table_rows_sit_in_the_implied_tbody() -> None:
    text, _, records = load("2")
    assert "<tbody" not in text
    assert all("/table[1]/tbody[1]/tr[" in record[0] for record in records)


def test_the_job_records_are_a_heading_and_its_details() -> None:
    _, page, records = load("4")
    for title, details in records:
        heading, block = page.resolve(title), page.resolve(details)
        assert heading is not None and block is not None
        assert (heading.tag, block.tag) == ("h3", "div")
        assert heading.parent is block.parent


@pytest.mark.parametrize("name", sorted(DESIGN))
def test_pages_are_self_contained(name: str) -> None:
    path = DEMO / "html" / f"{name}.html"
    text, _, _ = load(name)
    assert 8_000 <= path.stat().st_size <= 25_000
    assert text.startswith("<!DOCTYPE html>")
    assert '<meta charset="utf-8">' in text and "<title>" in text and "<style>" in text
    assert "<script" not in text.lower() and "<!--" in text
    assert {"é", "€", "–"} <= set(text)
    hosts = set(re.findall(r"https?://([^/\"'\s>]+)", text))
    assert hosts and all(h == "example.com" or h.endswith((".example.com", ".example.org")) or h == "example.org"
                         for h in hosts), hosts
