"""Group candidates: one list drawn as several small lists of one template (per day, per section, per tab).

Contract. `template_groups(regions, facts)` returns *new* regions, each the union of two or more candidate
regions that have the same record tags, parents of the same tag at the same depth whose common ancestor lies
at most `REACH` levels above them, and record templates overlapping by at least half (Jaccard of the tag
paths to their texts). A group's `parent` is that common ancestor; its records keep their document order. The
parts stay candidates too: a selector chooses between the group and its parts like between any nested levels.
Nothing here looks at text content.
"""

from __future__ import annotations

from ..dom import Element
from .repeats import PageFacts, Region, jaccard

REACH = 4  # how far above the parts their common ancestor may lie
MIN_RECORDS = 4  # a group holds at least this many records in all


def record_template(region: Region, facts: PageFacts) -> frozenset[str]:
    """The tag paths from record elements to their texts, over the first records (enough to compare)."""
    paths: set[str] = set()
    for record in region.records[:20]:
        for element in record:
            paths.update(f"{element.tag}{p}" for p in facts.signature(element))
    return frozenset(paths)


def _depth(element: Element) -> int:
    depth = 0
    node = element.parent
    while node is not None:
        depth += 1
        node = node.parent
    return depth


def _ancestor(element: Element, levels: int) -> Element | None:
    node: Element | None = element
    for _ in range(levels):
        if node is None:
            return None
        node = node.parent
    return node


def _common_ancestor(a: Element, b: Element) -> tuple[Element | None, int]:
    """The common ancestor of two elements at the same depth and how many levels up it is (None past REACH)."""
    for up in range(1, REACH + 1):
        a, b = a.parent, b.parent  # type: ignore[assignment]
        if a is None or b is None:
            return None, up
        if a is b:
            return a, up
    return None, REACH + 1


def template_groups(regions: list[Region], facts: PageFacts) -> list[Region]:
    buckets: dict[tuple[tuple[str, ...], str, int], list[Region]] = {}
    for region in regions:
        key = (tuple(e.tag for e in region.records[0]), region.parent.tag, _depth(region.parent))
        buckets.setdefault(key, []).append(region)
    groups: list[Region] = []
    for members in buckets.values():
        if len(members) < 2:
            continue
        members = sorted(members, key=lambda r: r.records[0][0].order)
        templates = {id(r): record_template(r, facts) for r in members}
        used: set[int] = set()
        for i, first in enumerate(members):
            if id(first) in used:
                continue
            cluster, top, levels = [first], None, 0
            for other in members[i + 1:]:
                if id(other) in used or other.parent is first.parent:
                    continue
                if jaccard(templates[id(first)], templates[id(other)]) < 0.5:
                    continue
                ancestor, up = _common_ancestor(first.parent, other.parent)
                if ancestor is None or (top is not None and up > levels):
                    continue
                if top is None:
                    top, levels = ancestor, up
                elif up < levels:
                    continue  # a closer cousin belongs to a smaller group around it
                cluster.append(other)
            if len(cluster) < 2 or top is None or sum(r.count for r in cluster) < MIN_RECORDS:
                continue
            used.update(id(r) for r in cluster)
            groups.append(_merge(cluster, top))
    return groups


def _merge(parts: list[Region], parent: Element) -> Region:
    records = [rec for part in parts for rec in part.records]
    sizes = [s for part in parts for s in part.sizes]
    share = sum(p.container_share * p.count for p in parts) / len(records)
    return Region(parent, records, sizes, parts[0].chrome, share, 0.0)
