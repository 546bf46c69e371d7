"""Text as a search compares it: one form for what the user types and what a page holds, as a browser's find does.

A page may hold "résumé" decomposed (NFD: "e" and a combining accent, as macOS and some CMSes save it) while the
keyboard types it composed (NFC); "STRASSE" should find "Straße", "istanbul" "İstanbul", and "nandu" "ñandú".

    from recordlens.core.text_search import folded
    folded("Hà Nội") in folded("Tiếng Việt: Hà Nội")

A search is forgiving: it finds more rather than less. Where two texts must be the same (an agent's answer and
its evidence on a page, an element found again by its name, a typed value) accents make another word, and the
agent folds with `core/agent/targets.folded` (compatibility form, case, spacing; accents kept) instead.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["folded"]

# The combining marks a search ignores: the accents Latin, Greek and Cyrillic letters wear (and their extensions),
# and the vowel points and cantillation of Hebrew (niqqud) and the short vowels and signs of Arabic (harakat), which
# a page of vocalised text writes and a keyboard does not: a browser's find passes over them (Chromium finds
# "שלום" in "שָׁלוֹם" and "محمد" in "مُحَمَّد"). Hebrew's visible signs between the points (maqaf U+05BE, paseq
# U+05C0, sof pasuq U+05C3, nun hafukha U+05C6) stay. Only these: a Japanese voicing mark (が = か + U+3099), an
# Indic vowel sign or a Thai tone mark makes another word, not the same word accented, and stays.
_ACCENTS = ((0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF), (0xFE20, 0xFE2F),
            (0x0591, 0x05BD), (0x05BF, 0x05BF), (0x05C1, 0x05C2), (0x05C4, 0x05C5), (0x05C7, 0x05C7),
            (0x0610, 0x061A), (0x064B, 0x065F), (0x0670, 0x0670), (0x06D6, 0x06DC), (0x06DF, 0x06E4),
            (0x06E7, 0x06E8), (0x06EA, 0x06ED))


# The characters a page may hold that show nothing, which a browser's find passes over (Unicode's
# Default_Ignorable_Code_Point): a soft hyphen ("Donau\xaddampf" is found by "donaudampf"), zero-width spaces and
# joiners, the word joiner, direction marks and controls, variation selectors, a byte-order mark, tags. The record
# list shows "Zero\u200bwidth" as "Zerowidth": typed so, it is found.
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                        "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
                        "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def _is_accent(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _ACCENTS)


@lru_cache(maxsize=4096)  # a finder folds the same records' texts again at every key typed
def folded(text: str) -> str:
    """`text` in the form searches compare: compatibility-normalised (NFKD: "ﬁ" is "fi", a full-width "Ａ" an
    "a"), case-folded ("ß" is "ss"), without accents ("é" is "e", "İ" is "i") or characters that show nothing
    (a soft hyphen, a zero-width space: `_INVISIBLE`), and composed again (NFC).
    Search a folded query in a folded text; lengths change, so an index in one is no index in the other."""
    if text.isascii():
        return text.lower()  # nothing to decompose, and casefold is lower for ASCII
    # Case-folded before ("İ" folds to "i" and a dot, which goes as an accent) and after ("ℌ" decomposes to "H").
    decomposed = unicodedata.normalize("NFKD", _INVISIBLE.sub("", text).casefold()).casefold()
    bare = "".join(char for char in decomposed if not _is_accent(char))
    return unicodedata.normalize("NFC", bare)
