"""Structural transformations of a page's tree that keep its records recognisable.

They work in place on the core's cleaned tree (`dom.Element`s) and know the records through a `Layout`: every
record element, and for each record whose elements are siblings, its *unit* (the block that moves as one) and
its *container* (the parent of that block). Each transformation returns a `Applied` saying how much it did;
zero means it did not apply to this page (no table to turn into cards, no second record to shuffle...).

Everything written here must come back the same from an HTML5 parse, because the output's XPaths are taken
from the parse of the written page. So no `div` goes where the parser would move it: not between table rows,
not inside a `p`, not inside SVG or MathML. The driver still locates every record in the re-parsed output, so
a restructuring the parser does anyway moves the labels with it instead of breaking them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

from ..page.dom import Element, js_trim

TABLE_PARTS = frozenset({"table", "caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th"})
# Parents whose children the parser constrains: a div there would be moved or dropped.
CONSTRAINED_PARENTS = frozenset({"table", "thead", "tbody", "tfoot", "tr", "colgroup", "select", "optgroup",
                                 "datalist", "ruby", "frameset", "template", "textarea", "iframe"})
FOREIGN_ROOTS = frozenset({"svg", "math"})
# Where a block wrapper would look odd or close a paragraph: wrappers there are spans.
PHRASING = frozenset({"p", "span", "a", "b", "i", "em", "strong", "small", "label", "button", "h1", "h2", "h3", "h4",
                      "h5", "h6", "font", "code", "sub", "sup", "abbr", "cite", "q", "s", "u", "mark", "time",
                      "dt", "legend", "summary", "pre"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr", "param", "keygen"})
DIV_LIKE = ("div", "section", "article")
LISTS = frozenset({"ul", "ol"})
CARD_TAGS = frozenset({"div", "section", "article", "li"})
CARD_CONTAINERS = frozenset({"div", "section", "article", "ul", "ol", "main"})
# Attributes the attribute transformation may drop; the parser reads none of them.
DROPPABLE = ("style", "title", "role", "rel", "target", "tabindex", "itemprop", "itemscope", "itemtype")
# Elements whose attributes change how the parser builds the tree (hidden inputs in tables, foreign breakouts).
ATTRIBUTE_SENSITIVE = frozenset({"input", "font", "annotation-xml"})
CLASS_WORDS = ("item", "card", "entry", "tile", "row", "box", "cell", "block", "unit", "wrap", "inner", "slot")


@dataclass
class Unit:
    """One record's movable block: its elements (siblings, in document order) and the nodes that carry them.

    `nodes` starts as the elements themselves; once a wrapper holds them, it is the wrapper."""

    elements: list[Element]
    nodes: list[Element]

    @property
    def container(self) -> Element:
        parent = self.nodes[0].parent
        assert parent is not None
        return parent


@dataclass
class Layout:
    root: Element
    record_elements: list[Element]
    units: list[Unit]
    protected: frozenset[str] = frozenset()  # attributes no transformation may touch (the driver's stamps)

    def containers(self) -> list[Element]:
        return [container for container, _ in self.units_by_container()]

    def units_by_container(self) -> list[tuple[Element, list[Unit]]]:
        """Each container (in the order of its first unit) with its units, in one pass: asking per container
        would take a page's records times its containers. Read afresh, as transformations move units."""
        grouped: dict[int, tuple[Element, list[Unit]]] = {}
        for unit in self.units:
            container = unit.container
            grouped.setdefault(id(container), (container, []))[1].append(unit)
        return list(grouped.values())

    def record_ids(self) -> frozenset[int]:
        return self._record_ids

    @cached_property
    def _record_ids(self) -> frozenset[int]:
        # Kept: asked once per container and per chrome parent, and the record elements never change.
        return frozenset(id(e) for e in self.record_elements)

    def within_record(self, element: Element) -> bool:
        """True if the element is a record element or lies inside one."""
        records = self.record_ids()
        return any(id(a) in records for a in ancestors(element))

    def holders(self) -> set[int]:
        """ids of every element that is a record element or has one below it."""
        found: set[int] = set()
        for element in self.record_elements:
            node: Element | None = element
            while node is not None and id(node) not in found:
                found.add(id(node))
                node = node.parent
        return found


