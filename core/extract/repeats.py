"""RecordLens's own offline record extractor ("repeats"): records are repeated sibling structures.

What a record is assumed to look like. A data record (a product card, a table row, a search hit, a job ad) is
one element, or a short run of sibling elements, that repeats under one parent with the same make-up: the
same tag, usually the same class, and the same arrangement of text below it (the relative tag paths that lead
to its texts, its *signature*). Records carry several fields, so a record usually holds more than one text.

How regions are found. For every element, its children that hold text are grouped into kinds: two siblings
are of one kind when they have the same tag (or the same tag once wrappers that add nothing are looked
through) and either their parent is a list container (`ul`, `ol`, `tbody`, ...), or they share their class,
or their signatures overlap by at least `similarity` (Jaccard). Every kind with two or more members is a
candidate *region*. Where the kinds alternate with a fixed period (`h3 p h3 p ...`, `dt dd dt dd ...`), each
period is one record made of several sibling elements. Form controls (`select` options, ARIA listboxes and
menus) are never records, nor are the panels of a tab widget (`role="tabpanel"`: sections of one view).

How regions are scored. A region's mass is the number of texts in its records (each record counted up to
`record_cap` texts, since a "record" with hundreds of texts is a layout block). It is scaled down when the
median record has fewer than `field_target` texts (one-text records are mostly link lists), when records
vary a lot in size (divided by 1 + coefficient of variation), when the region has only two records, and
strongly when the region lies in page chrome: `header`, `nav`, `footer`, `aside`, the matching ARIA roles, or
an ancestor whose class or id names a header, footer, menu, sidebar, breadcrumb, cookie banner or dialog.
A region whose records mostly contain another multi-field region covering half of them or more is a layout
container (a column of carousels, a mega-menu) and is dropped in favour of what it contains; so is a region
whose records are mostly a list of links (`link_list_share` of their texts or more: a heading over a list of
links is a footer column or a menu group, and its records are the links).

How the record level is chosen. Regions are taken best score first; a region that overlaps one already taken
(one of its records is inside, or contains, a taken record) is skipped, so the better-scoring level wins: the
rows of a table rather than its cells, the cards of a grid rather than the lines inside a card. Only regions
scoring at least `relative_floor` of the best multi-field, non-chrome region are kept, so a page's secondary
lists are reported only when they are comparable with its main one. Finally, regions built from the same
template as a kept region (same record tag, signatures overlapping by `template_similarity`, at least three
records) are added whatever their size: a page that shows several tables or carousels of one kind shows
records in all of them. A kept table whose rows line up with a one-column table close by (the frozen first
column of a table drawn as two tables) is joined with it: row k of both tables is one record. Table rows that
head the rows below them are not records; they are known by structure (a table head's rows, rows of header cells
only, a first row unlike all the rows after it), never by the words of their class or id.

Every output XPath is an element of the page that holds text, so no record is ever hallucinated. The method
is deterministic, needs no network and no model, and runs in well under a second on a 1.6 MB page.
"""

from __future__ import annotations

import math
import re
import statistics
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from functools import partial

from ..page.dom import CHROME_TAGS, LANDMARK_ROLES, Element, Page, common_ancestor, inside_links, within
from ..records.score import jaccard
from .base import Extraction, refuse_unknown_parameters

METHOD = "repeats"
VERSION = "1.0"

# Parents whose element children are items of one list by the markup's own statement.
LIST_PARENTS = frozenset({"ul", "ol", "menu", "dl", "table", "thead", "tbody", "tfoot"})
# Form controls and their parts: a choice in a drop-down is not a data record.
FORM_TAGS = frozenset({"select", "option", "optgroup", "datalist"})
# Header cells name the columns of the records, they are not records.
NEVER_RECORDS = FORM_TAGS | {"th", "head", "title", "svg", "template", "iframe"}
WIDGET_ROLES = frozenset({"listbox", "menu", "menubar", "tablist", "combobox", "tree", "radiogroup"})
# Parts of a widget: its choices, and the panels a tab list switches between (sections of one view, not items).
ITEM_ROLES = frozenset(
    {"option", "menuitem", "menuitemradio", "menuitemcheckbox", "tab", "tabpanel", "treeitem", "radio"})
