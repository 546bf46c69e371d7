"""A table row heads the rows below it by its structure (header cells, a table head, a first row unlike all the
rows after it), never by the words of its class or id: an inbox's rows classed `msg-header` are its records."""

from __future__ import annotations

from recordlens.core.extract.candidates import page_candidates
from recordlens.core.extract.repeats import PageFacts, Parameters, find_regions
from recordlens.core.page.dom import parse_html

ROW = ('<tr class="{css}"><td><a href="/m/{k}">Sender {k}</a></td><td>Subject line {k}</td>'
       '<td>{k} May</td></tr>')


def _table(head: str, rows: str) -> str:
    return f"<html><body><main><table>{head}<tbody>{rows}</tbody></table></main></body></html>"


def _row_regions(html: str) -> list[int]:
    page = parse_html(html)
    return sorted(c.region.count for c in page_candidates(page).candidates if c.region.records[0][0].tag == "tr")


def test_rows_whose_class_names_a_header_are_records_when_they_are_the_rows() -> None:
    rows = "".join(ROW.format(css="msg-header", k=k) for k in range(10))
    assert 10 in _row_regions(_table("", rows))
    ided = "".join(ROW.format(css="msg", k=k).replace("<tr ", f'<tr id="header-{k}" ') for k in range(10))
    assert 10 in _row_regions(_table("", ided))


def test_rows_of_header_cells_a_table_head_or_a_first_row_unlike_the_rest_head_the_rows() -> None:
    rows = "".join(ROW.format(css="row", k=k) for k in range(8))
    labels = "<tr><th>From</th><th>Subject</th><th>Date</th></tr>"
    for html in (_table("", labels + rows), _table(f"<thead>{labels}{labels}</thead>", rows),
                 _table("", "<tr><td colspan='3'><b>Inbox</b> <i>8 messages</i> <u>new</u> <s>old</s></td></tr>"
                            + rows)):
        page = parse_html(html)
        counts = [r.count for r in find_regions(PageFacts(page, 4), Parameters()) if r.records[0][0].tag == "tr"]
        assert counts == [8], html


def test_a_sub_header_row_of_header_cells_among_other_rows_heads_them() -> None:
    group = "<tr><th>Group {g}</th><th>Total</th><th>Date</th></tr>"
    rows = "".join(group.format(g=g) + "".join(ROW.format(css="row", k=k) for k in range(4)) for g in range(3))
    assert 12 in _row_regions(_table("", rows)) and 15 not in _row_regions(_table("", rows))


def test_a_table_drawn_in_header_cells_keeps_its_rows() -> None:
    rows = "".join(f'<tr><th><a href="/m/{k}">Sender {k}</a></th><th>Subject line {k}</th><th>{k} May</th></tr>'
                   for k in range(8))
    assert 8 in _row_regions(_table("", rows))


def test_a_table_with_its_head_keeps_a_first_row_unlike_the_rest() -> None:
    labels = "<thead><tr><th>From</th><th>Subject</th><th>Date</th></tr></thead>"
    featured = ('<tr><td colspan="3"><img src="x.png" alt=""><h3><a href="/m/top">Pinned message</a></h3>'
                "<p>Read this first: the notes of the week</p></td></tr>")
    rows = featured + "".join(ROW.format(css="row", k=k) for k in range(7))
    page = parse_html(_table(labels, rows))
    counts = [r.count for r in find_regions(PageFacts(page, 4), Parameters()) if r.records[0][0].tag == "tr"]
    assert 8 in counts, counts