@dataclass(frozen=True)
class Applied:
    count: int
    detail: str = ""


Transform = Callable[[Layout, random.Random], Applied]


def build_layout(root: Element, records: Iterable[list[Element]], protected: Iterable[str] = ()) -> Layout:
    """Units for the records whose elements share one parent (duplicate records share a unit)."""
    elements: dict[int, Element] = {}
    units: dict[tuple[int, ...], Unit] = {}
    for record in records:
        for element in record:
            elements[id(element)] = element
        ordered = sorted({id(e): e for e in record}.values(), key=lambda e: e.order)
        parents = {id(e.parent) for e in ordered}
        if not ordered or len(parents) != 1 or any(e.tag in ("html", "head", "body") for e in ordered):
            continue
        units.setdefault(tuple(id(e) for e in ordered), Unit(ordered, list(ordered)))
    ordered_units = sorted(units.values(), key=lambda u: u.elements[0].order)
    return Layout(root, list(elements.values()), ordered_units, frozenset(protected))


# -- tree helpers ------------------------------------------------------------------------------------------


def new_element(tag: str, attrs: dict[str, str | None] | None = None,
                children: Iterable[Element | str] = ()) -> Element:
    element = Element(tag, dict(attrs or {}), None, "", 0, None)
    for child in children:
        append(element, child)
    return element


def append(parent: Element, child: Element | str) -> None:
    if isinstance(child, Element):
        child.parent = parent
    parent.children.append(child)


def position(node: Element) -> int:
    """The node's index among its parent's children: a scan, so for one node; for many, `positions`."""
    assert node.parent is not None
    return next(i for i, c in enumerate(node.parent.children) if c is node)


def positions(parent: Element) -> dict[int, int]:
    """The index of each of the parent's children, by id: one scan for as many look-ups as a page has records."""
    found: dict[int, int] = {}
    for index, child in enumerate(parent.children):
        found.setdefault(id(child), index)
    return found


def wrap(nodes: list[Element], wrapper: Element) -> Element:
    """Put the sibling span from the first to the last of `nodes` (text between included) into `wrapper`."""
    parent = nodes[0].parent
    assert parent is not None
    indexes = [position(n) for n in nodes]
    start, end = min(indexes), max(indexes) + 1
    for child in parent.children[start:end]:
        append(wrapper, child)
    wrapper.parent = parent
    parent.children[start:end] = [wrapper]
    return wrapper


def wrap_children(element: Element, inner: Element) -> Element:
    """Move all of an element's children into `inner`, its only child."""
    for child in element.children:
        append(inner, child)
    element.children = []
    append(element, inner)
    return inner


def remove(node: Element) -> None:
    assert node.parent is not None
    del node.parent.children[position(node)]
    node.parent = None


def remove_all(nodes: Iterable[Element]) -> None:
    """Remove every one of `nodes` (each with a parent), one pass over each parent's children."""
    by_parent: dict[int, tuple[Element, set[int]]] = {}
    for node in nodes:
        assert node.parent is not None
        by_parent.setdefault(id(node.parent), (node.parent, set()))[1].add(id(node))
        node.parent = None
    for parent, gone in by_parent.values():
        parent.children[:] = [c for c in parent.children if id(c) not in gone]


def wrap_spans(parent: Element, wrapped: list[tuple[int, int, Element]]) -> None:
    """Put each (start, end) slice of the parent's children into its wrapper, as `wrap` does one, in one pass.
    The slices are in order and do not overlap."""
    children = parent.children
    kept: list[Element | str] = []
    previous = 0
    for start, end, wrapper in wrapped:
        kept += children[previous:start]
        for child in children[start:end]:
            append(wrapper, child)
        wrapper.parent = parent
        kept.append(wrapper)
        previous = end
    kept += children[previous:]
    parent.children[:] = kept