# As extractor evidence, chrome is wider than the landmarks: toolbars, dialogs and widgets are furniture too.
CHROME_ROLES = LANDMARK_ROLES | {"toolbar", "dialog", "alertdialog"} | WIDGET_ROLES
# Words that, as a part of an ancestor's class or id, mark site furniture rather than content (the same idea as
# the "unlikely candidates" of readability-style boilerplate removal).
CHROME_WORDS = frozenset({
    "header", "footer", "nav", "navbar", "navigation", "menu", "megamenu", "submenu", "sidebar", "breadcrumb",
    "breadcrumbs", "cookie", "cookies", "consent", "gdpr", "modal", "popup", "dialog", "drawer",
})
# Lists whose items, when they are links, make a link group (a menu column, a footer column).
LINK_LIST_PARENTS = frozenset({"ul", "ol", "menu"})
# How far above two tables their common ancestor may lie for them to be the two halves of one split table.
SPLIT_TABLE_REACH = 4
PERIODS = (2, 3)
MIN_PERIODS = 3

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z])(?=[A-Z])")
_WORD_SEPARATORS = re.compile(r"[-_]+")


@dataclass(frozen=True)
class Parameters:
    """The method's few knobs. Defaults were chosen on half of the dev pages and checked on the other half."""

    similarity: float = 0.5  # signature Jaccard for two siblings to be of one kind
    signature_depth: int = 4  # how deep below an element its signature looks
    field_target: int = 3  # texts per record from which a region counts as fully multi-field
    record_cap: int = 40  # texts per record counted towards a region's mass
    chrome_weight: float = 0.1  # score factor for regions in headers, footers, menus, ...
    pair_weight: float = 0.3  # score factor for regions of only two records
    container_limit: float = 0.3  # share of records holding a sub-region above which a region is layout
    link_list_share: float = 0.75  # share of a record taken by a list of links that makes it a link group
    relative_floor: float = 0.25  # kept regions score at least this share of the main region
    template_similarity: float = 0.5  # record-signature Jaccard for "same template as a kept region"
    # Also propose records of a few sibling rows each where the items of a list differ in look with a fixed
    # period (a title row, then a row of its details): a candidate for a selector to weigh, off for repeats.
    row_groups: bool = False
    # Also propose regions inside form controls and widgets (a select's options, a listbox's or a menu's items,
    # tab panels): repeats never reports them, but some labels count a carousel's items as records, so a
    # selector gets them as candidates, marked as such, to weigh.
    widgets: bool = False


DEFAULT_PARAMETERS = Parameters()


