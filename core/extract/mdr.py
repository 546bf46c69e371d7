"""MDR (Liu, Grossman, Zhai 2003) as NEXT-EVAL's reference runs it, quirks included (NEXT-EVAL-NOTES §6).

The reference parses the *slim HTML* again and builds a tag tree rooted at <html>: elements keep their
`/html[1]/...` XPath, non-blank text nodes become children with tag `text` and their parent's XPath. A node's
tag string is `<tag>` + its children's strings + `</tag>`; text adds nothing. Similarity compares tag strings:

- `levenshtein` (default, the reference's Rust MDR at HEAD): character Levenshtein distance / the longer
  length; 1.0 when one string is more than twice as long as the other; two empty strings are at distance 0.
- `lcs` (the paper-era TypeScript): insert/delete (LCS) distance / the *mean* length, same 2x rule; two empty
  strings give NaN, which is "not similar" where the code asks `d <= T` and "similar" where it asks `d > T`.

The region and record logic keeps the reference's bugs, because they define the published baseline:

- a child's uncovered regions are appended to its parent's list, and later applied to the parent's *own*
  children (this is how `/html[1]/head[1]/title[1]` becomes a record);
- a region is skipped when the key `<parent tag>-<start>` was already used on *any* node;
- nodes are identified by XPath, and a text node shares its parent's: a child counts as covered for orphans when
  its XPath is that of a covered child, and orphans are de-duplicated by XPath. Two rules were read off the
  reference's fixtures rather than its notes: the text-node rule just stated, and that an uncovered child's own
  children are tried as orphans *before* the child itself.
- the notes also mention merging two adjacent regions of the same gn > 1 column-wise; its exact condition is not
  documented, it never fires on the 17 fixtures nor on the 40 dev pages (no such adjacent pair exists there),
  so it is left out.

Only "d <= T" is ever asked, so distances are computed with a cutoff by rapidfuzz's C Levenshtein/Indel: the
same decisions as the exact distance (a test checks it against `distance`), orders of magnitude faster than
pure Python on tag strings that reach hundreds of kilobytes. Strings are those of the reference (characters,
not one symbol per tag), so the ratios match it exactly. Lengths are measured as each implementation measures
them: UTF-8 bytes for `levenshtein` (the Rust's `len()`), UTF-16 code units for `lcs` (the paper TS's `.length`,
its LCS over code units too); they differ only for non-ASCII tag names. The cost that remains is that of many large,
mutually *dissimilar* siblings of similar size: 20 random 30 KB blocks under one parent take about a minute,
while the largest dev page (1.6 MB) takes well under a second end to end.

The input is our own slim HTML (the paper pipeline's) where the reference's fixtures used jsdom's; on the 17
pages with fixtures both give the same tag tree and identical records.

Every walk is iterative, so deeply nested pages cannot exhaust Python's recursion limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from rapidfuzz.distance import Indel, Levenshtein

from ..page.dom import Element, Page, js_trim, parse_html
from ..page.formats import slim_html
from .base import Extraction, strip_html_prefix

VERSION = "1.0"
DEFAULT_K = 10
DEFAULT_T = 0.3
Similarity = Literal["levenshtein", "lcs"]
TEXT_TAG = "text"


class TagNode:
    """A node of the reference's tag tree. Text nodes have tag `text`, no children, and their parent's XPath."""

    __slots__ = ("tag", "xpath", "children", "length", "id", "text")

    def __init__(self, tag: str, xpath: str, node_id: int, text: str | None = None) -> None:
        self.tag = tag
        self.xpath = xpath
        self.children: list[TagNode] = []
        self.length = 0  # length of the tag string, as the similarity measures it (`Mdr.run`: `_MEASURES`)
        self.id = node_id
        self.text = text

    def __repr__(self) -> str:
        return f"<TagNode {self.tag} {self.xpath}>"


def build_tag_tree(root: Element) -> list[TagNode]:
    """The reference's `buildTagTree` over a parsed page: every node in pre-order, the root (<html>) first."""
    top = TagNode(root.tag.lower(), "/html[1]" + root.xpath, -1)
    stack: list[tuple[Element, TagNode]] = [(root, top)]
    while stack:
        element, node = stack.pop()
        pending: list[tuple[Element, TagNode]] = []
        for child in element.children:
            if isinstance(child, str):
                # Blank text is skipped; kept text is a child that adds nothing to tag strings.
                text = js_trim(child)
                if text:
                    node.children.append(TagNode(TEXT_TAG, node.xpath, -1, text))
            else:
                child_node = TagNode(child.tag.lower(), "/html[1]" + child.xpath, -1)
                node.children.append(child_node)
                pending.append((child, child_node))
        stack.extend(reversed(pending))
    return _preorder(top)


