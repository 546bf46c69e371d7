"""The few values used last, by key: what the Review tab keeps of the runs it reviewed (their predictions, the page
on show classed against them), some 20 MB a run on a project of 1000 pages, so only the last few stay."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """At most `size` values; one used (`get`) or kept (`keep`) goes last, and one kept past the size drops the
    one used longest ago."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> V:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.size:
            self._values.popitem(last=False)
        return value

    def values(self) -> list[V]:
        return list(self._values.values())

    def clear(self) -> None:
        self._values.clear()

    def __iter__(self) -> Iterator[K]:  # the keys, the one used longest ago first
        return iter(list(self._values))

    def __len__(self) -> int:
        return len(self._values)