def ancestors(element: Element) -> Iterable[Element]:
    """The element and every ancestor, nearest first."""
    node: Element | None = element
    while node is not None:
        yield node
        node = node.parent


def in_foreign(element: Element) -> bool:
    return any(a.tag.lower() in FOREIGN_ROOTS for a in ancestors(element))


def in_phrasing(element: Element) -> bool:
    return any(a.tag in PHRASING for a in ancestors(element))


def takes_block_children(parent: Element) -> bool:
    """True where a new div (or span) child stays where it is put."""
    return parent.tag not in CONSTRAINED_PARENTS and parent.tag not in VOID and not in_foreign(parent)


def wrapper_tag(parent: Element, rng: random.Random) -> str:
    return "span" if in_phrasing(parent) else rng.choice(DIV_LIKE)


def spans(container: Element, units: list[Unit]) -> list[tuple[int, int, Unit]] | None:
    """Each unit's (start, end) slice of the container's children, in order; None if two units interleave."""
    found = []
    index = positions(container)
    for unit in units:
        indexes = [index[id(n)] for n in unit.nodes]
        found.append((min(indexes), max(indexes) + 1, unit))
    found.sort(key=lambda s: s[0])
    if any(a[1] > b[0] for a, b in zip(found, found[1:], strict=False)):
        return None
    return found


def separable_units(layout: Layout, minimum: int = 1) -> list[tuple[Element, list[tuple[int, int, Unit]]]]:
    """Containers whose units do not interleave, with their spans (at least `minimum` units)."""
    result = []
    for container, units in layout.units_by_container():
        shared = len({id(e) for u in units for e in u.elements}) != sum(len(u.elements) for u in units)
        found = None if shared else spans(container, units)
        if found is not None and len(found) >= minimum:
            result.append((container, found))
    return result


def _changed_permutation(count: int, rng: random.Random) -> list[int]:
    order = list(range(count))
    rng.shuffle(order)
    if order == sorted(order) and count > 1:
        order = order[1:] + order[:1]
    return order


# -- the transformations ----------------------------------------------------------------------------------


def table_cards(layout: Layout, rng: random.Random) -> Applied:
    """Tables whose rows are records become div cards; lists of card records become tables (rows and cells)."""
    tables = _record_tables(layout)
    card_lists = [c for c, found in separable_units(layout, minimum=2) if _is_card_list(c, found)]
    for table in tables:
        _table_to_cards(table)
    units = {id(container): units for container, units in layout.units_by_container()}
    for container in card_lists:
        _cards_to_table(container, {id(u.nodes[0]) for u in units[id(container)]})
    parts = [f"{len(tables)} table(s) to cards"] if tables else []
    parts += [f"{len(card_lists)} card list(s) to tables"] if card_lists else []
    return Applied(len(tables) + len(card_lists), ", ".join(parts) or "no table of records or list of cards to turn")


def _record_tables(layout: Layout) -> list[Element]:
    tables: dict[int, Element] = {}
    for unit in layout.units:
        if unit.container.tag in ("table", "thead", "tbody", "tfoot", "tr") and not in_foreign(unit.container):
            table = next((a for a in ancestors(unit.container) if a.tag == "table"), None)
            if table is not None:
                tables.setdefault(id(table), table)
    return list(tables.values())


def _is_card_list(container: Element, found: list[tuple[int, int, Unit]]) -> bool:
    if container.tag not in CARD_CONTAINERS or not takes_block_children(container) or in_phrasing(container):
        return False
    if container.parent is None or not takes_block_children(container.parent):
        return False
    return all(len(u.nodes) == 1 and u.nodes[0].tag in CARD_TAGS for _, _, u in found)


def _table_to_cards(table: Element) -> None:
    stack = [table]
    while stack:
        element = stack.pop()
        for child in list(element.children):
            if not isinstance(child, Element):
                continue
            if child.tag in ("colgroup", "col"):
                remove(child)
            elif child.tag in TABLE_PARTS and child.tag != "table":
                stack.append(child)
        element.tag = "div"
        for name in ("colspan", "rowspan", "scope", "headers", "cellpadding", "cellspacing", "border"):
            element.attrs.pop(name, None)


