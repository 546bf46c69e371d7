"""A record's shape on the page: where it sits among its siblings, the same record on every sibling, its parts.

A record is a set of element XPaths. Its *group* is the run of sibling elements that holds it, under one
*container*: usually one element (a product card, a table row: the deepest element holding every XPath of
the record, its container that element's parent), sometimes several consecutive siblings (a `dt` and its
`dd`: the container is the deepest common element, the group the children of it that hold the XPaths).
"Apply to siblings" moves the group along the container's children, one group length at a time and past the
rows holding no text between two groups (a spacer row after each item of a table), keeps the positions whose
tags match the group's, and maps every XPath by replacing the group step with the new one.

Every XPath this module returns is the element's own key (`/body[1]/div[2]`), the core's canonical form.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..page.dom import Element, Page, common_ancestor
from .model import normalise_xpath


@dataclass(frozen=True)
class _Group:
    container: Element
    start: int  # index of the group's first element among the container's element children
    tags: tuple[str, ...]


def _resolved(page: Page, xpaths: Iterable[str]) -> list[Element]:
    found = (page.resolve(x) for x in xpaths)
    return list({e.order: e for e in found if e is not None}.values())


def _child_towards(container: Element, element: Element) -> Element:
    """The child of `container` that is `element` or holds it."""
    while element.parent is not container:
        assert element.parent is not None
        element = element.parent
    return element


def _candidate_groups(elements: Sequence[Element]) -> list[_Group]:
    """The record as one element among its parent's children, and, when it spans several children of its
    common ancestor, as that run of children."""
    ancestor = _ancestor_of(elements)
    groups = []
    if ancestor.parent is not None:
        siblings = ancestor.parent.element_children()
        groups.append(_Group(ancestor.parent, siblings.index(ancestor), (ancestor.tag,)))
    if ancestor not in elements:
        children = ancestor.element_children()
        held = sorted({children.index(_child_towards(ancestor, e)) for e in elements})
        if len(held) > 1:
            tags = tuple(c.tag for c in children[held[0]:held[-1] + 1])
            groups.append(_Group(ancestor, held[0], tags))
    return groups


def _relative_steps(group: _Group, element: Element, children: Sequence[Element]) -> tuple[int, str]:
    """(offset of the group child holding `element`, the rest of its path below that child); `children`: the
    container's element children."""
    child = _child_towards(group.container, element)
    return children.index(child) - group.start, element.xpath[len(child.xpath):]


def _records_for(page: Page, group: _Group, elements: Sequence[Element]) -> list[list[str]]:
    """The record moved to every group of its make-up along its container, in document order.

    The places are found outwards from the record, both ways: the next group is one group length on, unless
    rows holding no text lie between (a spacer row after each item of a table; one, several or none): then past
    them, at the first place where a group just like the record stands (`_Walk.alike`). Stepping a fixed length
    over spacers would pair a spacer with the next item's first row, and that item's second row with the next
    spacer. Where none stands (an item with an empty row of its own), the group beginning like the record past
    those rows (`_Walk.begins_alike`), else one group length on: a list whose items vary keeps its pace. Going back,
    the way is one that going on from the list's first item would take (`_Walk._places_back`), so that G on any
    item of a list finds the items G on its first finds. "Just like the record" is read on the rows with text the
    list's items have (`_Walk._usual_row`), not only the record's: the record picked may be the one item whose
    second row is still empty.
    """
    walk = _Walk(page, group, elements)
    found = [*reversed(walk.places(-1)), *walk.places(1)]
    return [record for _, record in found if record is not None]


Place = tuple[int, list[str] | None]  # where a group stands among its container's children, the record moved there
Worth = tuple[int, int, int, int, int]  # of a way back, how many groups it goes through of each kind (`_Walk._worth`)
MakeUp = tuple[str, str, frozenset[str]]  # what a row is made up of, text or not (`_make_up`)


