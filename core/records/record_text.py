"""What a record says: the page's text entries its XPaths take in, as the score reads them (expanded to the text
keys at or below each XPath), in page order."""

from __future__ import annotations

from collections.abc import Sequence

from ..page.dom import Page
from .model import TextKeyIndex

# Between two text entries of a record where one line shows them (the app's record list, an export's cell): a mark
# rather than a space, so that "Blue shirt" and "12" read as two texts, not one.
TEXT_SEPARATOR = " · "


def texts_of_record(page: Page, keys: TextKeyIndex, xpaths: Sequence[str]) -> list[str]:
    """The record's texts in page order; `keys` is the page's `TextKeyIndex(page.text_map)`, made once a page."""
    return [page.text_map[key] for key in keys.in_order(keys.expand(xpaths))]
