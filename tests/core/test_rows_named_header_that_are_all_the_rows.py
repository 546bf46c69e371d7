"""Rows whose class or id names a header are records when every row of the table is so named (an inbox's
`msg-header` rows); beside rows not so named they head them (a group's sub-header row) and are left out."""

from __future__ import annotations

from recordlens.core.extract.candidates import page_candidates
from recordlens.core.page.dom import parse_html

ROW = ('<tr class="{css}"><td><a href="/m/{k}">Sender {k}</a></td><td>Subject line {k}</td>'
       '<td>{k} May</td></tr>')


def _row_regions(rows: str) -> list[int]:
    page = parse_html(f"<html><body><main><table><tbody>{rows}</tbody></table></main></body></html>")
    return sorted(c.region.count for c in page_candidates(page).candidates if c.region.records[0][0].tag == "tr")


def test_rows_whose_class_names_a_header_are_records_when_they_are_all_the_rows() -> None:
    assert 10 in _row_regions("".join(ROW.format(css="msg-header", k=k) for k in range(10)))
    ided = "".join(ROW.format(css="msg", k=k).replace("<tr ", f'<tr id="header-{k}" ') for k in range(10))
    assert 10 in _row_regions(ided)


def test_a_sub_header_row_among_other_rows_heads_them() -> None:
    group = '<tr class="sub-header"><td>Group {g}</td><td>Total</td><td>Date</td></tr>'
    rows = "".join(group.format(g=g) + "".join(ROW.format(css="row", k=k) for k in range(4)) for g in range(3))
    assert 12 in _row_regions(rows) and 15 not in _row_regions(rows)
