"""The browser's element tree of a saved page, its XPaths and its text map.

The tree is the HTML5 parse (lexbor, through selectolax), which builds the same element tree as Chromium
(implied `tbody`, `p` auto-closing, foster parenting, SVG in its namespace). It is then *cleaned* the way the
NEXT-EVAL paper pipeline cleaned the live DOM before taking XPaths: `script`, `style`, `link`, every `meta`
without `charset` and all comments are left out, without merging the text nodes around a comment.

A declarative shadow root is not part of the tree either, as in the browser (see `_ShadowRoots`): the <template>
that holds it, and its content, are left out.

Every walk here is iterative: a page nested 10,000 deep must not exhaust Python's recursion limit.
"""

from __future__ import annotations

import gc
import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
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

# Declarative shadow DOM, as QtWebEngine (Chromium 140) reads it (tests/app/test_shadow_roots_conformance.py).
# The elements that may host a shadow root (HTML's "attach a shadow root"), besides autonomous custom elements.
SHADOW_HOST_TAGS = frozenset({"article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4", "h5",
                              "h6", "header", "main", "nav", "p", "section", "span"})
SHADOW_ROOT_MODES = frozenset({"open", "closed"})
# A valid custom element name (PCENChar), which Chromium 140 still applies, less the reserved hyphenated names.
_CUSTOM_ELEMENT_NAME = re.compile(
    "[a-z][-.0-9_a-z\xb7\xc0-\xd6\xd8-\xf6\xf8-\u037d\u037f-\u1fff\u200c\u200d\u203f\u2040\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff]*")
_RESERVED_CUSTOM_NAMES = frozenset({"annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri",
                                    "font-face-format", "font-face-name", "missing-glyph"})
# Where SVG and MathML hold HTML: a child there is parsed as HTML (mglyph and malignmark excepted under MathML text).
_SVG_HTML_PARENTS = frozenset({"foreignObject", "desc", "title"})
_MATHML_TEXT_PARENTS = frozenset({"mi", "mo", "mn", "ms", "mtext"})
_HTML_ANNOTATION_ENCODINGS = frozenset({"text/html", "application/xhtml+xml"})
# How a template leaves the tree as a shadow root: attached by the parser, which never inserted it (so the texts on
# either side of it are one text node), or removed by Chromium's MHTML loader after the parse (they stay two).
PARSED, ARCHIVED = "parsed", "archived"


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

    def text(self, separator: str = " ", *, shown: Callable[[Element], bool] | None = None) -> str:
        """All trimmed, non-empty texts at or below this element, in document order, joined; with `shown`, only
        those of elements it keeps (an element it leaves out is left out with all below it)."""
        parts: list[str] = []
        stack: list[Element | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                if text := js_trim(item):
                    parts.append(text)
            elif shown is None or shown(item):
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
        written with a trailing "/" resolves to the element whose descendants it names (`label_target`), so that
        import, the app and `labels check` agree that it names something."""
        return self.label_target(xpath)[0]

    def label_target(self, xpath: str) -> tuple[Element | None, bool]:
        """The element a label's XPath names (None if nothing), and whether the label names that element's
        descendants only: written with a trailing "/" (`descendants_root`). The page's root (`/`, the empty
        path) names every text, with nothing to write a "/" after."""
        from ..records.model import normalise_xpath

        path = normalise_xpath(xpath)
        if path in ("", ROOT_XPATH):
            return self.root, False
        found = self.by_xpath.get(path)
        if found is not None:
            return found, False
        root = descendants_root(path)
        found = self.by_xpath.get(root) if root is not None else None
        return found, found is not None

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


def descendants_root(path: str) -> str | None:
    """Of a normalised label XPath written with a trailing "/" (`/body[1]/ul[1]/`), the XPath of the element whose
    descendants it names, as the score reads it (NEXT-EVAL-NOTES §4.1): `/body[1]/ul[1]`. None for any other
    path: one without it, the root's `/` (every text), or one ending in an empty step (`//`, which names nothing)."""
    if len(path) > 1 and path.endswith("/") and not path.endswith("//"):
        return path[:-1]
    return None


