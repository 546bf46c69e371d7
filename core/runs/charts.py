"""Grouped bar charts as PNG files (matplotlib's Agg backend: no display needed), for `bench` and `agent eval`.

A value of None is *missing* (an agreement with no reference, a figure that was not measured): it gets no bar
and an "n/a" mark on the axis in its slot, never a bar of height 0 that reads as a measured zero; the axis spans
every slot, so a mark in the last one stays inside the figure. The legend sits above the plot area, so that it
covers no bar whatever the values, and shows each series in its colour even when it has no bar. Neighbouring
series differ in hue and in lightness (a dark blue, then a light orange), so that they stay apart in print, in
greyscale and to colour-blind readers. A bar can carry a short mark above it (`marks`: what a value is taken
over, e.g. an agreement over "1/8 tasks") and a whisker (`spreads`: the lowest and highest of what a mean is taken
over, e.g. the runs' success rates); with `show_zero` (the agent chart's) a value of 0 is a flat bar marked "0.0",
told apart from a missing one at a glance.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from .. import atomic

COLOURS = ("#1f4e8c", "#f5a742", "#3a923a", "#d6404e", "#72b7b2")
MISSING_MARK = "n/a"
ZERO_MARK = "0.0"  # above a value of 0 (`show_zero`): a measured zero, told apart from a missing value
SPREAD_COLOUR = "#333333"


def draw_grouped_bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                      ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None,
                      spreads: Mapping[int, Sequence[tuple[float, float] | None]] | None = None,
                      show_zero: bool = False):  # noqa: ANN201
    """The figure (a matplotlib Figure): one group of bars per label, one bar per series (name, values), on a
    0..1 scale; `marks` gives series index -> a text per slot drawn above that bar (None: none); `spreads` gives
    series index -> (lowest, highest) per slot, drawn as a whisker over that bar (None: none), a mark above it;
    `show_zero` draws a value of 0 as a flat bar in its series' colour marked ZERO_MARK (else it has no height)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    count = max(len(series), 1)
    width = 0.8 / count
    figure, axis = plt.subplots(figsize=(max(4.5, 1.4 * len(labels) + 1), 3.8), dpi=120)
    whisker_top = 0.0
    for index, (name, values) in enumerate(series):
        offset = (index - (count - 1) / 2) * width
        colour = COLOURS[index % len(COLOURS)]
        present = [(i, float(v)) for i, v in enumerate(values) if v is not None]
        axis.bar([i + offset for i, _ in present], [v for _, v in present], width, label=name, color=colour)
        for i, value in enumerate(values):
            if value is None:
                axis.text(i + offset, 0.01, MISSING_MARK, ha="center", va="bottom", fontsize=7, color=colour,
                          fontweight="bold")
        spread_of = (spreads or {}).get(index, ())
        tops = _whiskers(axis, values, spread_of, offset)
        whisker_top = max([whisker_top, *(s[1] for s in spread_of if s is not None)])
        texts = list((marks or {}).get(index, ()))
        if show_zero:
            texts = _zeros(axis, values, texts, offset, width, colour)
        for i, mark in enumerate(texts):
            if mark and i < len(values) and values[i] is not None:  # kept under the top, where the legend is
                axis.text(i + offset, min(tops[i] + 0.01, 0.93), mark, ha="center", va="bottom",
                          fontsize=6, color="#333333")
    # Bars alone set the limits: a missing value in the last slot would fall outside the axis.
    axis.set_xlim(-0.5, len(labels) - 0.5)
    axis.set_xticks(range(len(labels)), list(labels), fontsize=8)
    axis.set_ylim(0, 1.04 if whisker_top >= 0.98 else 1.0)  # a whisker's cap at 1.0 is not cut by the frame
    if ylabel:
        axis.set_ylabel(ylabel)
    # Handles of the series' own colours: a series with no value at all (no reference anywhere) has no bar, and
    # matplotlib's legend would show it in its default blue, beside the first series' blue.
    handles = [Patch(facecolor=COLOURS[i % len(COLOURS)], label=name) for i, (name, _) in enumerate(series)]
    axis.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.01), fontsize=8, ncols=count,
                frameon=False, borderaxespad=0.0)
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    return figure


def _whiskers(axis, values: Sequence[float | None], spreads: Sequence[tuple[float, float] | None],  # noqa: ANN001
              offset: float) -> list[float]:
    """Draw each slot's spread as a whisker (dark, outlined in white so that it shows over a dark bar too); the
    top of each slot's bar or whisker, for the mark above it."""
    from matplotlib import patheffects

    tops = [float(v) if v is not None else 0.0 for v in values]
    for i, spread in enumerate(spreads):
        if spread is None or i >= len(values) or values[i] is None:
            continue
        value = float(values[i])  # type: ignore[arg-type]
        below, above = max(0.0, value - spread[0]), max(0.0, spread[1] - value)
        drawn = axis.errorbar(i + offset, value, yerr=[[below], [above]], fmt="none", ecolor=SPREAD_COLOUR,
                              elinewidth=1.0, capsize=3)
        for artist in (*drawn.lines[1], *drawn.lines[2]):
            artist.set_path_effects([patheffects.withStroke(linewidth=2.5, foreground="white")])
        tops[i] = max(tops[i], spread[1])
    return tops


def _zeros(axis, values: Sequence[float | None], marks: Sequence[str | None], offset: float,  # noqa: ANN001
           width: float, colour: str) -> list[str | None]:
    """Draw each value of 0 as a flat bar in its series' colour (a bar of height 0 shows nothing, and would read as
    missing); the marks with ZERO_MARK put before each such slot's own."""
    texts = [*marks, *[None] * (len(values) - len(marks))]
    for i, value in enumerate(values):
        if value is not None and float(value) == 0.0:
            axis.hlines(0.0, i + offset - width / 2, i + offset + width / 2, colors=colour, linewidth=3,
                        clip_on=False)
            texts[i] = " ".join(m for m in (ZERO_MARK, texts[i]) if m)
    return texts


def grouped_bars(path: str | Path, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                 ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None,
                 spreads: Mapping[int, Sequence[tuple[float, float] | None]] | None = None,
                 show_zero: bool = False) -> Path:
    """Draw `draw_grouped_bars` into a PNG at `path` (written atomically)."""
    import matplotlib.pyplot as plt

    figure = draw_grouped_bars(labels, series, ylabel=ylabel, marks=marks, spreads=spreads, show_zero=show_zero)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png")
    finally:
        plt.close(figure)
    return atomic.write_bytes(path, buffer.getvalue())