# What the HTML parser leaves where it stands between table rows and cells (any other text it moves out of the table)
_HTML_SPACE = " \t\n\f\r"


def _cards_to_table(container: Element, unit_roots: set[int]) -> None:
    """The container becomes a table with one body; each record root a row, each of its child elements a cell.
    The loose texts of a row (or of the container) share one cell, where the first of them stood: the text map
    reads only an element's last text, so a row names the texts its card named, and no text its card hid (one
    cell each, `<div>A<!---->B<span>S</span>C</div>` would name A and B too)."""
    body = new_element("tbody")
    for part in _grouped(container.children, lambda child: id(child) in unit_roots):
        if isinstance(part, list):
            append(body, new_element("tr", {}, [new_element("td", {}, part)]))
        else:
            if isinstance(part, Element):
                _card_to_row(part)
            append(body, part)
    container.tag = "table"
    container.children = []
    append(container, body)


def _card_to_row(card: Element) -> None:
    parts = _grouped(card.children, lambda child: False)
    card.tag = "tr"
    card.children = []
    for part in parts:
        append(card, new_element("td", {}, part) if isinstance(part, list) else part)


Cell = list[Element | str]  # a table cell's content, before the cell is made


def _grouped(children: list[Element | str], kept: Callable[[Element], bool]) -> list[Element | str | Cell]:
    """The children as a table holds them: the parser's spaces and the `kept` elements as they are, every other
    element alone in a list (a cell's content), and all the texts together in one list where the first text was."""
    parts: list[Element | str | Cell] = []
    texts: Cell | None = None
    for child in children:
        if isinstance(child, Element):
            parts.append(child if kept(child) else [child])
        elif not child.strip(_HTML_SPACE):
            parts.append(child)
        elif texts is None:
            texts = [child]
            parts.append(texts)
        else:
            texts.append(child)
    return parts


def rename_container(layout: Layout, rng: random.Random) -> Applied:
    """Containers switch between div, section, article and ul/ol; records become li in a list, div outside."""
    renamed = []
    for container, found in separable_units(layout):
        if container.tag not in (*DIV_LIKE, *LISTS) or in_foreign(container) or in_phrasing(container):
            continue
        single = all(len(u.nodes) == 1 and u.nodes[0].tag in CARD_TAGS for _, _, u in found)
        targets = [t for t in (*DIV_LIKE, "ul") if t != container.tag and (t != "ul" or single)]
        if container.tag in LISTS and not single:
            continue
        target = rng.choice(targets)
        roots = {id(u.nodes[0]) for _, _, u in found}
        renamed.append(f"{container.tag}->{target}")
        leaving_list = container.tag in LISTS and target not in LISTS
        container.tag = target
        for child in container.element_children():
            if target in LISTS and id(child) in roots:
                child.tag = "li"
            elif leaving_list and child.tag == "li":
                child.tag = rng.choice(("div", "article")) if id(child) in roots else "div"
    if not renamed:  # said, as every transformation says what it did (a manifest's empty detail reads as a fault)
        return Applied(0, "0 containers renamed")
    return Applied(len(renamed), ", ".join(sorted(set(renamed))))


def _chrome_parents(layout: Layout) -> list[Element]:
    """The containers and their ancestors below <html>, outside every record: the parents whose non-record
    children are page chrome. (Inside a record, a non-record element is part of that record.)"""
    records = layout.record_ids()
    seen: dict[int, Element] = {}
    for container in layout.containers():
        for node in ancestors(container):
            if node.tag == "html" or id(node) in records:
                break
            seen.setdefault(id(node), node)
    return [node for node in sorted(seen.values(), key=lambda e: e.order) if not layout.within_record(node)]


# The document's own, wherever a parser put it: no page chrome to remove or move. A page whose head is cut short (an
# iframe or a text in it) has its title parsed into the body, where it is a text of the page's text map still.
NOT_CHROME = frozenset({"head", "title"})


