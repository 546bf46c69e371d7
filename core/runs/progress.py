"""A progress bar for multi-page work, on stderr so that stdout keeps only the document."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


class ProgressBar:
    """`label [#####.....] k/n` on stderr: redrawn in place on a terminal, a line every few seconds elsewhere.
    `update(done, total)` as work advances (repeated counts are drawn once), `close()` or `finish()` at the end."""

    def __init__(self, label: str = "", *, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.label = label
        self.out = stream or sys.stderr
        # No stderr at all (started with `2>&-`): nothing to draw on, and the work goes on without a bar.
        self.enabled = enabled and self.out is not None
        self.interactive = self.enabled and _is_terminal(self.out)
        self._last = 0.0
        self._shown: tuple[int, int | None] | None = None

    def update(self, done: int, total: int | None) -> None:
        if not self.enabled or self._shown == (done, total):
            return
        self._shown = (done, total)
        now = time.monotonic()
        if self.interactive:
            self._draw("\r" + _bar(self.label, done, total), flush=True)
        elif now - self._last >= 5 or done == total:
            self._draw(_bar(self.label, done, total) + "\n")
            self._last = now

    def close(self) -> None:
        if self.enabled and self.interactive and self._shown is not None:
            self._draw("\n")

    def _draw(self, text: str, *, flush: bool = False) -> None:
        """Write the bar; a stream that can no longer be written (its reader gone, its disk full) ends the bar,
        never the work it shows."""
        try:
            self.out.write(text)
            if flush:
                self.out.flush()
        except (OSError, ValueError):
            self.enabled = False

    def finish(self) -> None:
        """The work is done: the bar drawn full, then closed (a caller told only of work started, such as the
        fits a training hands out, never says the last one ended)."""
        if self._shown is not None and self._shown[1]:
            self.update(self._shown[1], self._shown[1])
        self.close()


def progress(items: Iterable[T], total: int | None = None, label: str = "", *,
             stream: TextIO | None = None, enabled: bool = True) -> Iterator[T]:
    """Yield `items`, drawing their progress (`ProgressBar`) as each is done."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    bar = ProgressBar(label, stream=stream, enabled=enabled)
    for done, item in enumerate(items, 1):
        yield item
        bar.update(done, total)
    bar.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):  # a closed stream
        return False


def _bar(label: str, done: int, total: int | None) -> str:
    if not total:
        return f"{label} {done}"
    filled = int(30 * done / total)
    return f"{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}"
