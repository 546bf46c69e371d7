"""Grouped bar charts as PNG files (matplotlib's Agg backend: no display needed), for `bench` and `agent eval`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2")


def grouped_bars(path: str | Path, labels: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *,
                 ylabel: str = "") -> Path:
    """One group of bars per label, one bar per series (name, values), on a 0..1 scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    count = max(len(series), 1)
    width = 0.8 / count
    figure, axis = plt.subplots(figsize=(max(4.5, 1.4 * len(labels) + 1), 3.6), dpi=120)
    for index, (name, values) in enumerate(series):
        offset = (index - (count - 1) / 2) * width
        axis.bar([i + offset for i in range(len(labels))], list(values), width, label=name,
                 color=COLOURS[index % len(COLOURS)])
    axis.set_xticks(range(len(labels)), list(labels), fontsize=8)
    axis.set_ylim(0, 1.05)
    if ylabel:
        axis.set_ylabel(ylabel)
    axis.legend(loc="upper left", fontsize=8, ncols=count)
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(target)
    plt.close(figure)
    return target
