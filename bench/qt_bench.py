"""The app's start and its memory, shared by the app benchmarks (bench/app.py, bench/app_window.py; run as
`python bench/NAME.py`, so this folder is on sys.path). Run on its own, it measures nothing.

Memory is read from /proc (no psutil): the RSS of this process plus every descendant (QtWebEngineProcess, its
zygote and renderers); shared pages count once per process there, so the proportional set size (PSS,
/proc/PID/smaps_rollup) is the figure to print beside it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dev_data import DEV

SAMPLE_MS = 25


def _children_by_parent() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue  # the process ended meanwhile
        # The command name may hold spaces and parentheses: the fields start after the last ")".
        ppid = int(stat.rpartition(")")[2].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree


def process_tree(root: int) -> list[int]:
    tree = _children_by_parent()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, ()))
    return found


def _status_kb(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_mb() -> float:
    return sum(_status_kb(pid, "VmRSS") for pid in process_tree(os.getpid())) / 1024


def pss_mb() -> float:
    return sum(_pss_kb(pid) for pid in process_tree(os.getpid())) / 1024


class PeakRss:
    """The peak of `rss_mb()`, sampled every SAMPLE_MS while the Qt event loop runs (pages load in it) and
    whenever `sample()` is called; `mb` is the peak so far. Needs the QApplication."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.mb = 0.0
        self._timer = QTimer()
        self._timer.timeout.connect(self.sample)
        self._timer.start(SAMPLE_MS)

    def sample(self) -> None:
        self.mb = max(self.mb, rss_mb())

    def stop(self) -> None:
        self._timer.stop()


@contextmanager
def running_app(script: str) -> Iterator[tuple[Any, PeakRss] | None]:
    """The app's QApplication (qt_env's, as the app makes it) and a peak-RSS sampler, stopped at the end; None,
    said on stdout, when the dev data set is missing (`script` names the benchmark there)."""
    if not DEV.exists():
        print(f"{script}: {DEV} is missing; nothing measured")
        yield None
        return
    from recordlens.annotator.qt import env as qt_env

    app = qt_env.create_application(["recordlens-bench"])
    peak = PeakRss()
    try:
        yield app, peak
    finally:
        peak.stop()
