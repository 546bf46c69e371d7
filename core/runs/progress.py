"""A progress bar for multi-page work, on stderr so that stdout keeps only the document."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], total: int | None = None, label: str = "", *,
             stream: TextIO | None = None, enabled: bool = True) -> Iterator[T]:
    """Yield `items`, drawing `label [#####.....] k/n` on a terminal and a line every few seconds elsewhere."""
    out = stream or sys.stderr
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    interactive = out.isatty()
    last = 0.0
    done = 0
    for item in items:
        yield item
        done += 1
        if not enabled:
            continue
        now = time.monotonic()
        if interactive:
            out.write("\r" + _bar(label, done, total))
            out.flush()
        elif now - last >= 5 or done == total:
            out.write(_bar(label, done, total) + "\n")
            last = now
    if enabled and interactive and done:
        out.write("\n")


def _bar(label: str, done: int, total: int | None) -> str:
    if not total:
        return f"{label} {done}"
    filled = int(30 * done / total)
    return f"{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
