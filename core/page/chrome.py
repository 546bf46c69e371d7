"""Page chrome: the parts of a page that frame its content (menus, banners, footers, sidebars), judged by structure.

An element lies in page chrome when it is inside
- an element HTML or ARIA names as chrome: a `nav` or `aside`, an element of role navigation, banner or
  contentinfo, or a `header` or `footer` of the page's own (one inside an article, aside, main, nav or section is
  that section's title block or footer, as HTML's implicit banner and contentinfo roles say, and one inside a list
  item or a table cell is that item's: a card's own header in a list of cards); or
- a *framing block*: a block of the page's layout beside its main content that is mostly links (a menu or a
  footer of link columns made of `div`s). The layout is read from the top down: at each level (the body's blocks,
  then those of the block that holds the main content, and so on) the main block is the one that holds the page's
  `main` (or role main) element, else the one with the most text, and it is taken as the main content only when it
  holds at least half the level's text and two thirds of the text of the blocks that are not mostly links (a list
  of records, or of columns alike, has no such block, nor has a column of content sections: the walk stops
  there). Every other block of that level whose text is at least two thirds link text, and that is not an item
  like the main block (same tag, class and children's tags), is chrome. The walk stops at the main content itself
  (`main`, role main, `article`), at a list or table, and at chrome.

Never by the words of a class or an id, nor by a page's texts or its site: only tags, roles, position beside the
main content and the share of link text. The share and the main content are measured in characters of the page's
text map (the texts the score reads), so an element without text (an image, an empty link) weighs nothing.

A set of text keys (a record's, expanded as the score expands it) lies in page chrome when more than half of its
characters do (`PageChrome.holds`): one incidental element (an image in a menu, one link of it beside a card's
texts) does not make a record chrome.
"""

from __future__ import annotations

from collections.abc import Iterable

from .dom import CHROME_TAGS, LANDMARK_ROLES, Element, Page, inside_links, within

# HTML's sectioning content and `main`: a header or footer inside one of them is that section's (an article's title
# block), not the page's banner or contentinfo, as HTML's implicit ARIA roles say; and one inside an item of a list
# or a cell of a table is that item's (a card's own header and footer, in a list of cards)
SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
ITEMS = frozenset({"li", "dd", "td", "th"})
PAGE_WIDE_ONLY = frozenset({"header", "footer"})
# The main content itself: the layout walk goes no deeper, and no block of these is a framing block.
CONTENT_TAGS = frozenset({"main", "article"})
CONTENT_ROLES = frozenset({"main", "article"})
# Lists and tables: their children are items and rows, not blocks of the page's layout.
ITEM_PARENTS = frozenset({"ul", "ol", "menu", "dl", "table", "thead", "tbody", "tfoot", "tr", "select", "datalist"})
# The main block holds at least this share of its level's text, and CONTENT_SHARE of the text of the blocks that
# are not mostly links, for the level to be the page's layout
MAIN_SHARE = 1 / 2
CONTENT_SHARE = 2 / 3
LINK_SHARE = 2 / 3  # a block is mostly links when at least this share of its text is link text


def named_chrome(element: Element) -> bool:
    """True when HTML or ARIA names the element itself page chrome (see the module notes)."""
    if (element.attrs.get("role") or "") in LANDMARK_ROLES:
        return True
    return element.tag in CHROME_TAGS and (element.tag not in PAGE_WIDE_ONLY
                                           or not within(element.parent, SECTIONING | ITEMS))


class PageChrome:
    """The page chrome of one page: its framing elements and the text keys inside them."""

    def __init__(self, page: Page) -> None:
        self._page = page
        self._text, self._links = _text_sizes(page)
        named = [e for e in page.elements if named_chrome(e)]
        self.framing: list[Element] = _framing_blocks(page, self._text, self._links)
        self.keys: frozenset[str] = _keys_inside(page, [*named, *self.framing])

    def holds(self, keys: Iterable[str]) -> bool:
        """True when more than half the characters of these text keys lie in page chrome (none: False)."""
        text = self._page.text_map
        total = inside = 0
        for key in keys:
            size = len(text.get(key, ""))
            total += size
            if key in self.keys:
                inside += size
        return inside * 2 > total


