"""How the labelling window words a count: "1 record", "2 records"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """`count` and the noun, singular for one ("1 record"), else plural (the noun and "s", or `plural`)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"