class PageFacts:
    """Per-element counts the method reads many times: texts below, own text, signatures, look-through cores."""

    def __init__(self, page: Page, signature_depth: int) -> None:
        self.page = page
        self.signature_depth = signature_depth
        keyed = set(page.text_map)
        self.has_text = [e.key in keyed for e in page.elements]
        self.texts = [0] * len(page.elements)
        in_link = inside_links(page)  # texts that are (inside) a link
        self.link_texts = [0] * len(page.elements)
        # Per element, the order of its last descendant: its subtree is the orders from its own to that one.
        self.ends = list(range(len(page.elements)))
        # Reverse document order visits every element after all of its descendants.
        for element in reversed(page.elements):
            if element.parent is not None and self.ends[element.order] > self.ends[element.parent.order]:
                self.ends[element.parent.order] = self.ends[element.order]
            if self.has_text[element.order]:
                self.texts[element.order] += 1
                self.link_texts[element.order] += in_link[element.order]
            if element.parent is not None:
                self.texts[element.parent.order] += self.texts[element.order]
                self.link_texts[element.parent.order] += self.link_texts[element.order]
        self._signatures: dict[int, frozenset[str]] = {}
        # Each element's children that hold text, worked out once: signatures and region finding ask for them
        # tens of thousands of times on a large page.
        self._text_children: list[list[Element]] = [[] for _ in page.elements]
        for element in page.elements:
            if element.parent is not None and self.texts[element.order]:
                self._text_children[element.parent.order].append(element)

    def within(self, orders: list[int], element: Element) -> range:
        """The positions in `orders` (sorted element numbers) of those in the element's subtree: a subtree is the
        range of numbers from the element's own to its last descendant's, so bisection finds them."""
        start = bisect_left(orders, element.order)
        return range(start, bisect_right(orders, self.ends[element.order], lo=start))

    def text_count(self, element: Element) -> int:
        return self.texts[element.order]

    def link_text_count(self, element: Element) -> int:
        return self.link_texts[element.order]

    def text_children(self, element: Element) -> list[Element]:
        return self._text_children[element.order]

    def signature(self, element: Element) -> frozenset[str]:
        """The relative tag paths (no indices) from the element to the elements holding its texts."""
        cached = self._signatures.get(element.order)
        if cached is not None:
            return cached
        paths: set[str] = set()
        has_text, text_children = self.has_text, self._text_children
        level: list[tuple[Element, str]] = [(element, "")]
        for depth in range(self.signature_depth + 1):  # level by level: a page's elements are many, this is hot
            below: list[tuple[Element, str]] = []
            for node, path in level:
                if has_text[node.order]:
                    paths.add(path)
                if depth < self.signature_depth:
                    below.extend((c, path + "/" + c.tag) for c in text_children[node.order])
            level = below
        signature = self._signatures[element.order] = frozenset(paths)
        return signature

    def arrangement(self, element: Element) -> tuple[str, ...]:
        """The relative tag paths of the element's texts in document order, one per text (to the signature's
        depth): unlike the signature (a set), it tells how many texts lie at a path and in which order."""
        paths: list[str] = []
        stack: list[tuple[Element, str, int]] = [(element, "", 0)]
        while stack:  # depth first, children pushed last-first so that they are visited in document order
            node, path, depth = stack.pop()
            if self.has_text[node.order]:
                paths.append(path)
            if depth < self.signature_depth:
                stack.extend((c, path + "/" + c.tag, depth + 1) for c in reversed(self._text_children[node.order]))
        return tuple(paths)

    def core(self, element: Element) -> Element:
        """The element itself, or what it wraps when it only wraps one child that holds all of its text."""
        while not self.has_text[element.order]:
            children = self.text_children(element)
            if len(children) != 1 or self.texts[children[0].order] != self.texts[element.order]:
                break
            element = children[0]
        return element


@dataclass
class Region:
    """Records of one kind under one parent; each record is one element or a run of sibling elements."""

    parent: Element
    records: list[list[Element]]
    sizes: list[int]
    chrome: str = ""
    container_share: float = 0.0
    score: float = 0.0

    @property
    def count(self) -> int:
        return len(self.records)

    @property
    def fields(self) -> int:
        """Texts in the median record."""
        return sorted(self.sizes)[len(self.sizes) // 2]

    @property
    def spread(self) -> float:
        """Coefficient of variation of the record sizes: 0 when all records hold as many texts."""
        # Exact (statistics): the hand rules compare scores exactly (the relative floor), so no rounding may move them.
        mean = sum(self.sizes) / len(self.sizes)
        return statistics.pstdev(self.sizes) / mean if mean else 0.0

    @property
    def elements(self) -> list[Element]:
        return [e for record in self.records for e in record]

    def xpaths(self) -> list[list[str]]:
        return [[e.xpath for e in record] for record in self.records]

    def overlaps(self, other: Region) -> bool:
        mine = self.elements
        return any(a is b or a.is_ancestor_of(b) or b.is_ancestor_of(a) for a in mine for b in other.elements)


@dataclass(frozen=True)
class _Look:
    """How a child looks when compared with its siblings: itself and what it wraps."""

    tag: str
    core_tag: str
    css: str | None
    core_css: str | None
    signature: frozenset[str]
    core_signature: frozenset[str]


def variation(values: Sequence[int]) -> float:
    """Coefficient of variation (population standard deviation over the mean); 0 for a zero mean. In floating
    point, for features; `Region.spread` is the exact one the hand rules compare."""
    mean = sum(values) / len(values)
    if not mean:
        return 0.0
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) / mean


