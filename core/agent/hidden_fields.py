"""Hidden form fields and hidden elements of a saved page, as both browsers of a snapshot site read them.

Chromium's MHTML writer leaves out every `<input type=hidden>` and every element with the `hidden` attribute. The
capture and the saver (annotator/agent/site_capture.py, site_saver.py) therefore turn them, just before the page
is saved, into what the writer keeps (resources/js/keep_hidden.js), every element staying where it was:

- a hidden field becomes a checked checkbox with `data-recordlens-type="hidden"`, inline `display: none` and, as
  its value, what the live form sent (for `_charset_`, UTF-8, the charset of the served page): Chromium sends it as
  it sent the hidden field; here it is the hidden field again (`input_type` in forms.py): listed nowhere, sent
  with its form;
- an element with `hidden` keeps the attribute's value in `data-recordlens-hidden`, and inline style keeps it out
  of the rendering (unless the page's style showed it anyway). Here it is hidden as an element with `hidden` is:
  neither it nor what it holds is on show (no numbered element; no text of the page, but that of
  `hidden=until-found`, which Chromium reads too).

A browser that renders the page (the Qt site browser) is served it as it was (`as_served_live`): the fields hidden
fields again, the elements with their `hidden`, so that Chromium labels, styles and sends them exactly as on the
live page (a checkbox in a `<label>` would take the label of the field after it).

Pages saved before this have lost those elements for good: nothing here can bring them back.
"""

from __future__ import annotations

import re

from ..page.dom import Element

TYPE_MARK = "data-recordlens-type"
HIDDEN_MARK = "data-recordlens-hidden"
UNTIL_FOUND = "until-found"  # `hidden` whose content is not rendered, though its text is read (innerText)


def is_kept_hidden_field(element: Element) -> bool:
    """An input that was a hidden field when the page was saved (module notes)."""
    return element.tag == "input" and (element.attrs.get(TYPE_MARK) or "").lower() == "hidden"


def hidden_as(element: Element) -> str | None:
    """The value of the element's `hidden` attribute, or of the one it had when the page was saved; None when it
    has none."""
    for name in ("hidden", HIDDEN_MARK):
        if name in element.attrs:
            return element.attrs.get(name) or ""
    return None


def is_hidden(element: Element) -> bool:
    """Neither the element nor anything in it is on show: it, or an element around it, is hidden (`hidden_as`)."""
    node: Element | None = element
    while node is not None:
        if hidden_as(node) is not None:
            return True
        node = node.parent
    return False


def shown_text(element: Element, separator: str = " ") -> str:
    """`Element.text` as the page shows it (its innerText's words): the texts of hidden elements left out;
    `hidden=until-found` keeps its text, as Chromium reads it."""
    return element.text(separator, shown=_shown)


def _shown(element: Element) -> bool:
    return (hidden := hidden_as(element)) is None or hidden.lower() == UNTIL_FOUND


# A start tag as Chromium's writer spells it (every value quoted; a `>` may be inside one), and one attribute of it.
_ATTRIBUTE = r"""\s+([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s"'>]+))?"""
_START_TAG = re.compile(rf"<([a-zA-Z][^\s/>]*)((?:{_ATTRIBUTE})*)(\s*/?>)")
_ATTRIBUTES = re.compile(_ATTRIBUTE)


def as_served_live(html: str) -> str:
    """A saved page's HTML with what keep_hidden.js changed put back (module notes): each kept hidden field's type
    is hidden again, each element its `hidden` of the same value. Only attributes change: every element keeps its
    XPath, and the marks stay (the page saved again is marked again)."""
    if TYPE_MARK not in html and HIDDEN_MARK not in html:
        return html
    return _START_TAG.sub(_tag_as_live, html)


def _tag_as_live(match: re.Match[str]) -> str:
    name, attributes, end = match.group(1), match.group(2), match.group(len(match.groups()))
    if TYPE_MARK not in attributes and HIDDEN_MARK not in attributes:
        return match.group(0)
    values = {m.group(1).lower(): m.group(2) or "" for m in _ATTRIBUTES.finditer(attributes)}
    if name.lower() == "input" and values.get(TYPE_MARK, "").strip("\"'").lower() == "hidden":
        attributes = _ATTRIBUTES.sub(lambda m: ' type="hidden"' if m.group(1).lower() == "type" else m.group(0),
                                     attributes)
    if HIDDEN_MARK in values and "hidden" not in values:
        attributes += f" hidden={values[HIDDEN_MARK] or chr(34) * 2}"
    return f"<{name}{attributes}{end}"
