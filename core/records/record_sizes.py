"""A record's size as its XPaths name elements of the page, in words: "(3 el)", or what of it names nothing.

One wording for the app's Review rows and `recordlens agreement`'s list of disagreements.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..wording import counted


def element_words(xpaths: Sequence[str], named: int) -> str:
    """`named`: how many of `xpaths` name an element of the page."""
    if not xpaths:
        return "(no XPath)"
    if named == 0:
        return "(names no element)"
    nothing = len(xpaths) - named
    return f"({named} el)" if not nothing else f"({named} el; {counted(nothing, 'XPath')} naming nothing)"
