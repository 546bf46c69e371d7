"""The Review tab's bounded cache: the values used last stay, one used goes last, one past the size drops the one
used longest ago."""

from __future__ import annotations

from recordlens.annotator.labelling.recent import Recent


def test_the_value_used_longest_ago_is_dropped():
    recent: Recent[int, str] = Recent(2)
    recent.keep(1, "one")
    recent.keep(2, "two")
    assert recent.get(1) == "one"  # 1 now used last
    recent.keep(3, "three")
    assert list(recent) == [1, 3] and recent.get(2) is None
    assert recent.keep(1, "again") == "again" and list(recent) == [3, 1] and len(recent) == 2
    recent.clear()
    assert not len(recent) and recent.values() == []
