"""`agent eval` with categories in a non-Latin script (Japanese 検索, 比較): its chart draws them in an installed font
that has their characters, not as boxes in matplotlib's default DejaVu Sans; a character no installed font has is
said once in RecordLens's own warning line, never as a Python warning per character with a source path; and its
table keeps its columns in line by display width (a CJK character takes two columns), as `score`'s does."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from matplotlib import font_manager

from recordlens.core.agent.evaluate import Evaluation, Figures, format_table, write_chart
from recordlens.core.runs.charts import PLACEHOLDER_FAMILIES, draw_grouped_bars, fonts_for, grouped_bars
from recordlens.core.text_forms import display_width

CATEGORIES = ("検索", "比較")
NO_FONT_HAS = "\u0378\u0379"  # unassigned code points: no font has a glyph for them


def figures(category: str, success: float) -> Figures:
    return Figures(category, 1, 1, 1, success, {0: success}, 1.0, 1.0 if success else None, None)


def japanese_evaluation() -> Evaluation:
    return Evaluation(overall=figures("overall", 0.5), categories=[figures(c, float(c == "検索")) for c in CATEGORIES])


def installed_fonts_having(text: str) -> list[str]:
    """The installed families (placeholder fonts aside) that have every character of `text`, looked at directly."""
    return sorted({entry.name for entry in font_manager.fontManager.ttflist
                   if not entry.name.startswith(PLACEHOLDER_FAMILIES)
                   and {ord(c) for c in text} <= set(font_manager.get_font(entry.fname).get_charmap())})


def characters_of_family(family: str) -> set[int]:
    try:
        found = font_manager.findfont(font_manager.FontProperties(family=[family]), fallback_to_default=False)
    except ValueError:
        return set()
    return set(font_manager.get_font(found).get_charmap())


def python_warnings(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning)]


def test_the_eval_chart_of_japanese_categories_draws_them_in_a_font_that_has_them_without_python_warnings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chart = write_chart(japanese_evaluation(), tmp_path / "eval.png")
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert python_warnings(caught) == []
    said = capsys.readouterr().err
    if not installed_fonts_having("".join(CATEGORIES)):
        assert said.count("warning: chart") == 1 and "U+691C" in said, said
        pytest.skip("no installed font has CJK characters: only the warning can be checked here")
    assert said == ""
    figure = draw_grouped_bars([*CATEGORIES, "overall"], [("success", [1.0, 0.0, 0.5])])
    figure.canvas.draw()
    for label in figure.axes[0].get_xticklabels():
        drawn_with = set().union(*(characters_of_family(f) for f in label.get_fontfamily()))
        assert {ord(c) for c in label.get_text()} <= drawn_with, (label.get_text(), label.get_fontfamily())
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_characters_no_installed_font_has_are_said_once_in_one_line_of_recordlens_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        grouped_bars(tmp_path / "c.png", [NO_FONT_HAS, "overall"], [("success", [1.0, None])])
    assert python_warnings(caught) == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"warning: chart {tmp_path / 'c.png'}: no installed font has 2 characters")
    assert "U+0378" in lines[0] and "U+0379" in lines[0] and ".py" not in lines[0]


def test_a_font_installed_after_matplotlib_listed_the_fonts_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    having = installed_fonts_having(CATEGORIES[0])
    if not having:
        pytest.skip("no installed font has CJK characters")
    listed = [entry for entry in font_manager.fontManager.ttflist if entry.name not in having]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", listed)  # as matplotlib's cache made before them
    fonts = fonts_for([CATEGORIES[0]])
    assert fonts.missing == "" and set(fonts.families) & set(having), fonts


def test_latin_labels_keep_matplotlibs_default_font() -> None:
    import matplotlib

    assert fonts_for(["lookup", "overall", "n/a"]).families == tuple(matplotlib.rcParams["font.family"])


def test_the_eval_table_lines_up_japanese_categories_by_display_width() -> None:
    lines = format_table(japanese_evaluation()).splitlines()
    header, rows = lines[0], lines[1:]
    assert len({display_width(line) for line in lines}) == 1, lines
    tasks_ends = display_width(header[:header.index("tasks") + len("tasks")])
    for row in rows:
        figures_start = row.index(" 1 ")  # every row here has 1 task
        assert display_width(row[:figures_start + 2]) == tasks_ends, row