def _chrome_children(parent: Element, holders: set[int]) -> list[Element]:
    return [c for c in parent.element_children() if id(c) not in holders and c.tag not in NOT_CHROME]


def remove_chrome(layout: Layout, rng: random.Random) -> Applied:
    """About a third of the non-record siblings of records and of their ancestors are removed."""
    holders = layout.holders()
    candidates = [c for p in _chrome_parents(layout) if not in_foreign(p) for c in _chrome_children(p, holders)]
    chosen = [c for c in candidates if rng.random() < 0.35] or candidates[:1]
    remove_all(chosen)
    return Applied(len(chosen), f"{len(chosen)} of {len(candidates)} non-record elements removed")


def reorder_chrome(layout: Layout, rng: random.Random) -> Applied:
    """Non-record siblings trade places among themselves; records and their ancestors stay put."""
    holders = layout.holders()
    moved = 0
    for parent in _chrome_parents(layout):
        chrome = _chrome_children(parent, holders)
        if len(chrome) < 2 or in_foreign(parent):
            continue
        index = positions(parent)
        slots = [index[id(c)] for c in chrome]
        order = _changed_permutation(len(chrome), rng)
        for slot, index in zip(slots, order, strict=True):
            parent.children[slot] = chrome[index]
        moved += sum(1 for i, j in enumerate(order) if i != j)
    return Applied(moved, f"{moved} non-record elements moved")


def insert_chrome(layout: Layout, rng: random.Random) -> Applied:
    """Ads, banners and navigation are inserted between records, and a banner into the page's body."""
    inserted = 0
    for container, found in separable_units(layout):
        if in_foreign(container) or layout.within_record(container):
            continue
        boundaries = [found[0][0]] + [end for _, end, _ in found]
        for at in sorted(rng.sample(boundaries, min(len(boundaries), rng.randint(1, 2))), reverse=True):
            piece = _chrome_for(container, rng)
            if piece is not None:
                piece.parent = container
                container.children.insert(at, piece)
                inserted += 1
    body = next((c for c in layout.root.element_children() if c.tag == "body"), None)
    if body is not None and inserted:
        at = rng.choice([0, *[i + 1 for i, c in enumerate(body.children) if isinstance(c, Element)]])
        banner = _block_chrome(rng)
        banner.parent = body
        body.children.insert(at, banner)
        inserted += 1
    return Applied(inserted, f"{inserted} elements inserted")


def _chrome_for(container: Element, rng: random.Random) -> Element | None:
    """An element the parser keeps in this container: a list item, a table row or cell, an option, a span..."""
    tag = container.tag
    words = rng.choice(CHROME_TEXTS)
    if tag in LISTS or tag == "menu":
        return new_element("li", {"class": "ad"}, [new_element("a", {"href": "https://example.com/ad"}, [words])])
    if tag in ("tbody", "thead", "tfoot"):
        return new_element("tr", {"class": "ad"}, [new_element("td", {"colspan": str(_columns(container))}, [words])])
    if tag == "table":
        row = new_element("tr", {"class": "ad"}, [new_element("td", {}, [words])])
        return new_element("tbody", {}, [row])
    if tag == "tr":
        return new_element("td", {"class": "ad"}, [words])
    if tag in ("select", "optgroup", "datalist"):
        return new_element("option", {}, [words])
    if tag in CONSTRAINED_PARENTS or tag in VOID:
        return None
    if in_phrasing(container):
        return new_element("span", {"class": "ad"}, [words])
    return _block_chrome(rng)


def _columns(section: Element) -> int:
    row = next((c for c in section.element_children() if c.tag == "tr"), None)
    return max(1, len([c for c in row.element_children() if c.tag in ("td", "th")])) if row else 1


CHROME_TEXTS = ("Advertisement", "Sponsored", "Sign up for our newsletter", "Free delivery on orders over 50",
                "Download our app", "Accept cookies", "Related links", "You may also like", "Trending now")