class _Walk:
    """The places along the record's container that its group is moved to (`_records_for`)."""

    def __init__(self, page: Page, group: _Group, elements: Sequence[Element]) -> None:
        self.page, self.group, self.elements = page, group, elements
        self.children = group.container.element_children()
        # Where each of the record's elements lies in its group, read once: a table's thousands of rows are many
        self.steps = [_relative_steps(group, element, self.children) for element in elements]
        self.size = len(group.tags)
        # A sibling has "the same structure" when most of the record's XPaths exist in it too: optional fields
        # (a sale badge on some cards only) must not exclude a card, a different kind of block must.
        self.needed = (len(elements) + 1) // 2
        self._texts: dict[int, bool] = {}
        self._fitted: dict[int, list[str] | None] = {}
        self._make_ups: dict[int, MakeUp] = {}
        # The rows (0 its first) that the list's items hold text in, and what each is made up of (`_usual_row`)
        self.rows_with_text: list[int] = []
        self.made_up: list[MakeUp] = []
        for r in range(self.size):
            holds_text, made_up = self._usual_row(r)
            self.rows_with_text += [r] if holds_text else []
            self.made_up.append(made_up)

    def _usual_row(self, r: int) -> tuple[bool, MakeUp]:
        """Whether row `r` of the list's items holds text, and what it is made up of (`_make_up`): the record's
        own row where it holds text; where it is empty, as most other rows made up as it is, or more
        (`_holds_all`), along the container are, and made up as the nearest of those that hold text. The record
        picked may be the one item whose points row is still empty (and its comments link missing): read as the
        list's make-up, the last row of the item before it and the spacer after that would be an item."""
        own = self.make_up(self.group.start + r)
        if self.holds_text(self.group.start + r):
            return True, own
        peers = [i for i in range(len(self.children)) if i != self.group.start + r and _holds_all(self.make_up(i), own)]
        filled = Counter(self.make_up(i) for i in peers if self.holds_text(i))
        if 2 * filled.total() <= len(peers):
            return False, own
        # Made up as the nearest of them (the fewest parts more), the most of those: a first row `td/a` with its
        # link empty is made up as the first rows, not as the second rows `td/span, td/a` that hold all of it too
        return True, min(filled, key=lambda made_up: (len(made_up[2]), -filled[made_up]))

    def make_up(self, index: int) -> MakeUp:
        if index not in self._make_ups:
            self._make_ups[index] = _make_up(self.children[index])
        return self._make_ups[index]

    def made_up_alike(self, start: int) -> bool:
        """Whether the rows of the group at `start` are made up as the list's items' rows are (`made_up`), an
        empty one maybe with parts missing: a header row (`th`) and an item's first row, or an item's last row and
        the spacer after it, are not."""
        return start >= 0 and start + self.size <= len(self.children) and all(
            self._made_up_as(start + r, self.made_up[r]) for r in range(self.size))

    def _made_up_as(self, index: int, made_up: MakeUp) -> bool:
        row = self.make_up(index)
        return row == made_up or (not self.holds_text(index) and _holds_all(made_up, row))

    def holds_text(self, index: int) -> bool:
        if index not in self._texts:
            self._texts[index] = _holds_text(self.page, [self.children[index].key])
        return self._texts[index]

    def fits(self, start: int) -> list[str] | None:
        """The record moved to `start`, when a group of its tags stands there with most of its XPaths and some
        text; else None."""
        if start < 0 or tuple(c.tag for c in self.children[start:start + self.size]) != self.group.tags:
            return None
        if start not in self._fitted:  # the way back asks of a place more than once
            moved = self._moved(start)
            self._fitted[start] = moved if len(moved) >= self.needed and _holds_text(self.page, moved) else None
        return self._fitted[start]

    def _moved(self, start: int) -> list[str]:
        """The record's XPaths with the group moved to `start`; only those naming an element of the page."""
        found = (self.page.by_xpath.get(self.children[start + offset].xpath + rest) for offset, rest in self.steps)
        return [target.key for target in found if target is not None]

    def alike(self, start: int) -> list[str] | None:
        """`fits`, for a group whose rows hold text wherever the record's rows do: what tells an item's first row
        from the empty row before it (a spacer is a row of the same tag)."""
        if start < 0 or start + self.size > len(self.children):
            return None
        if not all(self.holds_text(start + r) for r in self.rows_with_text):
            return None
        return self.fits(start)

    def begins_alike(self, start: int) -> bool:
        """Whether the group at `start` has its first row with text where the record has: an item's own empty row
        (a field not filled in) is part of it, a spacer before it is not."""
        rows = range(start, min(start + self.size, len(self.children)))
        first = next((r - start for r in rows if self.holds_text(r)), None)
        return first is not None and [first] == self.rows_with_text[:1]

    def _past_empty_rows(self, edge: int, gap: int, direction: int) -> Place | None:
        """Where no group just like the record stands past `gap` rows without text (`_next`), the one among the
        places across them that begins like the record, nearest the row with text that ends them; else None.
        The rows may be spacers or an item's own empty rows (its empty last row seen going back): a fixed step
        from the spacer would pair it with the next item's first row."""
        if direction > 0:
            starts = range(edge + gap, edge - 1, -1)
        else:
            starts = range(edge - gap - self.size, edge - self.size + 1)
        for start in starts:
            if start >= 0 and self.begins_alike(start) and (record := self.fits(start)) is not None:
                return start, record
        return None

    def places(self, direction: int) -> list[Place]:
        """(start, the record moved there or None) of each group after (`direction` 1) or before (-1) the
        record's, nearest first."""
        if direction < 0:
            return self._places_back()
        found = []
        start = self.group.start
        while (place := self._next(start, direction)) is not None:
            found.append(place)
            start = place[0]
        return found

    def _places_back(self) -> list[Place]:
        """The groups before the record's, nearest first: of the ways back that going on from the list's first
        item would take (`_before`), the one worth most (`_worth`), then the nearest. One step back at a time
        cannot tell the previous item's own empty last row (a list without spacers whose item ends in an empty
        row) from a spacer: in both, going on from the row before it comes to the record; only the items further
        back tell which way is the list's."""
        before: dict[int, list[Place]] = {}
        todo = [self.group.start]
        while todo:
            at = todo.pop()
            if at not in before:
                before[at] = self._before(at)
                todo += [p for p, _ in before[at]]
        # For each place, the best way back from it: what it is worth, and its first step (None: it is the first)
        best: dict[int, tuple[Worth, Place | None]] = {}
        for at in sorted(before):  # every step back goes to an earlier place, worked out before
            best[at] = ((0, 0, 0, 0, 0), None)
            for place in before[at]:
                worth = self._worth(place, best[place[0]][0])
                if worth > best[at][0]:  # a tie keeps the nearer step, the first listed
                    best[at] = (worth, place)
        found = []
        at = self.group.start
        while (step := best[at][1]) is not None:
            found.append(step)
            at = step[0]
        return found

    def _worth(self, place: Place, behind: Worth) -> Worth:
        """On the way back through `place`, how many groups it goes through: just like the record with rows made
        up as its own, the record fitting with rows made up as its own, just like the record, the record fitting,
        and (fewer first) all. A way that pairs each item's last row with the next one's first fits as many
        groups as the items: their rows' make-up (`_make_up`) tells which way the list goes, and where every row
        is made up alike (a spacer `<tr><td></td></tr>` among rows `<tr><td>…</td></tr>`), their text. A place the
        record does not fit is passed through only where it leads further."""
        start, record = place
        alike, made_up = self.alike(start) is not None, record is not None and self.made_up_alike(start)
        return (behind[0] + (alike and made_up), behind[1] + made_up, behind[2] + alike,
                behind[3] + (record is not None), behind[4] - 1)

    def _before(self, start: int) -> list[Place]:
        """The places going on from which (`_next`) comes to the group at `start`, nearest first, the record
        moved to each (None where it does not fit); where there are none, the one `_next` finds going back. The
        rows without text before `start` may be spacers, the previous item's own empty last rows or both."""
        gap = 0
        while start - gap - 1 >= 0 and not self.holds_text(start - gap - 1):
            gap += 1
        leading_here = [(p, self.fits(p)) for p in range(start - self.size, start - self.size - gap - 1, -1)
                        if p >= 0 and (on := self._next(p, 1)) is not None and on[0] == start]
        if leading_here:
            return leading_here
        back = self._next(start, -1)
        return [back] if back is not None else []

    def _next(self, start: int, direction: int) -> Place | None:
        """The group next to the one at `start`: among the places across the rows without text that follow it
        (or precede it, going back), the nearest just like the record with rows made up as its own, else the
        nearest the record fits with rows made up as its own where that tells an item's empty row from a spacer
        (`_fits_made_up`: an item whose first row is still empty), else the nearest just like the record; else
        the group beginning like it (`_past_empty_rows`), else the one a group length away; None past the
        container's ends."""
        edge = start + self.size if direction > 0 else start  # where the rows between two groups begin (or end)
        gap = 0
        across = []
        while True:
            across.append(edge + gap if direction > 0 else edge - gap - self.size)
            between = edge + gap if direction > 0 else edge - gap - 1
            if not 0 <= between < len(self.children) or self.holds_text(between):
                break
            gap += 1
        rows = range(edge, edge + gap) if direction > 0 else range(edge - gap, edge)  # the rows without text
        for suits in (self._alike_made_up, functools.partial(self._fits_made_up, rows=rows), self.alike):
            for candidate in across:
                if (record := suits(candidate)) is not None:
                    return candidate, record
        if (place := self._past_empty_rows(edge, gap, direction)) is not None:
            return place
        candidate = edge if direction > 0 else edge - self.size
        if candidate < 0 or candidate + self.size > len(self.children):
            return None
        return candidate, self.fits(candidate)

    def _alike_made_up(self, start: int) -> list[str] | None:
        return self.alike(start) if self.made_up_alike(start) else None

    def _fits_made_up(self, start: int, rows: range) -> list[str] | None:
        """`fits`, for a group made up as the list's items, each of their rows made up otherwise, whose rows
        without text are made up otherwise than the other rows of the gap it stands across (`rows`): there the
        make-up tells an item's empty row from a spacer, where rows all made up alike (`<tr><td></td></tr>`
        spacers among `<tr><td>…</td></tr>` rows) leave it to the rows' text."""
        if len(set(self.made_up)) < self.size or not self.made_up_alike(start):
            return None  # rows all made up alike cannot tell an item's first row from its second, nor a spacer
        own = range(start, start + self.size)
        others = {self.make_up(i) for i in rows if i not in own and not self.holds_text(i)}
        told_apart = all(self.make_up(i) not in others for i in own if not self.holds_text(i))
        return self.fits(start) if told_apart else None