# ---------------------------------------------------------------------------------------------------------------
# Finding candidate regions


def find_regions(facts: PageFacts, params: Parameters) -> list[Region]:
    regions: list[Region] = []
    never = NEVER_RECORDS - FORM_TAGS if params.widgets else NEVER_RECORDS
    for parent in facts.page.elements:
        if parent.tag in never or (not params.widgets and within(parent, FORM_TAGS, WIDGET_ROLES)):
            continue
        children = _without_heading_rows([c for c in facts.text_children(parent) if c.tag not in never], facts,
                                         params.similarity)
        if len(children) < 2:
            continue
        looks = [_look_of(child, facts) for child in children]
        kinds = _kinds_of(looks, partial(_alike, parent, similarity=params.similarity))
        periodic = _periodic_records(kinds)
        regions.extend(_regions_of(parent, children, kinds, periodic, facts, params.widgets))
        if params.row_groups and parent.tag in LIST_PARENTS and periodic is None:
            regions.extend(_row_groups(parent, children, looks, facts, params.similarity))
    chrome_cache: dict[int, str] = {}
    for region in regions:
        region.chrome = _chrome_of(region.parent, chrome_cache)
    return regions


def _without_heading_rows(children: list[Element], facts: PageFacts, similarity: float) -> list[Element]:
    """The children less the table rows that head the rows below them, judged by structure, never by class or id
    words (an inbox's `msg-header` rows are its records): a row of a table head, a row whose texts all lie in
    header cells beside rows that are not so (where every row is, a table drawn in header cells, they are the
    rows), and, in a table with no such heading, a first row unlike all the rows after it while those are alike
    (column labels over data; a table that has its heading keeps a first row unlike the rest: a featured record)."""
    rows = [c for c in children if c.tag == "tr"]
    heading = {c.order for c in rows if c.parent.tag == "thead"}
    in_header_cells = {c.order for c in rows if c.order not in heading and _header_cells_only(c, facts)}
    if len(in_header_cells) < len(rows) - len(heading):
        heading |= in_header_cells
    rest = [c for c in rows if c.order not in heading]
    if (len(rest) >= 3 and rest[0] is children[0] and not heading and not _has_table_head(rest[0])
            and _first_unlike_the_rest(rest, facts, similarity)):
        heading.add(rest[0].order)
    return [c for c in children if c.order not in heading]


def _has_table_head(row: Element) -> bool:
    """Whether the table that holds this child has a head (`thead`)."""
    table = row.parent
    while table is not None and table.tag != "table":
        table = table.parent
    return table is not None and any(child.tag == "thead" for child in table.element_children())


def _header_cells_only(row: Element, facts: PageFacts) -> bool:
    cells = facts.text_children(row)
    return bool(cells) and all(cell.tag == "th" for cell in cells)


def _first_unlike_the_rest(rows: list[Element], facts: PageFacts, similarity: float) -> bool:
    first, rest = facts.signature(rows[0]), [facts.signature(r) for r in rows[1:]]
    return (all(jaccard(first, s) < similarity for s in rest)
            and all(jaccard(rest[0], s) >= similarity for s in rest[1:]))


