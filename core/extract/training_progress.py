"""How far a training has come, in the words the app's Learn and `recordlens train` both say: its phase and count
("preparing pages 512/1,040", "fitting 6/80"), once a few fits are done the time left at their rate so far ("about
40 min left"), and one share of the whole work done that never goes back (preparing the pages is its first
`PREPARING_SHARE`, the fits the rest), so that a bar does not fill for the pages and then start again for the fits.

The clock is the caller's to give (tests give their own); nothing here knows of Qt or of a terminal.
"""

from __future__ import annotations

import ctypes
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

PREPARING = "preparing pages"
FITTING = "fitting"
COMPARING = "comparing with the shipped model"
# Of the whole bar, the pages' preparation: at 1,040 pages it took some 3 min of about 2 h, at 50 pages some 10 s
# of 7 min; the fits are most of the wait, and the time left (not the bar) says how long.
PREPARING_SHARE = 0.1
FITS_BEFORE_ESTIMATE = 3  # the rate of fewer fits (a worker's first, its start-up in it) says too little


@dataclass
class TrainingProgress:
    """A training's progress: told `preparing(done, total)` as pages are prepared, `fitting(done, total)` as fits
    end, `comparing(done, total)` as the comparison with the shipped model goes on (a model of one stage); read
    as `words`, `share` (0 to 1, never less than before) and `time_left`."""

    clock: Callable[[], float] = time.monotonic
    phase: str = PREPARING
    done: int = 0
    total: int = 0
    share: float = 0.0
    _phase_began: float | None = field(default=None, repr=False)

    def preparing(self, done: int, total: int) -> None:
        self._now(PREPARING, done, total, 0.0, PREPARING_SHARE)

    def fitting(self, done: int, total: int) -> None:
        self._now(FITTING, done, total, PREPARING_SHARE, 1.0)

    def comparing(self, done: int, total: int) -> None:
        # After the fits, which filled the bar: the comparison (a few quick fits of a small project) is said in
        # words, and the bar stays full rather than starting again.
        self._now(COMPARING, done, total, 1.0, 1.0)

    def _now(self, phase: str, done: int, total: int, start: float, end: float) -> None:
        if phase != self.phase or self._phase_began is None:
            self.phase, self._phase_began = phase, self.clock()
        self.done, self.total = done, total
        part = min(1.0, done / total) if total > 0 else 0.0
        self.share = max(self.share, start + (end - start) * part)

    @property
    def count(self) -> str:
        """"512/1,040"."""
        return f"{self.done:,}/{self.total:,}"

    @property
    def words(self) -> str:
        """"preparing pages 512/1,040", "fitting 6/80, about 40 min left"."""
        left = self.time_left
        return f"{self.phase} {self.count}" + (f", {left}" if left else "")

    @property
    def time_left(self) -> str:
        """"about 40 min left" from the fits' rate so far, once `FITS_BEFORE_ESTIMATE` are done; "" before, and in
        the other phases (the pages are prepared in minutes; the fits take hours on a large project)."""
        if self.phase != FITTING or self._phase_began is None or self.done < FITS_BEFORE_ESTIMATE:
            return ""
        if self.done >= self.total:
            return ""
        per_fit = (self.clock() - self._phase_began) / self.done
        return f"{duration_said(per_fit * (self.total - self.done))} left"


def duration_said(seconds: float) -> str:
    """"under a minute", "about 40 min", "about 2 h 10 min" (to 10 min past an hour: an estimate, not a count)."""
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"about {minutes} min"
    hours, rest = divmod(round(seconds / 600) * 10, 60)
    return f"about {hours} h" + (f" {rest} min" if rest else "")


@contextmanager
def examples_kept_apart() -> Iterator[Callable[[], None]]:
    """While a large training set is built and fitted in a process that must stay responsive (the app's Learn):
    `settle()`, called after each page is prepared, collects the garbage of its parse and moves every object alive
    out of the collector's sight (`gc.freeze`), so that the collector's full passes no longer walk the millions
    of objects of the pages prepared: at 1,040 pages each pass held the interpreter (the app's window too) for
    seconds. At the end they are given back to the collector (`gc.unfreeze`); the examples, which hold no cycle,
    are freed as their last reference goes (a cancel's traceback may still hold them here, so no full pass is
    forced now: it would walk them all once more)."""
    try:
        yield _settle
    finally:
        gc.unfreeze()


def _settle() -> None:
    gc.collect()  # over the objects made since the last freeze only: a page's parse, not the pages before it
    gc.freeze()


def given_back() -> None:
    """The memory of a training's examples, once they are let go, given back to the system: a full collection
    (the parses' and the fits' cycles), then the C allocator's free pages trimmed, which it otherwise keeps for the
    process (the app stayed at gigabytes after a Learn of a thousand pages). Where the C library has no
    `malloc_trim` (not glibc), the collection only."""
    gc.collect()
    trimmed()


def trimmed() -> None:
    """The C allocator's free pages given back to the system (glibc's `malloc_trim`), without a collection: what a
    job that read large pages in threads of their own leaves in the allocator's arenas (its high-water mark) once
    what it made is let go; under a millisecond where a full collection takes tens (Propose's end). Nothing where
    the C library has none."""
    with suppress(AttributeError, OSError):
        ctypes.CDLL(None).malloc_trim(0)
