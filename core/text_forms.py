"""How a text looks to a reader, whatever its script: the columns it takes on a terminal (a CJK character two,
a combining mark none), cut or padded to a column width, and written so that what cannot be seen shows (two
names that differ only in Unicode form, an invisible character, bytes of a file name that are not UTF-8).

Standard library only: `unicodedata`'s East Asian width and categories give the width a terminal gives most
text; an emoji sequence joined by U+200D is one picture, counted as its first part.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable

__all__ = ["cell", "column_width", "display_width", "fitted", "not_utf8", "padded", "read_alike", "same_form",
           "spelling", "unicode_form", "visible", "written"]

_JOINER = "\u200d"
_EMOJI_STYLE = "\ufe0f"
_ZERO_WIDTH = ("Mn", "Me", "Cf", "Cc", "Cs")  # marks drawn on the character before, and what draws nothing
_WIDE = ("W", "F")
_SKIN_TONES = range(0x1F3FB, 0x1F400)  # emoji modifiers: drawn into the emoji before them
_HANGUL_VOWELS_AND_FINALS = range(0x1160, 0x1200)  # conjoining jamo: drawn into the syllable's first jamo
_ELLIPSIS = "…"
_WIDEST_COLUMN = 40  # a longer name (a page named with 210 bytes) is cut, not let push the numbers out


def unicode_form(name: str) -> str:
    """What names that differ only in Unicode form share (NFC: `café` typed, or saved by macOS as `cafe` and a
    combining accent): the key under which a file system that normalises names (APFS, HFS+) keeps one file."""
    return unicodedata.normalize("NFC", name)


def not_utf8(name: str) -> bool:
    """Whether `name` holds bytes that are not UTF-8 (a file name Linux allows; Python keeps them as surrogates),
    which a UTF-8 file or the project's database cannot hold."""
    return any(unicodedata.category(c) == "Cs" for c in name)


def same_form(a: str, b: str) -> bool:
    """Two different names that are the same text in another Unicode form (one file on APFS); `read_alike` for
    the wider sense of two spellings of one name."""
    return a != b and unicode_form(a) == unicode_form(b)


def spelling(name: str) -> str:
    """What two spellings of one name share, the key of names that read alike: the same letters in one Unicode
    form, compatibility characters as their plain ones (NFKC: a full-width `Ａ`, the ligature `ﬁ`), and single
    spaces between words (`Ann  Lee`, `Ann\u00a0Lee` and `Ann Lee` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def read_alike(a: str, b: str) -> bool:
    """Two different names that read alike: two spellings of one name (`spelling`), such as a name typed in one
    Unicode form and imported in another, or with two spaces where one was meant."""
    return a != b and spelling(a) == spelling(b)


def display_width(text: str) -> int:
    """The columns `text` takes on a terminal: 2 for a wide (CJK, most emoji) character, 0 for a combining mark,
    an invisible character or a part joined to the emoji before it, 1 for any other."""
    return sum(_cluster_width(cluster) for cluster in _clusters(text))


def fitted(text: str, width: int) -> str:
    """`text` in at most `width` columns, cut after a whole character (its marks kept with it) and ended with
    "…" when cut."""
    if display_width(text) <= width:
        return text
    kept, used = [], 0
    for cluster in _clusters(text):
        columns = _cluster_width(cluster)
        if used + columns > width - len(_ELLIPSIS):
            break
        kept.append(cluster)
        used += columns
    return "".join(kept) + _ELLIPSIS


def padded(text: str, width: int, *, right: bool = False) -> str:
    """`text` cut to `width` columns (`fitted`) and filled with spaces to take exactly `width` (on the left when
    `right`, for numbers): what `f"{text:<width}"` does for ASCII, for every script."""
    cell = fitted(text, width)
    fill = " " * (width - display_width(cell))
    return fill + cell if right else cell + fill


def column_width(texts: Iterable[str], *, least: int = 0, most: int = _WIDEST_COLUMN) -> int:
    """The columns a table's column of `texts` (as `cell` shows them) takes: the widest, within `least`..`most`."""
    return min(most, max([least, *(display_width(visible(text)) for text in texts)]))


def cell(text: str, width: int, *, right: bool = False) -> str:
    """A table's cell: `text` as `visible` writes it (a name that is not UTF-8 prints on any terminal), cut and
    padded to `width` columns."""
    return padded(visible(text), width, right=right)


def visible(text: str) -> str:
    """`text` with what a reader cannot see escaped, the rest as it is: a combining mark in a text not in NFC
    (`cafe\\u0301`, which reads as `café`), invisible and control characters (`\\u200b`, `\\n`), and bytes of
    a file name that are not UTF-8 (`\\xff`). A name in NFC of any script, emoji sequences included, stays as
    it is written."""
    return _visible(text)


def written(name: str, quote: str = "'") -> str:
    """A name quoted, as `visible` writes it (and the quote or a backslash in it escaped, as `repr` would): two
    names that look alike on screen show how they differ (`'Zoë'` and `'Zoe\\u0308'`). `quote` is `'` or `"`."""
    return f"{quote}{_visible(name, quoted=quote)}{quote}"


def _visible(text: str, *, quoted: str = "") -> str:
    composed = unicodedata.is_normalized("NFC", text)
    shown = []
    for i, c in enumerate(text):
        if quoted and c in ("\\", quoted):
            shown.append("\\" + c)
        elif _hidden(c, composed) and not _joins_an_emoji(text, i):
            shown.append(_escaped(c))
        else:
            shown.append(c)
    return "".join(shown)


def _hidden(c: str, composed: bool) -> bool:
    category = unicodedata.category(c)
    if category in ("Mn", "Mc", "Me"):
        return not composed
    # a private-use (Co) or unassigned (Cn) character draws as a box, or as nothing, or as what a font makes it
    return category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (category == "Zs" and c != " ")


def _joins_an_emoji(text: str, i: int) -> bool:
    """Whether `text[i]` is the joiner of an emoji sequence (`👨‍👩‍👧`, one picture), which shows as its picture."""
    if text[i] != _JOINER or not 0 < i < len(text) - 1:
        return False
    before, after = text[i - 1], text[i + 1]
    return (unicodedata.category(after) == "So"
            and (unicodedata.category(before) == "So" or _joins_the_one_before(before)))


def _escaped(c: str) -> str:
    if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte of a file name that is not UTF-8, kept by Python as a surrogate
        return "".join(f"\\x{byte:02x}" for byte in os.fsencode(c))
    return c.encode("unicode_escape").decode("ascii")  # any other lone surrogate too: `\\ud800`


def _clusters(text: str) -> list[str]:
    """`text` in the pieces a terminal draws as one: a character with the marks on it, an emoji with what is
    joined to it."""
    clusters: list[str] = []
    for c in text:
        if clusters and (_joins_the_one_before(c) or clusters[-1].endswith(_JOINER)):
            clusters[-1] += c
        else:
            clusters.append(c)
    return clusters


def _joins_the_one_before(c: str) -> bool:
    code = ord(c)
    return (unicodedata.category(c) in _ZERO_WIDTH or code in _SKIN_TONES or code in _HANGUL_VOWELS_AND_FINALS
            or 0xFE00 <= code <= 0xFE0F)


def _cluster_width(cluster: str) -> int:
    first = cluster[0]
    if _joins_the_one_before(first):  # a mark or an invisible character with nothing before it
        return 0
    if unicodedata.east_asian_width(first) in _WIDE or _EMOJI_STYLE in cluster:  # ❤️: drawn as a wide emoji
        return 2
    return 1
