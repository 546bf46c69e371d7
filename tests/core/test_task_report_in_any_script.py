"""`agent tasks report` with categories in a non-Latin script (Japanese 検索, 比較): its table keeps its columns in
line by display width (a CJK character takes two columns), and its funnel chart raises no Python warning per
character (a character no installed font has is said once, in RecordLens's own warning line)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from recordlens.core.agent.funnel import Funnel, FunnelRow, format_funnel, write_funnel_chart
from recordlens.core.text_forms import display_width


def japanese_funnel() -> Funnel:
    rows = [FunnelRow("検索", generated=3, refined=2, similar=1), FunnelRow("比較", generated=2, refined=2)]
    return Funnel(categories=rows, total=FunnelRow("total", generated=5, refined=4, similar=1))


def test_the_funnel_table_lines_up_japanese_categories_by_display_width() -> None:
    lines = [line for line in format_funnel(japanese_funnel()).splitlines() if not line.startswith("note")]
    header, rows = lines[0], lines[1:]
    assert len({display_width(line) for line in [header, *rows]}) == 1, lines
    generated_ends = display_width(header[:header.index("generated") + len("generated")])
    for row in rows:
        start = row.index(" ", len(row.split(" ")[0]))  # past the category (no space in these)
        figure = row[start:].lstrip(" ").split(" ")[0]
        assert display_width(row[:row.index(figure, start) + len(figure)]) == generated_ends, row


def test_the_funnel_chart_of_japanese_categories_raises_no_python_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chart = write_funnel_chart(japanese_funnel(), tmp_path / "funnel.png")
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == []
    said = capsys.readouterr().err
    assert said == "" or (said.count("\n") == 1 and said.startswith("warning: chart")), said
