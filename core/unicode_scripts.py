"""The script a character is written in (Latin, Cyrillic, Hebrew, Hiragana…), as Unicode names it: the first word
of the character's name. One notion for every part that tells scripts apart: the charset guess (one script to a
word), the near-duplicate filter (the scripts an embedder reads) and synth (Latin words get English ones).
Standard library only (`unicodedata`)."""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["script"]


@functools.lru_cache(maxsize=65536)  # asked of every letter of long texts, which repeat their letters
def script(c: str) -> str:
    """The script of the character `c`, as the first word of its Unicode name says it ("LATIN", "CYRILLIC",
    "HEBREW", "HIRAGANA", "CJK" for an ideograph); "" for a character without a name (a control character, an
    unassigned code point)."""
    return unicodedata.name(c, "").split(" ", 1)[0]