def _text_sizes(page: Page) -> tuple[list[int], list[int]]:
    """Per element (by `order`): the characters of the text-map entries at or below it, and of those inside a link."""
    count = len(page.elements)
    text, links, in_link = [0] * count, [0] * count, inside_links(page)
    for element in reversed(page.elements):  # children before parents
        own = len(page.text_map.get(element.key, ""))
        text[element.order] += own
        links[element.order] += own if in_link[element.order] else 0
        if element.parent is not None:
            text[element.parent.order] += text[element.order]
            links[element.parent.order] += links[element.order]
    return text, links


def _framing_blocks(page: Page, text: list[int], links: list[int]) -> list[Element]:
    """The blocks beside the main content, level by level down the layout, that are mostly links."""
    holds_main = _holding_main(page)
    found: list[Element] = []
    node = page.body or page.root
    while True:
        blocks = [child for child in node.element_children() if text[child.order]]
        if not blocks:
            return found
        main = next((b for b in blocks if b.order in holds_main), None)
        if main is None:
            main = max(blocks, key=lambda b: text[b.order])  # the first of the largest
            if not _dominates(main, blocks, text, links):
                return found  # items or columns alike, or sections of the content: not the page's layout
        found += [b for b in blocks if b is not main and _frames(b, main, text, links)]
        if _content(main) or main.tag in ITEM_PARENTS or named_chrome(main):
            return found
        node = main


def _dominates(main: Element, blocks: list[Element], text: list[int], links: list[int]) -> bool:
    """The largest block is the level's main content: it holds half the level's text and two thirds of that of the
    blocks that are not mostly links (itself counted whatever its links)."""
    content = sum(text[b.order] for b in blocks if b is main or not _mostly_links(b, text, links))
    return (text[main.order] >= MAIN_SHARE * sum(text[b.order] for b in blocks)
            and text[main.order] >= CONTENT_SHARE * content)


def _frames(block: Element, main: Element, text: list[int], links: list[int]) -> bool:
    """A block beside the main one frames the page: mostly links, neither content nor an item like the main one."""
    return (_mostly_links(block, text, links) and not _content(block) and not named_chrome(block)
            and _shape(block) != _shape(main))


def _mostly_links(block: Element, text: list[int], links: list[int]) -> bool:
    return links[block.order] >= LINK_SHARE * text[block.order]


def _shape(element: Element) -> tuple[str, str, frozenset[str]]:
    """What blocks of one series share (items of a list laid out as blocks): tag, class as written, children's tags."""
    return element.tag, element.attrs.get("class") or "", frozenset(c.tag for c in element.element_children())


def _content(element: Element) -> bool:
    return element.tag in CONTENT_TAGS or (element.attrs.get("role") or "") in CONTENT_ROLES


def _holding_main(page: Page) -> set[int]:
    """The orders of the elements at or above the page's main content element (`main`, role main)."""
    holding: set[int] = set()
    for element in page.elements:
        if element.tag == "main" or (element.attrs.get("role") or "") == "main":
            node: Element | None = element
            while node is not None and node.order not in holding:
                holding.add(node.order)
                node = node.parent
    return holding


def _keys_inside(page: Page, roots: Iterable[Element]) -> frozenset[str]:
    """The text-map keys at or below any of `roots`."""
    orders = {e.order for e in roots}
    inside = [False] * len(page.elements)
    for element in page.elements:  # parents before children
        parent = element.parent
        inside[element.order] = element.order in orders or (parent is not None and inside[parent.order])
    return frozenset(e.key for e in page.elements if inside[e.order] and e.key in page.text_map)