def _make_up(element: Element) -> MakeUp:
    """What an item's row shares with the same row of the list's other items whether or not it holds text: its
    tag, its class as written and the tag paths below it (a row `td/span` whose span is still empty, where a
    spacer row is a bare `tr` of its own class, and a header row `th`)."""
    paths: set[str] = set()
    todo = [(element, "")]
    while todo:
        node, path = todo.pop()
        paths.add(path)
        todo += [(child, f"{path}/{child.tag}") for child in node.element_children()]
    return element.tag, element.attrs.get("class") or "", frozenset(paths)


def _holds_all(make_up: MakeUp, of: MakeUp) -> bool:
    """Whether a row made up as `make_up` is made up as one of `of`, with more below it maybe."""
    return make_up[:2] == of[:2] and make_up[2] >= of[2]


def _holds_text(page: Page, keys: Sequence[str]) -> bool:
    """Whether any of the elements holds a text: an empty sibling (a spacer, a placeholder that scripts fill)
    would be a record that no true record can ever match."""
    return any(e.key in page.text_map for key in keys for e in page.by_xpath[key].iter())


def sibling_records(page: Page, xpaths: Sequence[str], existing: Iterable[Sequence[str]] = ()) -> list[list[str]]:
    """One record per sibling of the same structure as the record `xpaths`, in document order.

    XPaths that name nothing are ignored. Records equal (as sets of normalised XPaths) to the record itself or to
    one of `existing` are left out, so applying twice adds nothing. Of the two readings of a record (one element
    among its siblings, or a run of siblings), the one that finds more siblings wins; a tie goes to the first.
    """
    elements = _resolved(page, xpaths)
    if not elements:
        return []
    best: list[list[str]] = []
    for group in _candidate_groups(elements):
        found = _records_for(page, group, elements)
        if len(found) > len(best):
            best = found
    seen = {_key(r) for r in existing} | {_key(xpaths)}
    result = []
    for record in best:
        if _key(record) not in seen:
            seen.add(_key(record))
            result.append(record)
    return result