def _preorder(top: TagNode) -> list[TagNode]:
    order: list[TagNode] = []
    stack = [top]
    while stack:
        node = stack.pop()
        node.id = len(order)
        order.append(node)
        stack.extend(reversed(node.children))
    return order


def _measure(nodes: list[TagNode], length: Callable[[str], int]) -> None:
    """Each node's tag-string length, by `length` (the similarity's measure: `_MEASURES`), without building the
    strings: `<tag>` and `</tag>` around the children's (text adds nothing). `nodes` in pre-order."""
    for node in reversed(nodes):  # children before parents
        if node.text is None:
            node.length = 2 * length(node.tag) + 5 + sum(c.length for c in node.children)


def _utf8_len(text: str) -> int:
    """A string's length as the reference's Rust measures it (`str::len`: UTF-8 bytes)."""
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def _utf16_len(text: str) -> int:
    """A string's length as the paper's TypeScript measures it (`.length`: UTF-16 code units)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le")) // 2


def _utf16_units(text: str) -> str:
    """The string as JavaScript holds it, one character per UTF-16 code unit (a character outside the BMP as its
    two surrogates), so that the LCS of two is counted in the units the paper's TypeScript compared."""
    if text.isascii() or max(text) < "\U00010000":
        return text
    units = text.encode("utf-16-le")
    return "".join(chr(int.from_bytes(units[i:i + 2], "little")) for i in range(0, len(units), 2))


# How each similarity measures a tag string, as the implementation it follows does
_MEASURES: dict[str, Callable[[str], int]] = {"levenshtein": _utf8_len, "lcs": _utf16_len}


def distance(a: str, b: str, similarity: Similarity = "levenshtein") -> float:
    """The reference's normalised tag-string distance, exactly (NaN for two empty strings under `lcs`).

    MDR itself only asks whether this is <= T and uses a faster cut-off computation; this is the yardstick.
    """
    la, lb = _MEASURES[similarity](a), _MEASURES[similarity](b)
    if la == 0 and lb == 0:
        return 0.0 if similarity == "levenshtein" else math.nan
    if la > 2 * lb or lb > 2 * la:
        return 1.0
    if similarity == "levenshtein":
        return Levenshtein.distance(a, b) / max(la, lb)
    return Indel.distance(_utf16_units(a), _utf16_units(b)) / ((la + lb) / 2)


@dataclass(frozen=True)
class Region:
    """A data region among a node's children: generalized nodes of `gn` children from `start`, `count` children."""

    gn: int
    start: int
    count: int

    def covers(self, index: int) -> bool:
        return self.start <= index < self.start + self.count


@dataclass
class MdrResult:
    regions: dict[str, list[Region]]  # parent XPath -> its regions (own first, then propagated), pre-order
    records: list[list[TagNode]]
    orphans: list[TagNode]

    def xpath_records(self) -> list[list[str]]:
        """The reference's final list: records, then orphans not already a single-node record; `/html[1]` kept."""
        out = [[n.xpath for n in r] for r in self.records if r]
        singles = {r[0] for r in out if len(r) == 1}
        out.extend([o.xpath] for o in self.orphans if o.xpath not in singles)
        return out


class _Siblings:
    """One node's children as IdentDRs sees them: tag-string lengths, and strings built on demand."""

    def __init__(self, mdr: Mdr, children: list[TagNode]) -> None:
        self.children = children
        self.prefix = [0]
        for child in children:
            self.prefix.append(self.prefix[-1] + child.length)
        self._mdr = mdr
        self._strings: list[str | None] = [None] * len(children)
        self.cache: dict[tuple[int, int], bool | None] = {}

    def joined(self, start: int, stop: int) -> str:
        """The tag string of children[start:stop], building each child's string only when first needed."""
        strings = self._strings
        for i in range(start, stop):
            if strings[i] is None:
                strings[i] = self._mdr.tag_string(self.children[i])
        return "".join(strings[start:stop])  # type: ignore[arg-type]


