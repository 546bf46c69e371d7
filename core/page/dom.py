"""The browser's element tree of a saved page, its XPaths and its text map.

The tree is the HTML5 parse (lexbor, through selectolax), which builds the same element tree as Chromium
(implied `tbody`, `p` auto-closing, foster parenting, SVG in its namespace). It is then *cleaned* the way the
NEXT-EVAL paper pipeline cleaned the live DOM before taking XPaths: `script`, `style`, `link`, every `meta`
without `charset` and all comments are left out, without merging the text nodes around a comment.

Every walk here is iterative: a page nested 10,000 deep must not exhaust Python's recursion limit.
"""

from __future__ import annotations

import gc
import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser, LexborNode

from ..errors import RecordLensError
from .bounds import bound_markup

# JavaScript's String.prototype.trim set (WhiteSpace + LineTerminator). Python's str.strip() also strips
# U+001C..U+001F and U+0085, which JavaScript keeps, so the set is spelled out.
JS_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
# Entries whose whole text is one of these are dropped from the text map (the reference's 1-character filter).
DROPPED_TEXTS = frozenset({"\u200b", "\u200c", '"'})
REMOVED_TAGS = frozenset({"script", "style", "link"})
# The key the reference gives text sitting directly under <html>: its path below <html> is empty.
# The sectioning elements HTML gives to page chrome rather than content (header, navigation, footer, aside).
CHROME_TAGS = frozenset({"header", "nav", "footer", "aside"})
# The ARIA landmarks of page chrome, the roles that stand for those tags.
LANDMARK_ROLES = frozenset({"navigation", "banner", "contentinfo"})
ROOT_XPATH = "/"
# Chromium's HTML parser stops nesting at this depth of open elements (kMaximumHTMLParserDOMTreeDepth): deeper
# elements are attached to the element at that depth, as siblings. Lexbor nests without limit, so the tree is
# flattened here the same way; it also bounds XPath length, which would otherwise grow with depth squared.
MAX_TREE_DEPTH = 512

_STEP = re.compile(r"\[\d+\]$")


def js_trim(text: str) -> str:
    return text.strip(JS_WHITESPACE)