def _best_group(page: Page, elements: Sequence[Element]) -> _Group | None:
    """The reading of a record under which it has most siblings; on a tie the tighter list (the deeper
    container: a `dt` and `dd` pair is an item of its `dl` before its `dl` is one of the page's lists)."""
    groups = _candidate_groups(elements)
    return max(groups, key=lambda g: (len(_records_for(page, g, elements)), g.container.xpath.count("/")),
               default=None)


def _climbed(element: Element, levels: int) -> Element | None:
    for _ in range(levels):
        if element.parent is None:
            return None
        element = element.parent
    return element


def _item_like(found: Sequence[Element], element: Element, anchor: Element, levels: int) -> bool:
    """Whether a record of these elements stands at the same path below a sibling of `anchor` (of its tag) as
    `element` below `anchor`, `levels` above it. A record of several elements stands where the deepest element
    holding them all does (an item labelled by its fields stands where the item does)."""
    if not found:
        return False
    standing = found[0] if len(found) == 1 else _ancestor_of(found)
    other = _climbed(standing, levels)
    return (other is not None and other.parent is anchor.parent and other.tag == anchor.tag
            and standing.xpath[len(other.xpath):] == element.xpath[len(anchor.xpath):])


def same_list(page: Page, xpaths: Sequence[str], records: Sequence[Sequence[str]]) -> list[int]:
    """The indices of `records` that stand in the same list as the record `xpaths` (itself too, when it is among
    them): what a reviewer selects to judge a proposed list at once, such as a long menu proposed as records.

    A record of one element is an item of a list where the element, or an ancestor up to `CLIMB_LOOKED` levels
    above it, has siblings of its tag holding a record at the same path below them (a link alone in each item of
    a menu: the items are the list); the lowest such level is taken. A record of several elements is an item
    where it has the same reading (`_best_group`): the same container and the same tags."""
    elements = _resolved(page, xpaths)
    if not elements:
        return []
    held = [_resolved(page, record) for record in records]
    if len(elements) == 1:
        element = elements[0]
        for levels in range(CLIMB_LOOKED + 1):
            anchor = _climbed(element, levels)
            if anchor is None or anchor.parent is None:
                break
            found = [i for i, h in enumerate(held) if _item_like(h, element, anchor, levels)]
            if any(held[i] != [element] for i in found):
                return found
        return [i for i, h in enumerate(held) if h == [element]]
    group = _best_group(page, elements)
    if group is None:
        return []
    key = (group.container.order, group.tags)
    found = []
    for i, h in enumerate(held):
        other = _best_group(page, h) if h else None
        if other is not None and (other.container.order, other.tags) == key:
            found.append(i)
    return found


