"""Timing shared by the benchmark scripts (run as `python bench/NAME.py`, so this folder is on sys.path)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

# A bare parse of one page takes a few milliseconds, where a scheduler's hiccup is as long: its floor needs more
# runs than the work timed against it.
BASELINE_RUNS = 10


def best_time(repeat: int, work: Callable[[], object]) -> float:
    """The fastest of `repeat` runs: the least disturbed by whatever else the machine is doing."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def interleaved_times(rounds: int, works: dict[str, Callable[[], object]]) -> dict[str, list[float]]:
    """Each work's seconds in each of `rounds` rounds, every round running every work once, in turn. A busy spell
    of the machine then falls on a baseline and the work measured against it alike, which timing them in separate
    blocks does not give: there a ratio moved from 8 to 21 between runs a minute apart."""
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(rounds):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            times[name].append(time.perf_counter() - start)
    return times


def round_ratios(work: list[float], baseline: list[float]) -> list[float]:
    """Each round's time of the work over the baseline's in the same round."""
    return [w / b for w, b in zip(work, baseline, strict=True)]


def median_ratio(work: list[float], baseline: list[float]) -> float:
    """The median of the rounds' ratios: the figure a benchmark run in rounds reports."""
    return statistics.median(round_ratios(work, baseline))