NAV_TEXTS = ("Home", "About", "Contact", "Help", "Careers", "Blog", "Privacy", "Terms")


def _block_chrome(rng: random.Random) -> Element:
    kind = rng.choice(("ad", "banner", "nav", "notice"))
    text = rng.choice(CHROME_TEXTS)
    link = new_element("a", {"href": f"https://example.com/{kind}"}, [rng.choice(NAV_TEXTS)])
    if kind == "ad":
        return new_element("aside", {"class": "ad-slot"}, [new_element("span", {}, [text]), " ", link])
    if kind == "banner":
        return new_element("div", {"class": "banner"}, [new_element("strong", {}, [text]), " ", link])
    if kind == "nav":
        items = [new_element("li", {}, [new_element("a", {"href": f"https://example.com/{w.lower()}"}, [w])])
                 for w in rng.sample(NAV_TEXTS, 3)]
        return new_element("nav", {"class": "links"}, [new_element("ul", {}, items)])
    return new_element("div", {"class": "notice"}, [new_element("p", {}, [text])])


def shuffle_records(layout: Layout, rng: random.Random) -> Applied:
    """Records swap places within their container; what lies between them stays where it was.
    Not where the container would then end on another text: the text map names an element's last text only."""
    shuffled = 0
    for container, found in separable_units(layout, minimum=2):
        order = _changed_permutation(len(found), rng)
        pieces = [container.children[start:end] for start, end, _ in found]
        children: list[Element | str] = []
        previous = 0
        for (start, end, _), index in zip(found, order, strict=True):
            children += container.children[previous:start] + pieces[index]
            previous = end
        children += container.children[previous:]
        if _last_text(children) != _last_text(container.children):
            continue  # the container would name another of its texts (a record's, where it lies in one)
        container.children = children
        shuffled += 1
    return Applied(shuffled, f"records shuffled in {shuffled} container(s)")


def _last_text(children: list[Element | str]) -> str:
    """The loose text the text map names for an element with these children: its last one that is not blank."""
    return next((text for child in reversed(children) if isinstance(child, str) and (text := js_trim(child))), "")


def nest_records(layout: Layout, rng: random.Random) -> Applied:
    """Each record's content moves one level down, into an inner element (the record root stays)."""
    nested = 0
    inner_class = rng.choice(CLASS_WORDS) + "-inner"
    for unit in layout.units:
        for element in filter(_nestable, unit.elements):
            wrap_children(element, new_element("span" if in_phrasing(element) else "div", {"class": inner_class}))
            nested += 1
    return Applied(nested, f"{nested} record elements nested one level deeper")


def _nestable(element: Element) -> bool:
    """True if a new inner element can hold all of this element's children (not rows, lists, options, SVG)."""
    if not element.children or element.tag in VOID or element.tag in CONSTRAINED_PARENTS or in_foreign(element):
        return False
    return element.tag not in TABLE_PARTS - {"td", "th"} and element.tag not in ("option", "ul", "ol", "dl")


def wrap_records(layout: Layout, rng: random.Random) -> Applied:
    """Each record gets its own wrapper element (div, section or article; a span inside phrasing content).
    Not a record with a text loose between its elements: the wrapper would name it, or hide one its container named."""
    wrapped = 0
    for container, found in separable_units(layout):
        if not takes_block_children(container):
            continue
        tag = wrapper_tag(container, rng)
        attrs = {"class": rng.choice(CLASS_WORDS)}
        # which spans hold a text, read before the first wrap shifts the positions
        plain = [(start, end, unit) for start, end, unit in found
                 if not _names_a_text(container.children[start:end])]
        wrappers = [(start, end, new_element(tag, attrs)) for start, end, _ in plain]
        wrap_spans(container, wrappers)
        for (_, _, unit), (_, _, wrapper) in zip(plain, wrappers, strict=True):
            unit.nodes = [wrapper]
        wrapped += len(plain)
    return Applied(wrapped, f"{wrapped} records wrapped")