CLIMB_LOOKED = 4  # levels above a one-element record searched for siblings when it has none of its own


SIBLINGS_CLIMB = 16  # levels above a one-element record looked at for the level G's hint names


class LevelAbove(NamedTuple):
    """An ancestor of a one-element record whose siblings `sibling_records` would find: how many levels up it is
    (U presses from the element), the ancestor, and how many records its siblings would make."""

    levels: int
    ancestor: Element
    records: int


def levels_above(page: Page, xpaths: Sequence[str], existing: Iterable[Sequence[str]] = ()) -> list[LevelAbove]:
    """For a one-element record without siblings of its own (a title alone in its card, a link in its list item):
    every ancestor, at most `SIBLINGS_CLIMB` levels up and below `<body>`, whose siblings `sibling_records` would
    find, nearest first. Empty when there is none, when the record has several elements, or when it has siblings
    of its own (G finds those; climbing would then record something else)."""
    elements = _resolved(page, xpaths)
    if len(elements) != 1 or sibling_records(page, xpaths):
        return []
    existing = list(existing)
    found = []
    node = elements[0].parent
    for levels in range(1, SIBLINGS_CLIMB + 1):
        if node is None or node.parent is None or node.tag == "body":
            break
        count = len(sibling_records(page, [node.key], existing))
        if count:
            found.append(LevelAbove(levels, node, count))
        node = node.parent
    return found


def siblings_above(page: Page, xpaths: Sequence[str], existing: Iterable[Sequence[str]] = ()) -> LevelAbove | None:
    """The level a labeller who clicked a field most likely wants G at (`levels_above`): the one whose siblings
    make the most records, the nearest of those on a tie. The nearest level with a sibling is often a wrapper
    inside the item (a title's `div` beside the item's other `div`, one record), eight levels below the list's
    `li` that makes the page's 249. None when there is no such level."""
    return max(levels_above(page, xpaths, existing), key=lambda level: level.records, default=None)


def split_parts(page: Page, xpaths: Sequence[str]) -> list[list[str]]:
    """The record cut where it spans several children of its common ancestor: one part per child, in order.

    Meant for a record that swallowed two or more neighbouring records (say two cards). XPaths that name nothing
    stay with the first part. Fewer than two parts means there is nothing to split."""
    elements = _resolved(page, xpaths)
    if len(elements) < 2:
        return [list(xpaths)] if xpaths else []
    ancestor = _ancestor_of(elements)
    parts: dict[int, list[str]] = {}
    by_element = {e.order: e for e in elements}
    unresolved = []
    for xpath in xpaths:
        element = page.resolve(xpath)
        if element is None or element.order not in by_element or element is ancestor:
            unresolved.append(xpath)
            continue
        parts.setdefault(_child_towards(ancestor, element).order, []).append(xpath)
    ordered = [parts[k] for k in sorted(parts)]
    if not ordered:
        return [list(xpaths)]
    ordered[0] = unresolved + ordered[0]
    return ordered