def _kinds_of(looks: list[_Look], alike: Callable[[_Look, _Look], bool], gather: bool = True) -> list[int]:
    """A kind number per sibling (by its look): siblings that look `alike` share one. With `gather`, a kind is
    known by a few of its members' looks, else by its first member's alone."""
    looks_per_kind: list[list[_Look]] = []
    kinds: list[int] = []
    for look in looks:
        kind = next((k for k, known_looks in enumerate(looks_per_kind)
                     if any(alike(known, look) for known in known_looks)), None)
        if kind is None:
            kind = len(looks_per_kind)
            looks_per_kind.append([look])
        elif gather and len(looks_per_kind[kind]) < 4 and all(
                (known.tag, known.core_tag) != (look.tag, look.core_tag) for known in looks_per_kind[kind]):
            # A few different-looking members stand for the kind, so mixed kinds (article / div>article) gather.
            looks_per_kind[kind].append(look)
        kinds.append(kind)
    return kinds


def _look_of(child: Element, facts: PageFacts) -> _Look:
    core = facts.core(child)
    return _Look(child.tag, core.tag, child.attrs.get("class"), core.attrs.get("class"),
                 facts.signature(child), facts.signature(core))


def _alike(parent: Element, a: _Look, b: _Look, similarity: float) -> bool:
    if a.tag != b.tag and a.core_tag != b.core_tag:
        return False
    if parent.tag in LIST_PARENTS and a.tag == b.tag:
        return True
    if (a.css and a.css == b.css) or (a.core_css and a.core_css == b.core_css):
        return True
    return jaccard(a.signature, b.signature) >= similarity or jaccard(a.core_signature, b.core_signature) >= similarity


def _regions_of(parent: Element, children: list[Element], kinds: list[int],
                periodic: tuple[int, int, int] | None, facts: PageFacts, widgets: bool = False) -> list[Region]:
    grouped_kinds: set[int] = set()
    regions: list[Region] = []
    if periodic is not None:
        start, period, repeats = periodic
        records = [children[start + i * period:start + (i + 1) * period] for i in range(repeats)]
        grouped_kinds = set(kinds[start:start + period])
        regions.append(_region(parent, records, facts))
    members: dict[int, list[Element]] = {}
    for child, kind in zip(children, kinds, strict=True):
        if kind not in grouped_kinds:
            members.setdefault(kind, []).append(child)
    for elements in members.values():
        if len(elements) >= 2 and (widgets or not _mostly_widget_items(elements)):
            regions.append(_region(parent, [[e] for e in elements], facts))
    return regions


def _row_groups(parent: Element, children: list[Element], looks: list[_Look], facts: PageFacts,
                similarity: float) -> list[Region]:
    """Records of `period` consecutive items of a list whose items alternate in look over most of it: a
    title row, then a row of its details. Items differ in look by class (or its absence) and differ in the
    arrangement of their texts; rows that differ by class but mostly not in their texts (zebra stripes) are one
    record each. Where an odd item at one end of the run leaves open where a record begins (a details row
    before the first title, or a title without details after the last), both readings are candidates."""
    kinds = _kinds_of(looks, partial(_same_row_look, similarity=similarity), gather=False)
    periodic = _periodic_records(kinds)
    if periodic is None:
        return []
    start, period, repeats = periodic
    if period * repeats * 2 < len(children):
        return []
    end = start + period * repeats
    while end < len(kinds) and kinds[end] == kinds[end - period]:
        end += 1
    offsets = range(end - start - period * repeats + 1)  # 0, or 0 .. k when k odd items extend the run
    regions = []
    for offset in offsets:
        first = start + offset
        count = (end - first) // period
        records = [children[first + i * period:first + (i + 1) * period] for i in range(count)]
        if count >= MIN_PERIODS and not _mostly_alike_items(records, facts):
            regions.append(_region(parent, records, facts))
    return regions


def _mostly_alike_items(records: list[list[Element]], facts: PageFacts) -> bool:
    """Whether most records' items have the same arrangement of texts (they differ by class only). The texts'
    paths are compared in order and with their counts: a title row (rank, link, site) and its details row
    (points, user, age, comments) may reach their texts by the same set of paths and still differ."""
    alike = sum(1 for record in records
                if any(facts.arrangement(a) == facts.arrangement(b) for a, b in zip(record, record[1:], strict=False)))
    return alike * 2 >= len(records)