def _names_a_text(children: list[Element | str]) -> bool:
    """True if a text the text map reads lies loose among these children. The map names only an element's last
    text: a wrapper around `<h3>T</h3>mid<p>P</p>` would name `mid`, hidden in its container (and the container
    would name an earlier text it hid, where `mid` was its last)."""
    return any(isinstance(child, str) and js_trim(child) for child in children)


def wrap_container(layout: Layout, rng: random.Random) -> Applied:
    """Each container (a whole table for table rows, a whole SVG) is wrapped in one or two extra elements."""
    targets: dict[int, Element] = {}
    for container in layout.containers():
        target = _wrappable(container)
        if target.tag not in ("html", "head", "body") and target.parent is not None:
            targets.setdefault(id(target), target)
    levels = 0
    for target in targets.values():
        if target.parent is None or not takes_block_children(target.parent):
            continue
        for _ in range(rng.randint(1, 2)):
            wrap([target], new_element(wrapper_tag(target.parent, rng), {"class": rng.choice(CLASS_WORDS)}))
            target = target.parent
            levels += 1
    return Applied(levels, f"{levels} wrapper levels around {len(targets)} container(s)")


def _wrappable(container: Element) -> Element:
    """The element to wrap for a container: itself, or the table, select or SVG it is part of."""
    foreign = [a for a in ancestors(container) if a.tag.lower() in FOREIGN_ROOTS]
    target = foreign[-1] if foreign else container
    while target.parent is not None and target.tag in ("thead", "tbody", "tfoot", "tr", "colgroup", "optgroup",
                                                       "option", "td", "th", "caption"):
        target = target.parent
    return target


def change_attributes(layout: Layout, rng: random.Random) -> Applied:
    """In records and their containers, classes and ids are dropped or added, and so are data-* attributes."""
    pool = [f"{rng.choice(CLASS_WORDS)}-{rng.randrange(16 ** 4):04x}" for _ in range(5)]
    scoped = f"data-v-{rng.randrange(16 ** 6):06x}"
    elements = {id(c): c for c in layout.containers()}
    for unit in layout.units:
        for element in unit.elements:
            elements.update((id(e), e) for e in element.iter())
    added = dropped = 0
    for element in elements.values():
        if element.tag in ATTRIBUTE_SENSITIVE or in_foreign(element):
            continue
        a, d = _change_element_attributes(element, rng, pool, scoped, layout.protected)
        added, dropped = added + a, dropped + d
    return Applied(added + dropped, f"{added} attributes or classes added, {dropped} dropped")


def _change_element_attributes(element: Element, rng: random.Random, pool: list[str], scoped: str,
                               protected: frozenset[str]) -> tuple[int, int]:
    attrs = element.attrs
    added = dropped = 0
    classes = (attrs.get("class") or "").split()
    if classes and rng.random() < 0.5:
        classes = [] if rng.random() < 0.4 else [c for c in classes if c != rng.choice(classes)]
        dropped += 1
    if rng.random() < 0.4:
        classes.append(rng.choice(pool))
        added += 1
    if classes:
        attrs["class"] = " ".join(classes)
    elif "class" in attrs:
        del attrs["class"]
    if "id" in attrs and rng.random() < 0.5:
        del attrs["id"]
        dropped += 1
    for name in [n for n in attrs if n not in protected and (n in DROPPABLE or n.startswith(("data-", "aria-")))]:
        if rng.random() < 0.3:
            del attrs[name]
            dropped += 1
    if rng.random() < 0.25:
        attrs[scoped] = ""
        added += 1
    return added, dropped


TRANSFORMS: dict[str, Transform] = {
    "table_cards": table_cards,
    "rename_container": rename_container,
    "remove_chrome": remove_chrome,
    "reorder_chrome": reorder_chrome,
    "insert_chrome": insert_chrome,
    "shuffle_records": shuffle_records,
    "nest_records": nest_records,
    "wrap_records": wrap_records,
    "wrap_container": wrap_container,
    "attributes": change_attributes,
}


def describe(name: str) -> str:
    doc = TRANSFORMS[name].__doc__ or ""
    return doc.strip().splitlines()[0]