def toggle_xpath(xpaths: Sequence[str], xpath: str) -> list[str]:
    """The record after a click on `xpath`: without it when the record holds it (in any spelling), else with it."""
    target = normalise_xpath(xpath)
    kept = [x for x in xpaths if normalise_xpath(x) != target]
    return kept if len(kept) < len(xpaths) else [*xpaths, xpath]


def whole_page(xpath: str) -> bool:
    """Whether `xpath` names the page itself (`<html>` or `<body>`): a click there, in a margin, is no record."""
    return normalise_xpath(xpath) in ("", "/", "/body[1]")


def click_effect(xpaths: Sequence[str], xpath: str) -> str:
    """What a click on `xpath` does to a record holding `xpaths`: "add" or "remove" (see `toggle_xpath`)."""
    return "remove" if len(toggle_xpath(xpaths, xpath)) < len(xpaths) else "add"


def relevelled(page: Page, xpaths: Sequence[str], xpath: str) -> tuple[str, list[str], list[str]] | None:
    """A click on `xpath` that changes the record's level rather than adding a second copy of its text: on an
    element inside one of the record's elements it narrows that element to the one clicked; on an element holding
    some of them it widens those to it. `(how, replaced, record after)` with how "narrow" or "widen", or None when
    the click is neither (an element apart from the record's, or one of them)."""
    clicked = page.resolve(xpath)
    if clicked is None:
        return None
    held = [(x, page.resolve(x)) for x in xpaths]
    around = [x for x, e in held if e is not None and e.is_ancestor_of(clicked)]
    within = [x for x, e in held if e is not None and clicked.is_ancestor_of(e)]
    if not around and not within:
        return None
    how, replaced = ("narrow", around[:1]) if around else ("widen", within)
    gone = {normalise_xpath(x) for x in replaced}
    after: list[str] = []
    for x in xpaths:
        if normalise_xpath(x) not in gone:
            after.append(x)
        elif xpath not in after:  # at the place of the first element it replaces
            after.append(xpath)
    return how, replaced, after


def parent_xpath(xpath: str) -> str | None:
    """The XPath one level up (`/body[1]/ul[1]/li[2]` -> `/body[1]/ul[1]`); None when that is the page itself
    (`whole_page`: a record is never the whole page)."""
    path = normalise_xpath(xpath)
    head, _, _ = path.rpartition("/")
    return None if whole_page(head) else head


def replace_xpath(xpaths: Sequence[str], old: str, new: str) -> list[str]:
    """The record with `old` replaced by `new` where it was (climbing to a parent or back down); no duplicate."""
    target = normalise_xpath(old)
    out: list[str] = []
    for x in xpaths:
        x = new if normalise_xpath(x) == target else x
        if normalise_xpath(x) not in {normalise_xpath(y) for y in out}:
            out.append(x)
    return out


def _key(record: Iterable[str]) -> frozenset[str]:
    return frozenset(normalise_xpath(x) for x in record)


def _ancestor_of(elements: Sequence[Element]) -> Element:
    ancestor = common_ancestor(elements)
    assert ancestor is not None  # without a reach there is always one: the page's root at worst
    return ancestor


def places_in_page_order(page: Page, existing: Sequence[tuple[int, Sequence[str]]],
                         new: Sequence[Sequence[str]]) -> list[int | None]:
    """Where each new record goes so that the list follows the page: the id of the first existing record (in the
    list's order) that starts later on the page, or None (after the last). A record is where its first element
    is; one whose XPaths all name nothing has no place, and goes last."""
    def start(xpaths: Sequence[str]) -> int | None:
        return min((e.order for e in _resolved(page, xpaths)), default=None)

    starts = [(record_id, start(xpaths)) for record_id, xpaths in existing]
    places: list[int | None] = []
    for xpaths in new:
        at = start(xpaths)
        places.append(None if at is None else next(
            (record_id for record_id, begins in starts if begins is not None and begins > at), None))
    return places