def _same_row_look(a: _Look, b: _Look, similarity: float) -> bool:
    """Two items of a list of one look: the same tag and class (or both none), and texts arranged alike."""
    return a.tag == b.tag and (a.css or "") == (b.css or "") and jaccard(a.signature, b.signature) >= similarity


def _periodic_records(kinds: list[int]) -> tuple[int, int, int] | None:
    """(start, period, repeats) of the longest run where distinct kinds alternate with a fixed period."""
    best: tuple[int, int, int] | None = None
    for period in PERIODS:
        i = 0
        while i + period < len(kinds):
            if kinds[i] != kinds[i + period] or len(set(kinds[i:i + period])) != period:
                i += 1
                continue
            j = i
            while j + period < len(kinds) and kinds[j] == kinds[j + period]:
                j += 1
            repeats = (j + period - i) // period
            if repeats >= MIN_PERIODS and (best is None or repeats * period > best[1] * best[2]):
                best = (i, period, repeats)
            i = j + 1
    return best


def _region(parent: Element, records: list[list[Element]], facts: PageFacts) -> Region:
    return Region(parent, records, [sum(facts.text_count(e) for e in record) for record in records])


def is_widget_item(element: Element) -> bool:
    """A choice of a form control or a widget (an option, a menu item, a tab and its panel)."""
    return element.tag in FORM_TAGS or (element.attrs.get("role") or "") in ITEM_ROLES


def is_widget(element: Element) -> bool:
    """A form control or a widget that holds choices (a select, a listbox, a menu, a tab list)."""
    return element.tag in FORM_TAGS or (element.attrs.get("role") or "") in WIDGET_ROLES


def widget_item_share(elements: Sequence[Element]) -> float:
    return sum(map(is_widget_item, elements)) / len(elements) if elements else 0.0


def _mostly_widget_items(elements: list[Element]) -> bool:
    return widget_item_share(elements) >= 0.5


def _chrome_of(parent: Element, cache: dict[int, str]) -> str:
    """Why a region's parent counts as page furniture ("" when it does not): its own tag or role, or the tag,
    role or class words of an element above it (the nearest one that names furniture).

    The parent's own class describes the list itself (`table-header-group` on a tbody of records), so only the
    elements above it are read for furniture words. `cache` holds, per element, the reason that element or one
    above it gives; every element is read once however many regions lie below it."""
    if parent.tag in ("body", "html"):
        return ""
    return _own_reason(parent, words=False) or _reason_above(parent.parent, cache)


def _own_reason(element: Element, words: bool = True) -> str:
    if element.tag in CHROME_TAGS:
        return element.tag
    role = element.attrs.get("role") or ""
    if role in CHROME_ROLES:
        return f"role={role}"
    if words and (found := class_words(element) & CHROME_WORDS):
        return min(found)
    return ""


def _reason_above(element: Element | None, cache: dict[int, str]) -> str:
    """The furniture reason of the element or of the nearest element above it that gives one (below body)."""
    chain: list[Element] = []
    node = element
    while node is not None and node.tag not in ("body", "html") and node.order not in cache:
        chain.append(node)
        node = node.parent
    reason = cache[node.order] if node is not None and node.order in cache else ""
    for item in reversed(chain):  # from the top down: an element's own reason, else what is above it
        reason = cache[item.order] = _own_reason(item) or reason
    return reason


def class_words(element: Element) -> set[str]:
    """Lower-case words of an element's class and id: `b-footer-wrap` -> b, footer, wrap; `MenuItem` -> menu, item.

    BEM modifiers (`card--sidebar`) and responsive prefixes (`md:hidden`) describe a variant, not the block."""
    words: set[str] = set()
    text = f"{element.attrs.get('class') or ''} {element.attrs.get('id') or ''}"
    for token in text.split():
        block = token.split("--")[0].split(":")[-1]
        words.update(w.lower() for w in _WORD_SEPARATORS.split(_CAMEL_BOUNDARY.sub("-", block)) if w)
    return words