def within(element: Element | None, tags: frozenset[str] = frozenset(), roles: frozenset[str] = frozenset()) -> bool:
    """True when `element` or one of its ancestors has one of `tags` or an ARIA role among `roles`."""
    while element is not None:
        if element.tag in tags or (element.attrs.get("role") or "") in roles:
            return True
        element = element.parent
    return False


def inside_links(page: Page) -> list[bool]:
    """Per element (by `order`): whether it is a link (`a`) or lies inside one."""
    inside = [False] * len(page.elements)
    for element in page.elements:  # document order: every element after its ancestors
        inside[element.order] = element.tag == "a" or (element.parent is not None and inside[element.parent.order])
    return inside


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


def parse_html(html: str | bytes, *, max_elements: int | None = None, mhtml: bool = False) -> Page:
    """Parse a page as Chromium does and clean it by the NEXT-EVAL rules.

    The markup is bounded first (bounds.bound_markup): nesting deeper than bounds.MAX_NESTING is flattened,
    and more than `max_elements` elements (default: bounds.max_elements_setting()) raise TooManyElementsError.
    `mhtml`: the page is the main part of an MHTML archive (a Snapshot of kind "mhtml"), which the app shows
    through Chromium's MHTML loader: that loader also drops the shadow roots Chromium saved in it.
    """
    if isinstance(html, bytes):
        html = html.decode("utf-8", errors="replace")
    # NUL is left for the parser, which reads it as HTML5 and Chromium do: dropped from text in the body (and in
    # tables, selects), U+FFFD in tag and attribute names and values, comments, <title>, <textarea> and SVG.
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
        root, elements = _build_clean_tree(html_node, mhtml)
    finally:
        if was_enabled:
            gc.enable()
    by_xpath = {e.xpath: e for e in elements if e.xpath}
    page = Page(root=root, elements=elements, by_xpath=by_xpath, text_map=_text_map(elements), warnings=warnings)
    page._tree = tree  # type: ignore[attr-defined]  # each Element keeps its lexbor node: valid only while the parser lives
    return page


def _build_clean_tree(html_node: LexborNode, mhtml: bool = False) -> tuple[Element, list[Element]]:
    root = Element("html", html_node.attributes, None, "", 0, html_node)
    elements = [root]
    append_element = elements.append
    shadow_roots = _ShadowRoots(mhtml)
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
                if tag == "template" and attrs and (gone := shadow_roots.take(node, attrs, parent)):
                    if gone == PARSED:
                        node = _join_texts_around(node, parents[-1].children)
                else:
                    # Chromium compares siblings on the raw tagName (case kept for SVG), and writes it lowercased.
                    index = count[tag] = count.get(tag, 0) + 1
                    element = Element(tag, attrs, parent, f"{parent.xpath}/{tag.lower()}[{index}]",
                                      len(elements), node)
                    parent.children.append(element)
                    append_element(element)
                    # An HTML template's content lives in a separate fragment, not in the tree: lexbor gives it no
                    # child. An SVG or MathML <template> is an ordinary element, children and all.
                    child = node.child
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


