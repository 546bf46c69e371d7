"""Units of work for the Ray tests, shipped to the workers by value (`register_pickle_by_value`), since the
workers cannot import the tests package."""

from __future__ import annotations

import os
from pathlib import Path

from recordlens.core.extract import create
from recordlens.core.extract.base import Extraction
from recordlens.core.extract.gemini import GeminiExtractor
from recordlens.core.page.dom import Page


class KillingExtractor:
    """The default method, except that the worker process dies on page `victim` while `flag` exists (a worker
    killed mid-run, as a lost machine or an out-of-memory kill would do it)."""

    name = "repeats"

    def __init__(self, victim: str, flag: Path) -> None:
        self._inner = create("repeats")
        self.version = self._inner.version
        self.parameters = getattr(self._inner, "parameters", {})
        self.victim = victim
        self.flag = flag

    def extract(self, page: Page) -> Extraction:
        if page.name == self.victim and self.flag.exists():
            os._exit(17)  # no cleanup, no exception: the process is gone
        return self._inner.extract(page)


class PaidThenKilledExtractor(GeminiExtractor):
    """Gemini's extractor, except that the worker process dies on page `victim` right after its model call (paid
    for, its answer lost with the worker) while `flag` exists; the flag goes first, so the page's second run lives."""

    def __init__(self, victim: str, flag: Path, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.victim = victim
        self.flag = flag

    def extract(self, page: Page) -> Extraction:
        extraction = super().extract(page)
        if page.name == self.victim and self.flag.exists():
            self.flag.unlink()
            os._exit(17)  # no cleanup, no exception: the process is gone, and the answer it was paid for
        return extraction


def reserve_twice(shared: object) -> list[str]:
    """Two reservations straight from a worker's handle, without waiting: the verdicts the actor gave."""
    import ray

    actor = shared._actor  # type: ignore[attr-defined]
    return [ray.get(actor.reserve.remote())[0] for _ in range(2)]


def slow_square(number: int) -> int:
    """A unit that takes a while, so that several are in flight when the caller stops reading."""
    import time

    time.sleep(0.5)
    return number * number
