"""Timing shared by the benchmark scripts (run as `python bench/NAME.py`, so this folder is on sys.path)."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_time(repeat: int, work: Callable[[], object]) -> float:
    """The fastest of `repeat` runs: the least disturbed by whatever else the machine is doing."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)