class _ShadowRoots:
    """The shadow roots the browser attaches while it reads a page, so as to know which <template>s leave the tree.

    The HTML parser (pages and archives) attaches a template whose `shadowrootmode` is open or closed (ASCII
    case-insensitive) to its parent when that may host a shadow root and has none yet; it never inserts it.
    Chromium's MHTML loader then walks <body> in document order and removes each template with a `shadowmode`
    attribute (how Chromium saves a shadow root), whatever its namespace or value. A value of exactly "open" or
    "closed" is attached to the parent; the first attach that fails (a parent that may not host one, or that hosts
    one already, unless the parser's of the same mode) ends the walk: later such templates stay."""

    __slots__ = ("parsed", "saved", "mhtml", "walk_ended", "namespaces")

    def __init__(self, mhtml: bool) -> None:
        self.parsed: dict[Element, str] = {}  # host -> the mode of the shadow root the parser attached to it
        self.saved: set[Element] = set()  # hosts the MHTML loader attached a shadow root to
        self.mhtml = mhtml
        self.walk_ended = False
        self.namespaces: dict[Element, str] = {}  # see _namespace_of

    def take(self, template: LexborNode, attrs: dict[str, str | None], host: Element) -> str | None:
        """PARSED or ARCHIVED when the browser takes `template` (a child of `host`) out of the tree, else None."""
        mode = _parser_mode(attrs)
        if mode is not None and host not in self.parsed and _may_host_shadow_root(host, self.namespaces):
            self.parsed[host] = mode
            return PARSED
        if not self.mhtml or self.walk_ended or "shadowmode" not in attrs or host.tag == "head":
            return None
        saved = attrs["shadowmode"]
        if saved in SHADOW_ROOT_MODES:
            # The loader comes after the parse: the parser's root on this host may stand later among its children.
            parsed = self.parsed.get(host) or _later_parser_mode(template)
            if host in self.saved or parsed not in (None, saved) or not _may_host_shadow_root(host, self.namespaces):
                self.walk_ended = True
            elif parsed is None:
                self.saved.add(host)
        return ARCHIVED


def _parser_mode(attrs: dict[str, str | None]) -> str | None:
    """A template's `shadowrootmode` when the parser honours it: open or closed, ASCII case-insensitive."""
    mode = attrs.get("shadowrootmode")
    if mode is None or not mode.isascii() or (mode := mode.lower()) not in SHADOW_ROOT_MODES:
        return None
    return mode


def _later_parser_mode(template: LexborNode) -> str | None:
    following = template.next
    while following is not None:
        if following.tag == "template" and (mode := _parser_mode(following.attributes)) is not None:
            return mode
        following = following.next
    return None


def _may_host_shadow_root(element: Element, namespaces: dict[Element, str]) -> bool:
    """An HTML element whose name HTML lets attach a shadow root (an SVG <section> may not)."""
    tag = element.tag
    if tag not in SHADOW_HOST_TAGS and (tag in _RESERVED_CUSTOM_NAMES or "-" not in tag
                                        or _CUSTOM_ELEMENT_NAME.fullmatch(tag) is None):
        return False
    return _namespace_of(element, namespaces) == "html"


def _namespace_of(element: Element, known: dict[Element, str]) -> str:
    """"html", "svg" or "math": the tree builder's choice for each element from the nearest one in `known` (or
    <html>) down; each is added to `known`, so that a page's shadow hosts cost one walk of the tree at most."""
    lineage: list[Element] = []
    ancestor: Element | None = element
    while ancestor is not None and ancestor not in known:
        lineage.append(ancestor)
        ancestor = ancestor.parent
    if ancestor is None:
        ancestor = lineage.pop()  # <html>
        known[ancestor] = "html"
    parent, namespace = ancestor, known[ancestor]
    while lineage:
        child = lineage.pop()
        html_rules = (namespace == "html" or (namespace == "svg" and parent.tag in _SVG_HTML_PARENTS)
                      or (namespace == "math" and parent.tag in _MATHML_TEXT_PARENTS
                          and child.tag not in ("mglyph", "malignmark"))
                      or (namespace == "math" and parent.tag == "annotation-xml" and child.tag != "svg"
                          and (parent.attrs.get("encoding") or "").lower() in _HTML_ANNOTATION_ENCODINGS))
        if child.tag in ("svg", "math") and (html_rules or (namespace == "math" and parent.tag == "annotation-xml")):
            namespace = child.tag
        elif html_rules:
            namespace = "html"
        known[child] = namespace
        parent = child
    return namespace


def _join_texts_around(template: LexborNode, children: list[Element | str]) -> LexborNode:
    """The node after which the walk goes on past a template the parser never inserted: when texts stand on both
    sides of it, the browser has one text node, so the text after is added to the one before, and skipped."""
    before, after = template.prev, template.next
    if before is None or after is None or before.tag != "-text" or after.tag != "-text" or not children:
        return template
    text = children[-1]
    if not isinstance(text, str):
        return template
    children[-1] = text + (after.text_content or "")
    return after


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
