"""A record's first texts, as the status bar says them after J or K and the record list shows them, read a
bracket's texts as one: a reference "[7]" made of three texts ("[", "7", "]") is "[7]", and a line cut to its
first texts or its length never ends on a lone "[" (verifier's report v34, finding 5: "… · Preliminary results ·
[" on every row of a table)."""

from __future__ import annotations

from tests.app.window_helpers import key, record_rows, said, window_on_page

CELLS = "<td>Japan</td><td>1,550,000,000</td><td>18.5%</td><td>28 Feb 2025</td>"
REFERENCE = '<sup><a href="#n7">[</a><span>7</span><a href="#n7">]</a></sup>'
SHORT = f"<tr>{CELLS}<td>Final {REFERENCE}</td></tr>"
LONG = f"<tr>{CELLS}<td>Preliminary results {REFERENCE}</td></tr>"  # one character over the line's 70
PAGE = f"<!doctype html><html><body><table><tbody>{SHORT}{LONG}</tbody></table></body></html>"
RECORDS = [["/body[1]/table[1]/tbody[1]/tr[1]"], ["/body[1]/table[1]/tbody[1]/tr[2]"]]


def first_line(row: str) -> str:
    return row.splitlines()[0].strip("\u2068\u2069")


def test_j_says_a_reference_whole_and_a_cut_line_ends_on_no_lone_bracket(qtbot, tmp_path):
    with window_on_page(qtbot, tmp_path, PAGE, RECORDS) as window:
        key(window, "J")
        qtbot.waitUntil(lambda: said(window).startswith("record 1 selected"), timeout=5_000)
        assert said(window).strip("\u2068\u2069").endswith("28 Feb 2025 · Final · [7]"), said(window)
        key(window, "J")
        qtbot.waitUntil(lambda: said(window).startswith("record 2 selected"), timeout=5_000)
        line = said(window).strip("\u2068\u2069")
        assert line.endswith("28 Feb 2025 · Preliminary results · …"), line
        rows = [first_line(row) for row in record_rows(window)]
        assert rows[0].endswith("Final · [7]") and rows[1].endswith("Preliminary results · …"), rows
