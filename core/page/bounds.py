"""Bounding a page's markup before the HTML parser sees it: how deep it nests and how many elements it has.

Lexbor nests without limit, and pays for it: 60,000 nested `<div>` take seconds to parse (quadratic), 100,000
nested `<template>` crash its serialiser (a segmentation fault, which no `except` catches), and 2 million empty
elements take gigabytes. So one linear scan over the markup, before parsing:

- **Nesting.** Start tags are followed with a stack of open elements (end tags close up to their match, as a
  browser's "generate implied end tags" does; void elements, elements whose end tag is optional, and raw text
  such as `<script>` or an unclosed `<title>` are not counted). A start tag that would open an element deeper
  than `MAX_NESTING` gets its end tag inserted right after it, so the element and what follows it become
  siblings at that depth. Chromium itself attaches elements deeper than 512 as siblings (dom.MAX_TREE_DEPTH,
  applied when the tree is built), so up to `MAX_NESTING` nothing changes; beyond it only pathological pages
  are touched, and a warning says so.
- **Size.** More start tags than `max_elements` (default `DEFAULT_MAX_ELEMENTS`, or the environment variable
  `RECORDLENS_MAX_ELEMENTS`) is a clear `TooManyElementsError`: memory grows with the number of elements
  (about 1 KB each, parsed and cleaned), not with the file's size.

Pages with fewer `<` than both limits are returned untouched without a scan.
"""

from __future__ import annotations

import os
import re

from ..errors import SnapshotError

MAX_NESTING = 4096
DEFAULT_MAX_ELEMENTS = 500_000
MAX_ELEMENTS_VARIABLE = "RECORDLENS_MAX_ELEMENTS"

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
                   "source", "track", "wbr", "basefont", "bgsound", "frame", "image"})
# End tag optional (closed implicitly by a sibling or the parent's end): counting them would drift upwards.
_OPTIONAL_END = frozenset({"html", "head", "body", "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th",
                           "thead", "tbody", "tfoot", "colgroup", "caption", "rb", "rt", "rtc", "rp"})
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes"})
_FOREIGN = frozenset({"svg", "math"})
_TOKEN = re.compile(r"<(?:(!--)|(/?)([A-Za-z][A-Za-z0-9:_-]*)([^<>]*))")
_RAW_END = {name: re.compile(rf"</{name}", re.IGNORECASE) for name in _RAW_TEXT}


class TooManyElementsError(SnapshotError):
    """A page with more elements than the configured limit (a memory bound, stated in the message)."""


def max_elements_setting() -> int:
    """The element limit: `RECORDLENS_MAX_ELEMENTS` when it is a positive integer, else the default."""
    value = os.environ.get(MAX_ELEMENTS_VARIABLE, "").strip().replace("_", "")
    return int(value) if value.isdigit() and int(value) > 0 else DEFAULT_MAX_ELEMENTS


def bound_markup(html: str, warnings: list[str], *, max_elements: int | None = None) -> str:
    """`html` with nesting bounded at MAX_NESTING (see the module notes); raises TooManyElementsError."""
    limit = max_elements_setting() if max_elements is None else max_elements
    if html.count("<") <= min(MAX_NESTING, limit):
        return html
    stack: list[str] = []
    open_count: dict[str, int] = {}
    foreign = 0
    elements = 0
    cuts: list[tuple[int, str]] = []  # (offset after a start tag, its name): where an end tag is inserted
    skip_to = 0  # the end of a comment or of raw text: tokens that start before it are not markup
    # Every token starts at a "<" and holds no other, so the scan can take them as one C-level iteration yields
    # them, passing over those inside a comment or raw text, instead of searching afresh after each.
    for match in _TOKEN.finditer(html):
        position = match.end()
        if match.start() < skip_to:
            continue
        comment, closing, tag, rest = match.groups()
        if comment:  # a comment: nothing in it counts
            end = html.find("-->", position)
            if end < 0:
                break
            skip_to = end + 3
            continue
        name = tag.lower()
        if closing:  # an end tag closes up to its match, if that is open
            if open_count.get(name):
                while stack:
                    closed = stack.pop()
                    open_count[closed] -= 1
                    foreign -= closed in _FOREIGN
                    if closed == name:
                        break
            continue
        elements += 1
        if elements > limit:
            raise TooManyElementsError(
                f"the page has more than {limit:,} elements, the limit per page (memory grows with the number "
                f"of elements); set {MAX_ELEMENTS_VARIABLE} to allow more")
        if not foreign:
            if name == "plaintext":
                break  # the rest of the page is text
            if name in _RAW_TEXT:
                end_tag = _RAW_END[name].search(html, position)
                if end_tag is None:
                    break  # an unclosed <title> or <script>: the rest of the page is its text
                skip_to = end_tag.start()
                continue
        if name in _VOID or name in _OPTIONAL_END or (foreign and rest.endswith("/")):
            continue
        if len(stack) >= MAX_NESTING:
            cuts.append((position + (1 if html.startswith(">", position) else 0), name))
            continue
        stack.append(name)
        open_count[name] = open_count.get(name, 0) + 1
        foreign += name in _FOREIGN
    if not cuts:
        return html
    warnings.append(f"The page nests elements more than {MAX_NESTING:,} deep; {len(cuts):,} deeper element(s) "
                    "were closed where they open, so that what follows them became their sibling.")
    pieces: list[str] = []
    start = 0
    for offset, name in cuts:
        pieces.append(html[start:offset])
        pieces.append(f"</{name}>")
        start = offset
    pieces.append(html[start:])
    return "".join(pieces)