# ---------------------------------------------------------------------------------------------------------------
# Scoring and choosing regions


def mark_containers(regions: list[Region], facts: PageFacts, params: Parameters) -> None:
    """Set each region's share of records that mostly consist of another region: a multi-field region covering
    half of the record or more, or a list of links covering `link_list_share` of it (a heading over a list of
    links is a menu column or a link group, whose records are the links)."""
    inner: list[tuple[int, Region, float]] = []  # (parent's order, region, share of a record it must cover)
    for region in regions:
        if region.count < 3:
            continue
        if region.fields >= 2:
            inner.append((region.parent.order, region, 0.5))
        elif region.parent.tag in LINK_LIST_PARENTS and _mostly_links(region, facts):
            inner.append((region.parent.order, region, params.link_list_share))
    inner.sort(key=lambda item: item[0])
    parents = [order for order, _, _ in inner]
    masses = [sum(region.sizes) for _, region, _ in inner]
    for region in regions:
        containers = 0
        for record, size in zip(region.records, region.sizes, strict=True):
            if any(_holds_region(e, size, facts, parents, inner, masses, region) for e in record):
                containers += 1
        region.container_share = containers / region.count


def _mostly_links(region: Region, facts: PageFacts) -> bool:
    return sum(facts.link_text_count(e) for e in region.elements) * 2 > sum(region.sizes)


def _holds_region(element: Element, size: int, facts: PageFacts, parents: list[int],
                  inner: list[tuple[int, Region, float]], masses: list[int], itself: Region) -> bool:
    """Whether a region other than `itself` whose parent lies in the element's subtree covers enough of it. The
    subtree is a range of orders, so the candidates are found by bisection rather than by walking it."""
    return any(inner[i][1] is not itself and masses[i] >= inner[i][2] * size
               for i in facts.within(parents, element))


def score_region(region: Region, params: Parameters) -> float:
    mass = sum(min(size, params.record_cap) for size in region.sizes)
    score = mass * min(1.0, region.fields / params.field_target) / (1.0 + region.spread)
    if region.chrome:
        score *= params.chrome_weight
    if region.count == 2:
        score *= params.pair_weight
    return score


def choose_regions(regions: list[Region], facts: PageFacts, params: Parameters) -> list[Region]:
    mark_containers(regions, facts, params)
    regions = [r for r in regions if r.container_share < params.container_limit]
    for region in regions:
        region.score = score_region(region, params)
    # Ties break on document order, so the result never depends on set or dict iteration.
    ranked = sorted(regions, key=lambda r: (-r.score, r.records[0][0].order))
    if not ranked:
        return []
    main = next((r for r in ranked if _is_main_like(r)), ranked[0])
    chosen: list[Region] = []
    for region in ranked:
        if region.score < params.relative_floor * main.score:
            break
        if not any(region.overlaps(c) for c in chosen):
            chosen.append(region)
    _add_same_template(chosen, ranked, facts, params)
    chosen = join_split_tables(chosen, regions, facts)
    return sorted(chosen, key=lambda r: r.records[0][0].order)


def _is_main_like(region: Region) -> bool:
    return region.count >= 3 and region.fields >= 2 and not region.chrome


def _add_same_template(chosen: list[Region], ranked: Iterable[Region], facts: PageFacts, params: Parameters) -> None:
    templates = [(_record_tags(r), _template(r, facts)) for r in chosen]
    for region in ranked:
        if region in chosen or region.count < 3:
            continue
        tags, template = _record_tags(region), _template(region, facts)
        if any(tags == t and jaccard(template, s) >= params.template_similarity for t, s in templates) and not any(
                region.overlaps(c) for c in chosen):
            chosen.append(region)


