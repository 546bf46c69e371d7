"""Grouped bar charts as PNG files (matplotlib's Agg backend: no display needed), for `bench` and `agent eval`.

A value of None is *missing* (an agreement with no reference, a figure that was not measured): it gets no bar
and an "n/a" mark on the axis in its slot, never a bar of height 0 that reads as a measured zero; the axis spans
every slot, so a mark in the last one stays inside the figure. The legend sits above the plot area, so that it
covers no bar whatever the values, and shows each series in its colour even when it has no bar. Neighbouring
series differ in hue and in lightness (a dark blue, then a light orange), so that they stay apart in print, in
greyscale and to colour-blind readers. A bar can carry a short mark above it (`marks`: what a value is taken
over, e.g. an agreement over "1/8 tasks").
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from .. import atomic

COLOURS = ("#1f4e8c", "#f5a742", "#3a923a", "#d6404e", "#72b7b2")
MISSING_MARK = "n/a"


def draw_grouped_bars(labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                      ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None):  # noqa: ANN201
    """The figure (a matplotlib Figure): one group of bars per label, one bar per series (name, values), on a
    0..1 scale; `marks` gives series index -> a text per slot drawn above that bar (None: none)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    count = max(len(series), 1)
    width = 0.8 / count
    figure, axis = plt.subplots(figsize=(max(4.5, 1.4 * len(labels) + 1), 3.8), dpi=120)
    for index, (name, values) in enumerate(series):
        offset = (index - (count - 1) / 2) * width
        colour = COLOURS[index % len(COLOURS)]
        present = [(i, float(v)) for i, v in enumerate(values) if v is not None]
        axis.bar([i + offset for i, _ in present], [v for _, v in present], width, label=name, color=colour)
        for i, value in enumerate(values):
            if value is None:
                axis.text(i + offset, 0.01, MISSING_MARK, ha="center", va="bottom", fontsize=7, color=colour,
                          fontweight="bold")
        for i, mark in enumerate((marks or {}).get(index, ())):
            if mark and i < len(values) and values[i] is not None:  # kept under the top, where the legend is
                axis.text(i + offset, min(float(values[i]) + 0.01, 0.93), mark, ha="center", va="bottom",  # type: ignore[arg-type]
                          fontsize=6, color="#333333")
    # Bars alone set the limits: a missing value in the last slot would fall outside the axis.
    axis.set_xlim(-0.5, len(labels) - 0.5)
    axis.set_xticks(range(len(labels)), list(labels), fontsize=8)
    axis.set_ylim(0, 1.0)
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


def grouped_bars(path: str | Path, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float | None]]], *,
                 ylabel: str = "", marks: Mapping[int, Sequence[str | None]] | None = None) -> Path:
    """Draw `draw_grouped_bars` into a PNG at `path` (written atomically)."""
    import matplotlib.pyplot as plt

    figure = draw_grouped_bars(labels, series, ylabel=ylabel, marks=marks)
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png")
    finally:
        plt.close(figure)
    return atomic.write_bytes(path, buffer.getvalue())
