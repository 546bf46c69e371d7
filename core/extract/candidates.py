"""Candidate regions of a page and the structural evidence about each, for a selector to weigh.

Contract. `page_candidates(page)` returns every region `repeats` builds (records of one kind under one parent,
see `repeats.find_regions`) *before* any of its hard choices: no container filter, no chrome discount, no
relative floor; and two kinds `repeats` never proposes (`CANDIDATE_PARAMETERS`): records of two or three
consecutive items where a list's items alternate in look (a title row, then its details row), and regions
inside form controls and widgets (a carousel's items in a listbox, a select's options), marked by their own
features so that a model, not a filter, decides whether such a page labels them. Each candidate carries a
fixed-length feature vector (`FEATURE_NAMES`, all floats) that
describes it from structure only: its size and regularity, its record make-up (links, headings, images, text
length), its place on the page (depth, position, share of the page's text), its chrome evidence (tags, roles,
class words: as separate, soft features), and how it nests among the other candidates (regions inside its
records, regions whose records hold it, regions of the same template). No feature names a page, a site or a
text of the data. The vector is the same for the same page, every time.

`Claims` answers whether a candidate shares any element with the candidates already taken (one record inside,
or equal to, another's), which is what a non-overlapping selection needs, in time linear in the candidate's
size and depth. The hand score of `repeats` (text mass, fields, regularity; without its chrome discount) is
one feature among the others, not a filter.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..page.dom import CHROME_TAGS, Element, Page
from ..records.score import jaccard
from .repeats import (
    CHROME_ROLES,
    CHROME_WORDS,
    LIST_PARENTS,
    PageFacts,
    Parameters,
    Region,
    class_words,
    find_regions,
    is_widget,
    mark_containers,
    score_region,
    variation,
    widget_item_share,
)

HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
MEDIA_TAGS = frozenset({"img", "picture", "svg", "video"})
# Record tags common enough to deserve their own indicator; any other tag counts as "other".
RECORD_TAGS = ("li", "tr", "div", "article", "a", "section", "td", "span", "p", "dt", "dd")
PARENT_TAGS = ("ul", "ol", "tbody", "table", "div", "nav", "section", "main", "dl", "form")
MAIN_TAGS = frozenset({"main", "article"})


# Chrome tag, chrome role, chrome class word, in main content, in a form, in a table cell, in a widget: each 1.0
# when the element or an ancestor is one.
Context = tuple[float, float, float, float, float, float, float]
NO_CONTEXT: Context = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
_UNDISCOUNTED = Parameters(chrome_weight=1.0)
CANDIDATE_PARAMETERS = Parameters(row_groups=True, widgets=True)


@dataclass
class Candidate:
    """One region and its evidence."""

    region: Region
    features: list[float] = field(default_factory=list)

    def xpaths(self) -> list[list[str]]:
        return self.region.xpaths()


@dataclass
class SameTemplate:
    """Per candidate, the other candidates of its template, held as shared blocks rather than a list per candidate.

    Each row of a long table is a candidate of one template (the row's cells): a list of the others per row grew
    with the square of the rows (3000 rows: 9 million entries, 400 MB). A block is the candidates of one record-tag
    sequence and one template that have three or more records; a candidate's kin are the blocks whose templates
    are alike to its own (`groups[key]`), itself left out. Counts and bests read the blocks' top two values."""

    key: list[int]  # per candidate: its (record tags, template) key
    own: list[int]  # per candidate: the block it belongs to, or -1 (fewer than three records)
    groups: list[list[int]]  # per key: the blocks alike to it
    blocks: list[list[int]] = field(default_factory=list)  # candidate indices of one key, three or more records
    counts: list[int] = field(init=False)  # per candidate: how many kin it has

    def __post_init__(self) -> None:
        sizes = [len(b) for b in self.blocks]
        group_sizes = [sum(sizes[b] for b in g) for g in self.groups]
        self.counts = [group_sizes[k] - (b >= 0) for k, b in zip(self.key, self.own, strict=True)]
        # The blocks and groups as flat (owner, member) arrays, for `best` to read in a few numpy steps.
        self._members = np.asarray([i for b in self.blocks for i in b], dtype=np.int64)
        self._block_of = np.repeat(np.arange(len(self.blocks)), sizes)
        self._group_blocks = np.asarray([b for g in self.groups for b in g], dtype=np.int64)
        self._group_of = np.repeat(np.arange(len(self.groups)), [len(g) for g in self.groups])
        self._key = np.asarray(self.key, dtype=np.int64)
        self._own = np.asarray(self.own, dtype=np.int64)

    def best(self, values: np.ndarray) -> np.ndarray:
        """Per candidate, the highest value among its kin (NaN ignored); -inf when it has none."""
        if not self.key:
            return np.zeros(0)
        values = np.asarray(values, dtype=np.float64)
        values = np.where(np.isnan(values), -np.inf, values)
        top, top_at, second = _top_two(self._block_of, values[self._members], self._members, len(self.blocks))
        g_top, g_top_at, g_second = _top_two(self._group_of, top[self._group_blocks], self._group_blocks,
                                             len(self.groups))
        key, own = self._key, self._own
        best = g_top[key]
        in_block = own >= 0
        # A candidate in a block: the best of the other blocks, and of its own block without it.
        k, b, i = key[in_block], own[in_block], np.flatnonzero(in_block)
        others = np.where(g_top_at[k] == b, g_second[k], g_top[k])
        mine = np.where(top_at[b] == i, second[b], top[b])
        best[in_block] = np.maximum(others, mine)
        return best


def _top_two(owner: np.ndarray, values: np.ndarray, ids: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """Per owner (0..n-1, `owner` sorted): its highest value and that value's id, and its second highest value
    (-inf where there is none)."""
    top, second = np.full(n, -np.inf), np.full(n, -np.inf)
    top_at = np.full(n, -1, dtype=np.int64)
    if not len(owner):
        return top, top_at, second
    order = np.lexsort((-values, owner))  # by owner, then highest value first
    starts = np.flatnonzero(np.r_[True, owner[order][1:] != owner[order][:-1]])
    first = order[starts]
    top[owner[first]] = values[first]
    top_at[owner[first]] = ids[first]
    ends = np.r_[starts[1:], len(order)]
    pairs = starts + 1 < ends
    nxt = order[starts[pairs] + 1]
    second[owner[nxt]] = values[nxt]
    return top, top_at, second


@dataclass
class PageCandidates:
    """A page's candidates (document order of their first record, then generation order) and its facts."""

    page: Page
    facts: PageFacts
    candidates: list[Candidate]
    ends: list[int]  # per element order: the order of its last descendant (subtree = [order, end])
    inner: list[list[int]] = field(default_factory=list)  # per candidate: candidates inside its records
    outer: list[list[int]] = field(default_factory=list)  # per candidate: candidates whose records hold it
    same: SameTemplate = field(default_factory=lambda: SameTemplate([], [], []))  # per candidate: its template's others
    # What later steps work out once per page and reuse (the second stage's layout, shared by a model's members)
    cache: dict[str, object] = field(default_factory=dict, repr=False, compare=False)


def page_candidates(page: Page, params: Parameters = CANDIDATE_PARAMETERS) -> PageCandidates:
    facts = PageFacts(page, params.signature_depth)
    regions = find_regions(facts, params)
    mark_containers(regions, facts, params)
    for region in regions:
        region.score = score_region(region, _UNDISCOUNTED)  # chrome is a separate feature, not a factor
    candidates = [Candidate(r) for r in regions]
    pc = PageCandidates(page, facts, candidates, facts.ends)
    _Featurizer(page, facts, candidates, facts.ends).run(pc)
    return pc


def _depth(element: Element) -> int:
    depth = 0
    node = element.parent
    while node is not None:
        depth += 1
        node = node.parent
    return depth


def _ancestors(element: Element) -> list[Element]:
    """The element and everything above it."""
    chain: list[Element] = []
    node: Element | None = element
    while node is not None:
        chain.append(node)
        node = node.parent
    return chain


class Claims:
    """Elements taken by selected regions, so that an overlapping region is recognised in O(depth + size)."""

    def __init__(self) -> None:
        self.taken: set[int] = set()  # record elements of chosen regions
        self.above: set[int] = set()  # ancestors of those elements

    def overlaps(self, region: Region) -> bool:
        if any(e.order in self.taken or e.order in self.above for e in region.elements):
            return True
        # A region's records may have several parents (a joined split table): each one's ancestors are checked.
        parents = {e.parent.order: e.parent for e in region.elements if e.parent is not None}
        return any(a.order in self.taken for p in parents.values() for a in _ancestors(p))

    def take(self, region: Region) -> None:
        for element in region.elements:
            self.taken.add(element.order)
            node = element.parent
            while node is not None and node.order not in self.above:
                self.above.add(node.order)
                node = node.parent


FEATURE_NAMES: tuple[str, ...] = (
    "log_count", "count_is_2", "log_fields", "log_mean_size", "log_max_size", "spread", "log_mass",
    "log_hand_score", "hand_score_rel", "hand_rank_log", "mass_rel", "text_share_of_page",
    "record_elements", "container_share", "link_share", "link_record_share", "heading_share", "media_share",
    "log_chars_per_record", "chars_spread", "log_links_per_record", "signature_agreement", "distinct_cores",
    "parent_is_list", "member_share_of_parent", "log_parent_depth", "depth_rel", "position", "span_share",
    "chrome_tag", "chrome_role", "chrome_word", "in_main", "in_form", "inside_table_cell", "in_widget",
    "widget_item_share",
    "own_text_share", "log_inner_regions", "inner_list_share", "inner_best_rel", "inner_count_ratio",
    "log_outer_regions", "outer_best_rel", "outer_count_ratio", "outer_one_each",
    "log_same_template", "same_template_best_rel", "siblings_same_tag_regions", "log_distinct_region_parents",
) + tuple(f"record_tag_{t}" for t in RECORD_TAGS) + ("record_tag_other",) + tuple(
    f"parent_tag_{t}" for t in PARENT_TAGS) + ("parent_tag_other",)


def _log(value: float) -> float:
    return math.log1p(max(value, 0.0))


class _Featurizer:
    """Computes every candidate's features; one pass over the page's elements, then per-region work."""

    def __init__(self, page: Page, facts: PageFacts, candidates: list[Candidate], ends: list[int]) -> None:
        self.page, self.facts, self.candidates, self.ends = page, facts, candidates, ends
        n = len(page.elements)
        self.chars = [0] * n
        self.headings = [0] * n
        self.media = [0] * n
        self.links = [0] * n
        for element in reversed(page.elements):
            order = element.order
            if self.facts.has_text[order]:
                self.chars[order] += len(page.text_map.get(element.key, ""))
            self.headings[order] += element.tag in HEADING_TAGS
            self.media[order] += element.tag in MEDIA_TAGS
            self.links[order] += element.tag == "a"
            if element.parent is not None:
                p = element.parent.order
                self.chars[p] += self.chars[order]
                self.headings[p] += self.headings[order]
                self.media[p] += self.media[order]
                self.links[p] += self.links[order]
        self.page_texts = max(1, len(page.text_map))
        self.n = max(1, n)
        self.max_depth = 1
        self.depths: dict[int, int] = {}
        self._context: dict[int, Context] = {}

    def run(self, pc: PageCandidates) -> None:
        regions = [c.region for c in self.candidates]
        if not regions:
            return
        max_score = max(r.score for r in regions) or 1.0
        max_mass = max(sum(r.sizes) for r in regions) or 1
        ranks = {id(r): i for i, r in enumerate(sorted(regions, key=lambda r: (-r.score, r.records[0][0].order)))}
        for region in regions:
            self.depths[id(region)] = _depth(region.parent)
        self.max_depth = max(self.depths.values()) or 1
        # Which regions hold each element as a record element: nesting is read off the parent's ancestors.
        member_of: dict[int, list[int]] = {}
        for i, region in enumerate(regions):
            for element in region.elements:
                member_of.setdefault(element.order, []).append(i)
        outer: list[list[int]] = [[] for _ in regions]
        inner: list[list[int]] = [[] for _ in regions]
        for i, region in enumerate(regions):
            for ancestor in _ancestors(region.parent):
                for j in member_of.get(ancestor.order, ()):
                    if j != i:
                        outer[i].append(j)
                        inner[j].append(i)
        templates = [self._template(r) for r in regions]
        tags = [tuple(e.tag for e in r.records[0]) for r in regions]
        by_tags: dict[tuple[str, ...], list[int]] = {}
        for i, t in enumerate(tags):
            by_tags.setdefault(t, []).append(i)
        parents_by_tags = {t: len({regions[i].parent.order for i in idx}) for t, idx in by_tags.items()}
        pc.same = same = self._same_template(regions, tags, templates, by_tags)
        same_best = same.best(np.asarray([r.score for r in regions], dtype=np.float64))
        for i, candidate in enumerate(self.candidates):
            region = regions[i]
            best = float(same_best[i]) if same.counts[i] else 0.0
            candidate.features = self._features(region, regions, max_score, max_mass, ranks[id(region)],
                                                inner[i], outer[i], same.counts[i], best, parents_by_tags[tags[i]])
        pc.inner, pc.outer = inner, outer

    @staticmethod
    def _same_template(regions: Sequence[Region], tags: list[tuple[str, ...]], templates: list[frozenset[str]],
                       by_tags: dict[tuple[str, ...], list[int]]) -> SameTemplate:
        """Regions of one template mostly share identical templates: each distinct template is compared once."""
        keys: dict[tuple[tuple[str, ...], frozenset[str]], int] = {}
        key = [keys.setdefault((t, a), len(keys)) for t, a in zip(tags, templates, strict=True)]
        block_of_key: dict[int, int] = {}
        blocks: list[list[int]] = []
        own = [-1] * len(regions)
        for i, region in enumerate(regions):
            if region.count >= 3:  # only regions of three or more records are anyone's kin
                if key[i] not in block_of_key:
                    block_of_key[key[i]] = len(blocks)
                    blocks.append([])
                own[i] = block_of_key[key[i]]
                blocks[own[i]].append(i)
        groups: list[list[int]] = [[] for _ in keys]
        for t, idx in by_tags.items():
            distinct = list(dict.fromkeys(templates[i] for i in idx))
            with_block = [(b, block_of_key[keys[(t, b)]]) for b in distinct if keys[(t, b)] in block_of_key]
            for a in distinct:  # a block alike to a template: all its members are kin of that template's regions
                groups[keys[(t, a)]] = [block for b, block in with_block if jaccard(a, b) >= 0.5]
        return SameTemplate(key, own, groups, blocks)

    def _template(self, region: Region) -> frozenset[str]:
        paths: set[str] = set()
        for record in region.records[:20]:  # a sample is enough to compare templates, and keeps it linear
            for element in record:
                paths.update(f"{element.tag}{p}" for p in self.facts.signature(element))
        return frozenset(paths)

    def _features(self, region: Region, regions: Sequence[Region], max_score: float, max_mass: int, rank: int,
                  inner: list[int], outer: list[int], same_count: int, same_best: float,
                  tag_parents: int) -> list[float]:
        facts = self.facts
        count = region.count
        sizes = region.sizes
        mass = sum(sizes)
        elements = region.elements
        record_chars = [sum(self.chars[e.order] for e in rec) for rec in region.records]
        record_links = [sum(facts.link_text_count(e) for e in rec) for rec in region.records]
        link_share = sum(record_links) / mass if mass else 0.0
        link_records = sum(1 for lk, s in zip(record_links, sizes, strict=True) if s and lk * 2 > s) / count
        heading_share = sum(1 for rec in region.records if any(self.headings[e.order] for e in rec)) / count
        media_share = sum(1 for rec in region.records if any(self.media[e.order] for e in rec)) / count
        links_per_record = sum(self.links[e.order] for e in elements) / count
        mean_chars = sum(record_chars) / count
        chars_spread = variation(record_chars)
        signatures = [facts.signature(rec[0]) for rec in region.records[:30]]
        agreement = statistics.fmean(jaccard(signatures[0], s) for s in signatures[1:]) if len(signatures) > 1 else 1.0
        cores = len({facts.core(rec[0]).tag for rec in region.records}) / count
        parent = region.parent
        parent_children = len(facts.text_children(parent)) or 1
        depth = self.depths[id(region)]
        first = region.records[0][0].order
        last = self.ends[region.records[-1][-1].order]
        chrome_tag, chrome_role, chrome_word, in_main, in_form, in_cell, in_widget = self._context_of(parent)
        widget_items = widget_item_share([rec[0] for rec in region.records])
        own_text = sum(1 for e in elements if facts.has_text[e.order]) / len(elements)

        inner_multi = [regions[j] for j in inner if regions[j].count >= 3]
        inner_best = max((regions[j].score for j in inner), default=0.0)
        inner_count = max((regions[j].count for j in inner), default=0)
        # Share of records holding a list of their own (three or more items of one kind): the cards-with-tags case.
        # A record element holds one when that list's parent lies in its subtree, a range of orders.
        inner_parents = sorted(r.parent.order for r in inner_multi)
        inner_list_share = sum(1 for rec in region.records if any(facts.within(inner_parents, e) for e in rec)) / count
        outer_best = max((regions[j].score for j in outer), default=0.0)
        outer_count = max((regions[j].count for j in outer), default=0)
        # One record of this region inside each record of the enclosing region: a field of a card, or a card's
        # wrapper chain (the two levels a selector must choose between).
        outer_one_each = 0.0
        if outer:
            j = max(outer, key=lambda k: (regions[k].score, -k))
            outer_one_each = min(count, regions[j].count) / max(count, regions[j].count)
        score = region.score or 1e-9

        features = [
            _log(count), float(count == 2), _log(region.fields), _log(mass / count), _log(max(sizes)), region.spread,
            _log(mass), _log(region.score), region.score / max_score, _log(rank), mass / max_mass,
            mass / self.page_texts, float(len(region.records[0])), region.container_share, link_share, link_records,
            heading_share, media_share, _log(mean_chars), chars_spread, _log(links_per_record), agreement, cores,
            float(parent.tag in LIST_PARENTS), count * len(region.records[0]) / parent_children, _log(depth),
            depth / self.max_depth, first / self.n, (last - first + 1) / self.n,
            chrome_tag, chrome_role, chrome_word, in_main, in_form, in_cell, in_widget, widget_items, own_text,
            _log(len(inner)), inner_list_share, inner_best / score, inner_count / count,
            _log(len(outer)), outer_best / score, outer_count / count, outer_one_each,
            _log(same_count), same_best / score, float(same_count > 0), _log(tag_parents),
        ]
        record_tag = region.records[0][0].tag
        features.extend(float(record_tag == t) for t in RECORD_TAGS)
        features.append(float(record_tag not in RECORD_TAGS))
        features.extend(float(parent.tag == t) for t in PARENT_TAGS)
        features.append(float(parent.tag not in PARENT_TAGS))
        return features

    def _context_of(self, element: Element) -> Context:
        """Chrome and context evidence from the element and its ancestors (cached per element).

        Iterative: climb to the nearest cached ancestor, then fill the cache downwards (no recursion on deep
        pages)."""
        chain: list[Element] = []
        node: Element | None = element
        while node is not None and node.order not in self._context:
            chain.append(node)
            node = node.parent
        above = self._context[node.order] if node is not None else NO_CONTEXT
        for item in reversed(chain):
            if item.parent is None:
                result = NO_CONTEXT
            else:
                role = item.attrs.get("role") or ""
                result = (
                    max(above[0], float(item.tag in CHROME_TAGS)),
                    max(above[1], float(role in CHROME_ROLES)),
                    # The element's own class words count too: the selector weighs them, they do not veto.
                    max(above[2], float(bool(class_words(item) & CHROME_WORDS))),
                    max(above[3], float(item.tag in MAIN_TAGS or role == "main")),
                    max(above[4], float(item.tag == "form")),
                    max(above[5], float(item.tag in ("td", "th"))),
                    max(above[6], float(is_widget(item))),
                )
            self._context[item.order] = result
            above = result
        return above


def feature_matrix(pc: PageCandidates) -> np.ndarray:
    """One row per candidate, one column per `FEATURE_NAMES` entry (a page without candidates: zero rows)."""
    if not pc.candidates:
        return np.zeros((0, len(FEATURE_NAMES)))
    return np.asarray([c.features for c in pc.candidates], dtype=np.float64)