def join_split_tables(chosen: list[Region], regions: Sequence[Region], facts: PageFacts) -> list[Region]:
    """Join the halves of a table drawn as two (a frozen first column beside a scrolling body).

    A one-column table whose rows line up with a kept table of several columns, as many rows and close by in the
    tree, holds the first cell of each of its rows: row k of both tables is one record."""
    joined: list[Region] = []
    used: set[int] = set()
    for region in chosen:
        if id(region) in used:
            continue
        if _is_table(region) and not _is_one_column(region, facts):
            for column in regions:
                if (column is region or id(column) in used or column.count != region.count
                        or not _is_table(column) or not _is_one_column(column, facts)
                        or any(column.overlaps(c) for c in chosen if c is not column)):
                    continue
                ancestor = common_ancestor([column.parent, region.parent], SPLIT_TABLE_REACH)
                if ancestor is None:
                    continue
                used.add(id(column))
                first, second = sorted((column, region), key=lambda r: r.records[0][0].order)
                region = Region(ancestor, [a + b for a, b in zip(first.records, second.records, strict=True)],
                                [a + b for a, b in zip(first.sizes, second.sizes, strict=True)], region.chrome,
                                region.container_share, region.score)
                break
        joined.append(region)
    return [r for r in joined if id(r) not in used]


def _is_table(region: Region) -> bool:
    return all(len(record) == 1 and record[0].tag == "tr" for record in region.records)


def _is_one_column(region: Region, facts: PageFacts) -> bool:
    return all(len(facts.text_children(record[0])) == 1 for record in region.records)


def _record_tags(region: Region) -> tuple[str, ...]:
    return tuple(e.tag for e in region.records[0])


def _template(region: Region, facts: PageFacts) -> frozenset[str]:
    paths: set[str] = set()
    for record in region.records:
        for element in record:
            paths.update(f"{element.tag}{p}" for p in facts.signature(element))
    return frozenset(paths)


# ---------------------------------------------------------------------------------------------------------------
# The extractor


def extract_regions(page: Page, params: Parameters = DEFAULT_PARAMETERS) -> list[Region]:
    facts = PageFacts(page, params.signature_depth)
    return choose_regions(find_regions(facts, params), facts, params)


def extract_records(page: Page, params: Parameters = DEFAULT_PARAMETERS) -> list[list[str]]:
    """The records of a page as lists of element XPaths, in document order."""
    return [xpaths for region in extract_regions(page, params) for xpaths in region.xpaths()]


class RepeatsExtractor:
    """The default extraction method: deterministic, offline, pure Python on core's DOM."""

    name = METHOD
    version = VERSION

    def __init__(self, params: Parameters | None = None, **overrides: float) -> None:
        refuse_unknown_parameters(METHOD, overrides, [f.name for f in fields(Parameters)])
        base = params or DEFAULT_PARAMETERS
        self.params = Parameters(**{**asdict(base), **overrides}) if overrides else base

    @property
    def parameters(self) -> dict[str, object]:
        """What decides this extractor's records: a run resumed with other parameters is refused, not mixed."""
        return asdict(self.params)

    def extract(self, page: Page) -> Extraction:
        start = time.perf_counter()
        regions = extract_regions(page, self.params)
        records = [xpaths for region in regions for xpaths in region.xpaths()]
        seconds = time.perf_counter() - start
        warnings = [] if records else ["no repeated structure with text was found on this page"]
        return Extraction(records=records, method=METHOD, version=VERSION, parameters=self.parameters,
                          seconds=seconds, warnings=warnings, raw=_describe(regions))


def _describe(regions: Sequence[Region]) -> list[dict[str, object]]:
    """A short account of each kept region, for inspection in the app and in run files."""
    return [{"parent": r.parent.xpath, "records": r.count, "fields": r.fields, "score": round(r.score, 3),
             "chrome": r.chrome} for r in regions]