class Element:
    """One element of the cleaned tree. `children` mixes Elements and raw (untrimmed) text strings.

    `parent` and `children` make every tree a reference cycle: its Page unties it when it is freed (`Page.__del__`),
    so read an element's parent while its Page is held."""

    __slots__ = ("tag", "attrs", "parent", "children", "xpath", "order", "_node")

    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Element | None, xpath: str,
                 order: int, node: LexborNode | None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.parent = parent
        self.children: list[Element | str] = []
        self.xpath = xpath
        self.order = order
        self._node = node

    def __repr__(self) -> str:
        return f"<Element {self.xpath or ROOT_XPATH}>"

    @property
    def key(self) -> str:
        """The element's XPath as a text-map key (`/` for <html> itself)."""
        return self.xpath or ROOT_XPATH

    def element_children(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def iter(self) -> Iterator[Element]:
        """This element and every element below it, in document order."""
        stack: list[Element] = [self]
        while stack:
            element = stack.pop()
            yield element
            stack.extend(reversed(element.element_children()))

    def own_texts(self) -> list[str]:
        return [t for c in self.children if isinstance(c, str) and (t := js_trim(c))]

    def text(self, separator: str = " ") -> str:
        """All trimmed, non-empty texts at or below this element, in document order, joined."""
        parts: list[str] = []
        stack: list[Element | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if text := js_trim(item):
                    parts.append(text)
            else:
                stack.extend(reversed(item.children))
        return separator.join(parts)

    def is_ancestor_of(self, other: Element) -> bool:
        return other.xpath.startswith(self.xpath + "/")

    @property
    def template_html(self) -> str | None:
        """For a <template>, its serialised self with content (content is not part of the tree)."""
        if self.tag == "template" and self._node is not None:
            return self._node.html
        return None


@dataclass
class Page:
    """A parsed, cleaned page: its elements in document order, an index by XPath, and the text map."""

    root: Element
    elements: list[Element]
    by_xpath: dict[str, Element]
    text_map: dict[str, str]
    warnings: list[str] = field(default_factory=list)
    name: str | None = None  # the page's name in its dataset or project (`12`, `12_v3`), when it has one

    def __del__(self) -> None:
        """The tree untied (every parent link cleared) as the page is freed: its elements are then freed at once,
        by reference counting, instead of at the cyclic collector's next full pass, which a loop over a thousand
        pages (train, score, extract) left holding several parsed pages. A plain `parent` slot, read in the
        extractors' hot loops, costs nothing more to read (a weak reference to the parent, read through a
        property, made `repeats` a fifth slower)."""
        for element in self.elements:
            element.parent = None

    def element_xpaths(self) -> list[str]:
        """Every element's XPath in document order, <html> first as `/`."""
        return [e.key for e in self.elements]

    def resolve(self, xpath: str) -> Element | None:
        """The element an absolute XPath names, after the reference's normalisation; None if nothing. A path
        written with a trailing "/" names its element's descendants, as the score reads it (NEXT-EVAL-NOTES
        §4.1): it resolves to that element, so that import, the app and `labels check` agree that it names
        something."""
        from ..records.model import normalise_xpath

        path = normalise_xpath(xpath)
        if path in ("", ROOT_XPATH):
            return self.root
        found = self.by_xpath.get(path)
        if found is None and len(path) > 1 and path.endswith("/") and not path.endswith("//"):
            found = self.by_xpath.get(path[:-1])
        return found

    @property
    def body(self) -> Element | None:
        return self.by_xpath.get("/body[1]")

    def text_digest(self) -> str:
        """The page's identity by its texts where they stand, whatever file or format it was read from: a run
        records it for each page, so that it is not scored later against another page of the same name."""
        return hashlib.sha256(repr(sorted(self.text_map.items())).encode()).hexdigest()[:16]

    def text_keys_under(self, element: Element) -> list[str]:
        """The text-map keys at or below an element, in text-map order."""
        if element is self.root:
            return list(self.text_map)
        prefix = element.xpath
        return [k for k in self.text_map if k == prefix or k.startswith(prefix + "/")]


class ParseError(RecordLensError):
    pass


def within(element: Element | None, tags: frozenset[str] = frozenset(), roles: frozenset[str] = frozenset()) -> bool:
    """True when `element` or one of its ancestors has one of `tags` or an ARIA role among `roles`."""
    while element is not None:
        if element.tag in tags or (element.attrs.get("role") or "") in roles:
            return True
        element = element.parent
    return False


def common_ancestor(elements: Sequence[Element], reach: int | None = None) -> Element | None:
    """The deepest element at or above every one of `elements`. With `reach`, only one at most that many levels
    above each of them (else None): nearby elements share a container, distant ones only the page."""
    ancestor = elements[0]
    for element in elements[1:]:
        while ancestor is not element and not ancestor.is_ancestor_of(element) and ancestor.parent is not None:
            ancestor = ancestor.parent
    if reach is not None and any(_levels_between(ancestor, e) > reach for e in elements):
        return None
    return ancestor


def _levels_between(ancestor: Element, element: Element) -> int:
    levels, node = 0, element
    while node is not ancestor and node is not None:
        levels, node = levels + 1, node.parent
    return levels


def parse_html(html: str | bytes, *, max_elements: int | None = None) -> Page:
    """Parse a page as Chromium does and clean it by the NEXT-EVAL rules.

    The markup is bounded first (bounds.bound_markup): nesting deeper than bounds.MAX_NESTING is flattened,
    and more than `max_elements` elements (default: bounds.max_elements_setting()) raise TooManyElementsError.
    """
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    # Lexbor stops at NUL in some builds; browsers turn NUL into U+FFFD in text anyway.
    if "\x00" in html:
        html = html.replace("\x00", "\ufffd")
    warnings: list[str] = []
    html = bound_markup(html, warnings, max_elements=max_elements)
    tree = LexborHTMLParser(html)
    html_node = tree.root
    if html_node is None:
        raise ParseError("the HTML parser produced no document element")
    # Building the tree allocates one object per element and a cycle (parent <-> child) each: the cyclic
    # collector would otherwise run hundreds of times on a large page for nothing.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        root, elements = _build_clean_tree(html_node)
    finally:
        if was_enabled:
            gc.enable()
    by_xpath = {e.xpath: e for e in elements if e.xpath}
    page = Page(root=root, elements=elements, by_xpath=by_xpath, text_map=_text_map(elements), warnings=warnings)
    page._tree = tree  # type: ignore[attr-defined]  # each Element keeps its lexbor node: valid only while the parser lives
    return page


def _build_clean_tree(html_node: LexborNode) -> tuple[Element, list[Element]]:
    root = Element("html", html_node.attributes, None, "", 0, html_node)
    elements = [root]
    append_element = elements.append
    # Parallel stacks, one entry per open element: the Element (where text goes) and the per-tag counters of
    # its element children. Past MAX_TREE_DEPTH an element's DOM parent is no longer the top of the stack.
    parents: list[Element] = [root]
    counters: list[dict[str, int]] = [{}]
    node: LexborNode | None = html_node.child
    while node is not None:
        tag = node.tag
        if tag == "-text":
            parents[-1].children.append(node.text_content or "")
        elif tag and tag[0] != "-" and tag not in REMOVED_TAGS:  # no tag: a processing instruction, a comment
            attrs = node.attributes
            if tag != "meta" or "charset" in attrs:
                depth = len(parents)
                slot = depth - 1 if depth <= MAX_TREE_DEPTH else MAX_TREE_DEPTH - 1
                parent, count = parents[slot], counters[slot]
                # Chromium compares siblings on the raw tagName (case kept for SVG), and writes it lowercased.
                index = count[tag] = count.get(tag, 0) + 1
                element = Element(tag, attrs, parent, f"{parent.xpath}/{tag.lower()}[{index}]",
                                  len(elements), node)
                parent.children.append(element)
                append_element(element)
                # Template content lives in a separate fragment, not in the tree (and lexbor agrees).
                child = node.child if tag != "template" else None
                if child is not None:
                    parents.append(element)
                    counters.append({})
                    node = child
                    continue
        following = node.next
        while following is None:
            node = node.parent
            parents.pop()
            counters.pop()
            if not parents:
                return root, elements
            following = node.next
        node = following
    return root, elements


def _text_map(elements: list[Element]) -> dict[str, str]:
    """Parent XPath -> trimmed text, as the reference's JS Map holds it.

    The walk visits text nodes in true document order: a key keeps the position of its *first* text and
    takes the value of its *last* one, so visiting texts grouped by parent would reorder keys.
    """
    text_map: dict[str, str] = {}
    stack: list[tuple[Element, int]] = [(elements[0], 0)] if elements else []
    while stack:
        element, position = stack.pop()
        children = element.children
        while position < len(children):
            child = children[position]
            position += 1
            if isinstance(child, str):
                text = js_trim(child)
                if text:
                    text_map[element.key] = text
            else:
                stack.append((element, position))
                stack.append((child, 0))
                break
    return {k: v for k, v in text_map.items() if v not in DROPPED_TEXTS}