class Mdr:
    """One MDR run over one tag tree (distance caches live as long as the instance)."""

    def __init__(self, k: int = DEFAULT_K, t: float = DEFAULT_T, similarity: Similarity = "levenshtein") -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"K must be a whole number of at least 1 (got {k!r})")
        if isinstance(t, bool) or not isinstance(t, int | float) or not 0 <= t <= 1:
            raise ValueError(f"T must be a number in [0, 1] (got {t!r})")
        if similarity not in ("levenshtein", "lcs"):
            raise ValueError(f"unknown similarity {similarity!r}; choose 'levenshtein' or 'lcs'")
        self.k = k
        self.t = t
        self.similarity = similarity
        self._strings: dict[int, str] = {}
        self._pair_cache: dict[tuple[int, int], bool | None] = {}

    # -- tag strings and similarity ------------------------------------------------------------------------

    def tag_string(self, node: TagNode) -> str:
        cached = self._strings.get(node.id)
        if cached is not None:
            return cached
        out: list[str] = []
        stack: list[TagNode | str] = [node]
        strings = self._strings
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                out.append(item)
                continue
            if item.text is not None:
                continue
            known = strings.get(item.id)
            if known is not None:
                out.append(known)
                continue
            out.append(f"<{item.tag}>")
            stack.append(f"</{item.tag}>")
            stack.extend(reversed(item.children))
        result = "".join(out)
        strings[node.id] = result
        return result

    def _similar(self, a: str, la: int, b: str, lb: int) -> bool | None:
        """Is the distance <= T? None stands for the paper TS's NaN (two empty strings under `lcs`).

        `la`/`lb` are the reference's lengths (`_MEASURES`: UTF-8 bytes, or UTF-16 units for `lcs`); the strings
        may be passed empty when the length rules alone decide, which they always do for two empty strings and
        for the 2x rule.
        """
        if la == 0 and lb == 0:
            return True if self.similarity == "levenshtein" else None
        if la > 2 * lb or lb > 2 * la:
            return self.t >= 1.0
        t = self.t
        if self.similarity == "lcs":
            a, b = _utf16_units(a), _utf16_units(b)  # the TS's LCS is over code units
        # Both distances are at least the difference in length (in characters; code units for `lcs`): a cheap "no".
        gap = abs(len(a) - len(b))
        if self.similarity == "levenshtein":
            longest = max(la, lb)
            if gap > t * longest:
                return False
            distance = Levenshtein.distance(a, b, score_cutoff=int(t * longest) + 1)
            return distance / longest <= t
        mean = (la + lb) / 2
        if gap > t * mean:
            return False
        distance = Indel.distance(a, b, score_cutoff=int(t * mean) + 1)
        return distance / mean <= t

    def nodes_similar(self, a: TagNode, b: TagNode) -> bool | None:
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if key in self._pair_cache:
            return self._pair_cache[key]
        if a.length == 0 and b.length == 0 or a.length > 2 * b.length or b.length > 2 * a.length:
            result = self._similar("", a.length, "", b.length)
        else:
            result = self._similar(self.tag_string(a), a.length, self.tag_string(b), b.length)
        self._pair_cache[key] = result
        return result

    def _windows_similar(self, row: _Siblings, j: int, gn: int) -> bool | None:
        """Generalized node children[j:j+gn] against the next one, children[j+gn:j+2gn]."""
        key = (j, gn)
        cache = row.cache
        if key in cache:
            return cache[key]
        if gn == 1:
            result = self.nodes_similar(row.children[j], row.children[j + 1])
        else:
            prefix = row.prefix
            la = prefix[j + gn] - prefix[j]
            lb = prefix[j + 2 * gn] - prefix[j + gn]
            if la == 0 and lb == 0 or la > 2 * lb or lb > 2 * la:
                result = self._similar("", la, "", lb)
            else:
                a, b = row.joined(j, j + gn), row.joined(j + gn, j + 2 * gn)
                # Equal non-empty strings are at distance 0 under both measures.
                result = True if a == b else self._similar(a, la, b, lb)
        cache[key] = result
        return result

    # -- region detection ----------------------------------------------------------------------------------

    def ident_regions(self, node: TagNode) -> list[Region]:
        """IdentDRs from the first child, repeated after each region found (the paper's tail recursion)."""
        row = _Siblings(self, node.children)
        n = len(node.children)
        regions: list[Region] = []
        start = 0
        while start < n:
            best = Region(0, 0, 0)
            for gn in range(1, self.k + 1):
                for first in range(start, start + gn):
                    current: Region | None = None
                    j = first
                    while j + 2 * gn <= n:
                        if self._windows_similar(row, j, gn) is True:
                            if current is None:
                                current = Region(gn, j, 2 * gn)
                            else:
                                current = Region(gn, current.start, current.count + gn)
                        elif current is not None:
                            break
                        j += gn
                    if current is None:
                        continue
                    if current.count > best.count and (best.start == 0 or current.start <= best.start) or (
                            current.count == best.count and current.start == best.start and gn < best.gn):
                        best = current
            if best.count == 0:
                break
            regions.append(best)
            start = best.start + best.count
        return regions

    def find_regions(self, nodes: list[TagNode]) -> dict[int, list[Region]]:
        """MDR(): every node's own regions plus its children's uncovered ones, bottom-up; the nodes' lengths
        measured first, as this similarity measures them (the length rules read them)."""
        _measure(nodes, _MEASURES[self.similarity])
        regions: dict[int, list[Region]] = {}
        for node in reversed(nodes):  # children before parents
            children = node.children
            own: list[Region] = []
            if len(children) >= 2 and any(c.children for c in children):
                own = self.ident_regions(node)
            merged = list(own)
            for index, child in enumerate(children):
                child_regions = regions.get(child.id)
                if child_regions and not any(r.covers(index) for r in own):
                    merged.extend(child_regions)
            if merged:
                regions[node.id] = merged
        return regions

    # -- records -------------------------------------------------------------------------------------------

    def _siblings_similar(self, nodes: list[TagNode]) -> bool:
        # The TS asks `d > T` here, so its NaN counts as similar.
        return all(self.nodes_similar(a, b) is not False for a, b in zip(nodes, nodes[1:], strict=False))

    def find_records_1(self, node: TagNode) -> list[list[TagNode]]:
        children = node.children
        if children and node.tag != "tr" and self._siblings_similar(children):
            return [[c] for c in children]
        return [[node]]

    def find_records_n(self, group: list[TagNode]) -> list[list[TagNode]]:
        width = len(group[0].children)
        if width > 0 and all(len(g.children) == width for g in group) and all(
                self._siblings_similar(g.children) for g in group):
            return [[g.children[i] for g in group] for i in range(width)]
        return [group]

    def records(self, nodes: list[TagNode], regions: dict[int, list[Region]]) -> list[list[TagNode]]:
        records: list[list[TagNode]] = []
        seen: set[str] = set()
        for node in nodes:  # pre-order, as the reference's insertion-ordered map
            node_regions = regions.get(node.id)
            if not node_regions:
                continue
            children = node.children
            for region in sorted(node_regions, key=lambda r: r.start):
                key = f"{node.tag}-{region.start}"
                if key in seen:
                    continue
                seen.add(key)
                end = min(region.start + region.count, len(children))
                if region.gn == 1:
                    for i in range(region.start, end):
                        records.extend(self.find_records_1(children[i]))
                else:
                    for i in range(region.start, end, region.gn):
                        group = children[i:min(i + region.gn, end)]
                        records.extend(self.find_records_n(group))
        return records

    def orphans(self, nodes: list[TagNode], regions: dict[int, list[Region]]) -> list[TagNode]:
        found: dict[str, TagNode] = {}
        for node in nodes:
            node_regions = regions.get(node.id)
            if not node_regions:
                continue
            children = node.children
            first = node_regions[0].start
            if first >= len(children):
                continue
            reference = children[first]
            # By XPath, as the reference: text children share their parent's, so one covered text covers all.
            covered = {children[i].xpath for r in node_regions
                       for i in range(r.start, min(r.start + r.count, len(children)))}
            for child in children:
                if child.xpath in covered:
                    continue
                # The reference's fixtures list a child's children before the child itself.
                for candidate in [*child.children, child]:
                    if self.nodes_similar(candidate, reference) is True and candidate.xpath not in found:
                        found[candidate.xpath] = candidate
        return list(found.values())

    def run(self, nodes: list[TagNode]) -> MdrResult:
        """MDR over a tag tree (`build_tag_tree`: its nodes in pre-order)."""
        regions = self.find_regions(nodes)
        by_xpath = {nodes[i].xpath: r for i, r in sorted(regions.items())}
        return MdrResult(by_xpath, self.records(nodes, regions), self.orphans(nodes, regions))


