"""A record's size as its XPaths name elements of the page, in words: "(3 el)", or what of it names nothing.

One wording for the app's Review rows and `recordlens agreement`'s list of disagreements.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..wording import counted


def element_words(xpaths: Sequence[str], named: int, *, spoken: bool = False) -> str:
    """`named`: how many of `xpaths` name an element of the page. In a row's brackets ("(2 el)", "(1 el; 1 XPath
    naming nothing)"), or `spoken` as a screen reader reads the row ("2 elements", "1 element, 1 XPath naming
    nothing")."""
    if not xpaths:
        return "no XPath" if spoken else "(no XPath)"
    if named == 0:
        return "names no element" if spoken else "(names no element)"
    nothing = f"{counted(len(xpaths) - named, 'XPath')} naming nothing" if len(xpaths) > named else ""
    if spoken:
        return counted(named, "element") + (f", {nothing}" if nothing else "")
    return f"({named} el; {nothing})" if nothing else f"({named} el)"
