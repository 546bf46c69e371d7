"""Transformations that move a container's children keep what each record names through the text map, which reads
an element's last text only: `wrap_records` leaves unwrapped a record with a text loose between its elements (the
wrapper would name it), and `shuffle_records` leaves in place the records of a container that would end on another
text. Here an outer record holds three records of two elements each, `<h3>T1</h3>mid1<p>P1</p>`: it names `mid3`,
not `Lead`, `mid1` nor `mid2`."""

from __future__ import annotations

from collections import Counter

import pytest

from recordlens.core.page.dom import Page, parse_html
from recordlens.core.synth.pipeline import Source, SynthOptions, synthesise_page

OUTER = "/html[1]/body[1]/main[1]/div[1]"
PAGE = ("<!DOCTYPE html><html><head><title>t</title></head><body><main><div class=\"outer\">Lead"
        + "".join(f"<h3>T{i}</h3>mid{i}<p>P{i}</p>" for i in range(1, 4)) + "</div></main></body></html>")
RECORDS = [[OUTER]] + [[f"{OUTER}/h3[{i}]", f"{OUTER}/p[{i}]"] for i in range(1, 4)]


def record_texts(page: Page, records: list[list[str]]) -> list[Counter[str]]:
    """The texts each record names through the text map."""
    named = []
    for record in records:
        keys = {k for xpath in record for k in page.text_keys_under(page.resolve(xpath))}  # type: ignore[arg-type]
        named.append(Counter(page.text_map[k] for k in keys))
    return named


@pytest.mark.parametrize("transform", ["wrap_records", "shuffle_records"])
@pytest.mark.parametrize("variant", [1, 2, 3])
def test_moving_records_keeps_what_each_record_and_the_page_name(transform: str, variant: int) -> None:
    source = parse_html(PAGE)
    assert record_texts(source, RECORDS)[0] == Counter(["mid3", "T1", "P1", "T2", "P2", "T3", "P3"])
    result = synthesise_page(Source("p", PAGE, RECORDS), variant, SynthOptions(content=False), chosen=[transform])
    page = parse_html(result.html)
    assert record_texts(page, result.records) == record_texts(source, RECORDS)
    assert Counter(page.text_map.values()) == Counter(source.text_map.values())


def test_wrap_records_still_wraps_the_records_without_a_loose_text() -> None:
    result = synthesise_page(Source("p", PAGE, RECORDS), 1, SynthOptions(content=False), chosen=["wrap_records"])
    assert result.transforms[0]["count"] == 1  # the outer record, alone in <main>
    assert parse_html(result.html).resolve(result.records[0][0]).parent.tag != "main"  # type: ignore[union-attr]