def mdr_records(html_or_page: str | Page, *, k: int = DEFAULT_K, t: float = DEFAULT_T,
                similarity: Similarity = "levenshtein") -> MdrResult:
    """Run MDR the reference's way: slim the page, parse the slim HTML again, build the tag tree, run."""
    page = parse_html(html_or_page) if isinstance(html_or_page, str) else html_or_page
    slim = parse_html(slim_html(page))
    return Mdr(k, t, similarity).run(build_tag_tree(slim.root))


class MdrExtractor:
    name = "mdr"
    version = VERSION

    def __init__(self, k: int = DEFAULT_K, t: float = DEFAULT_T, similarity: Similarity = "levenshtein") -> None:
        Mdr(k, t, similarity)  # validates
        self.k = k
        self.t = t
        self.similarity: Similarity = similarity

    @property
    def parameters(self) -> dict[str, object]:
        return {"k": self.k, "t": self.t, "similarity": self.similarity}

    def extract(self, page: Page) -> Extraction:
        began = time.perf_counter()
        result = mdr_records(page, k=self.k, t=self.t, similarity=self.similarity)
        records = [[strip_html_prefix(x) for x in r] for r in result.xpath_records()]
        raw = {
            # parent XPath -> [(gn, start, count)], propagated regions included, as the reference reports them
            "regions": {strip_html_prefix(x): [(r.gn, r.start, r.count) for r in rs]
                        for x, rs in result.regions.items()},
            "orphans": [strip_html_prefix(o.xpath) for o in result.orphans],
        }
        return Extraction(records=records, method=self.name, version=self.version, parameters=self.parameters,
                          seconds=time.perf_counter() - began, input_format="slim", raw=raw)

