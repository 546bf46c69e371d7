"""A document's shown text, line by line, by the Qt browser's rules (resources/js/som.js `pageText`).

The Qt browser walks the rendered page and sets texts apart by each element's computed `display`: a block (a
paragraph, a list item, a table row, a definition term) starts a new line; a table cell, an inline block (a button,
a field) or a ruby text joins its row with a space; an inline element (a link, `<b>`) joins its text with nothing
but the spaces the text itself has ("Hel<b>lo</b>" is "Hello"). A `<br>` breaks the line. Runs of spaces, tabs and
newlines are one space, except inside `<pre>` (and `<listing>`, `<xmp>`, `<plaintext>`), whose lines are kept as
written. A list box shows its chosen option, a text area its value; a field's value is the field's text, not the
page's. Scripts, images, media, SVG, MathML and frames add nothing (a frame's text follows the page's).

With no style sheet here, `display` is Chromium's default for the element (its UA style sheet, html.css), which
the Qt browser's own answers were read from: what the page's CSS changes (a flex row, a menu shown as a block) is
beyond a reader without layout, but for an element's own `style` attribute's `display` (which wins over the style
sheets; `display: none` leaves the element out). One guess stands in for the style sheets: a link right after a
link, with no text between, is set apart by a space (Chromium's defaults would run "Home" and "About" into
"HomeAbout", but a page's style always sets its links apart, by a margin as the demo site's header does, or as the
items of a flex row), so that both browsers give the same words.

Text that is invisible by `visibility` (hidden or collapse) is left out, as the Qt browser leaves out text whose
computed visibility is not `visible`: here as far as the elements' own `style` attributes say. Visibility is
inherited, so all an invisible element holds is left out, but for a part of it made visible again (`visibility:
visible` on an element inside it); an invisible element still sets its text apart as its display says, and an
invisible list box or text area adds nothing.

An element that is not displayed by default is left out with all it holds: one with `hidden` (but
`hidden=until-found`, whose text Chromium reads), a hidden field, a closed `<dialog>`, a popover (never open in a
saved page), `<title>`, `<datalist>`, `<rp>` and the like.

The walk is iterative, as every walk of core's trees: a page nested thousands deep must not exhaust the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..page.dom import JS_WHITESPACE, Element, Page, js_trim
from .forms import FormControls, input_type, raw_text, selected_options
from .hidden_fields import UNTIL_FOUND, hidden_as
from .inline_style import inline_style, visible_by_style

INLINE, SPACED, BLOCK = 0, 1, 2  # what an element puts around its text: nothing, a space, a new line
LINK_END = -1  # on the walk's stack: a link ends here

# What pageText never enters: no text of theirs is the page's (som.js SKIPPED; the app's own layer is not here).
SKIPPED = frozenset({"script", "style", "noscript", "template", "head", "iframe", "object", "embed", "canvas",
                     "video", "audio", "img", "svg", "math"})
# Chromium's `display: none` by default (a `<frameset>` document's `<noframes>` included).
NOT_DISPLAYED = frozenset({"base", "basefont", "datalist", "link", "meta", "noembed", "noframes", "param", "rp",
                           "title"})
# Chromium's block-level defaults: block, list-item, table, table-caption, the table row and column groups, rows.
BLOCKS = frozenset({
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "dir", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
    "h6", "header", "hgroup", "hr", "html", "legend", "li", "listing", "main", "menu", "nav", "ol", "optgroup",
    "option", "p", "plaintext", "pre", "search", "section", "summary", "ul", "xmp",
    "table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr",
})
# Inline blocks (fields, buttons, meters), table cells and ruby: set apart by a space.
SPACED_TAGS = frozenset({"button", "input", "meter", "progress", "select", "textarea", "marquee", "td", "th", "ruby"})
PRE_TAGS = frozenset({"pre", "listing", "xmp", "plaintext"})  # `white-space: pre`, which what they hold inherits
TEXT_CHARS = 200  # som.js cuts an element's text (a list box's chosen option) at this many characters
# An inline style's display that is no start of "inline", "ruby" or "table-cell", nor a block (None: not displayed).
_DISPLAY_KINDS: dict[str, int | None] = {"none": None, "inline": INLINE, "contents": INLINE}
_COLLAPSED = re.compile(r"[ \t\n\r\f]+")  # the white space CSS collapses (not a no-break space)
_JS_SPACES = re.compile(f"[{re.escape(JS_WHITESPACE)}]+")  # JavaScript's \s


def page_text(page: Page | None, controls: FormControls | None = None) -> str:
    """The text of `page`'s body as the Qt browser gives it (module notes), one line a block; `controls` holds what
    was typed into its text areas (none: their markup's text)."""
    body = page.body if page is not None else None
    if body is None:
        return ""
    return "\n".join(_Lines(controls or FormControls(page)).walk(body))


def display_kind(element: Element) -> int | None:
    """How the element sets its text apart (INLINE, SPACED or BLOCK) by Chromium's default display; None when it is
    not displayed."""
    tag = element.tag
    hidden = hidden_as(element)
    if tag in NOT_DISPLAYED or (hidden is not None and hidden.lower() != UNTIL_FOUND):
        return None
    if (tag == "input" and input_type(element) == "hidden") or (tag == "dialog" and "open" not in element.attrs):
        return None
    if "popover" in element.attrs and not (tag == "dialog" and "open" in element.attrs):
        return None  # [popover]:not(:popover-open): nothing opens one in a saved page
    styled = _inline_display(element)
    if styled is not None:
        return _DISPLAY_KINDS.get(styled) if styled in _DISPLAY_KINDS else (
            SPACED if styled.startswith(("inline", "ruby", "table-cell")) else BLOCK)
    if tag in BLOCKS:
        return BLOCK
    if tag in SPACED_TAGS or (tag == "rt" and element.parent is not None and element.parent.tag == "ruby"):
        return SPACED
    return INLINE


def _inline_display(element: Element) -> str | None:
    """The `display` its own `style` attribute gives the element, None for none: what the page's style sheets say is
    beyond this reader, but a style attribute wins over them."""
    return inline_style(element, "display")


def field_text(element: Element, controls: FormControls) -> str:
    """What a list box or a text area adds to the page's text: the chosen option's text as set-of-mark reads it
    (textOf), the text area's value."""
    if element.tag == "select":
        chosen = selected_options(element)
        return js_squashed(raw_text(chosen[0]))[:TEXT_CHARS] if chosen else ""
    return js_squashed(controls.value(element))


def js_squashed(text: str) -> str:
    """JavaScript's `s.replace(/\\s+/g, " ").trim()`."""
    return js_trim(_JS_SPACES.sub(" ", text))


@dataclass
class _Lines:
    """pageText's state: the lines so far, the line being written, and what goes before the next text."""

    controls: FormControls
    lines: list[str] = field(default_factory=list)
    line: str = ""
    gap: int = INLINE
    after_link: bool = False  # a link has ended, and no text followed it yet

    def walk(self, body: Element) -> list[str]:
        # An int on the stack closes an element: what it puts after its text; LINK_END closes a link. An element's
        # entry carries whether what it holds is preformatted and whether it is visible (visibility is inherited:
        # an invisible element's text is left out, but for a part of it made visible again).
        around = body.parent
        shown = visible_by_style(body, around is None or visible_by_style(around, True))
        stack: list[tuple[Element | str, bool, bool] | int] = [(child, False, shown)
                                                               for child in reversed(body.children)]
        while stack:
            item = stack.pop()
            if item == LINK_END:
                self.after_link = True
                continue
            if isinstance(item, int):
                self.gap = max(self.gap, item)
                continue
            node, pre, visible = item
            if isinstance(node, str):
                if visible:  # invisible text adds nothing, not even the spaces around it (som.js `text`)
                    self.text(node, pre)
                continue
            if node.tag in SKIPPED:
                continue
            if node.tag == "br":
                self.gap = BLOCK
                continue
            kind = display_kind(node)
            if kind is None:
                continue
            if node.tag == "a" and self.after_link:  # links side by side: set apart (module notes)
                kind = max(kind, SPACED)
            self.gap = max(self.gap, kind)
            visible = visible_by_style(node, visible)
            if node.tag in ("select", "textarea"):
                if visible:
                    self.field(node)
                self.gap = max(self.gap, kind)
            elif node.tag != "input":  # a field's value is in its element's text, not the page's
                stack.extend((LINK_END, kind) if node.tag == "a" else (kind,))
                inner = pre or node.tag in PRE_TAGS
                stack.extend((child, inner, visible) for child in reversed(node.children))
        if self.line:
            self.lines.append(self.line)
        return self.lines

    def put(self, text: str) -> None:
        if self.gap == BLOCK and self.line:
            self.lines.append(self.line)
            self.line = ""
        elif self.gap == SPACED and self.line:
            self.line += " "
        self.gap = INLINE
        self.after_link = False
        self.line += text

    def text(self, raw: str, pre: bool) -> None:
        if pre:  # its lines as written, each on its own
            for i, part in enumerate(raw.split("\n")):
                if i:
                    self.gap = BLOCK
                if part:
                    self.put(part)
            return
        squashed = _COLLAPSED.sub(" ", raw)
        trimmed = js_trim(squashed)
        if squashed.startswith(" "):
            self.gap = max(self.gap, SPACED)
        if trimmed:
            self.put(trimmed)
            if squashed.endswith(" "):
                self.gap = max(self.gap, SPACED)

    def field(self, element: Element) -> None:
        value = field_text(element, self.controls)
        if value:
            self.gap = max(self.gap, SPACED)
            self.put(value)
