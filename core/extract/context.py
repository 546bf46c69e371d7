"""Second-stage evidence: how a candidate compares with the page's other candidates as a first model rates them.

Contract. Given a page's candidates and first-stage probabilities `p1` (one per candidate), `context_features`
returns a matrix (`CONTEXT_NAMES`) that places each candidate in its page: its own p1, p1 against the page's
best, its rank, the best p1 among the candidates nested inside its records, among those that hold it, among
those of its template, how many candidates the first stage likes, and how near it lies to the page's best
candidate in the tree (a secondary list beside the main one, or a menu far from it). A selector whose second
stage reads these decides levels and secondary lists relative to the page, not by an absolute cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .candidates import FEATURE_NAMES, PageCandidates, _ancestors

CONTEXT_NAMES: tuple[str, ...] = (
    "p1", "p1_rel", "p1_rank_log", "p1_inner_best", "p1_outer_best", "p1_same_best", "p1_likely_log",
    "near_top", "mass_rel_top", "count_rel_top", "is_top", "top_chrome_tag", "p1_gap_outer",
    "fields_rel_top", "chars_rel_top", "link_share_minus_top", "depth_minus_top", "same_parent_as_top",
    "p1_second_best_rel",
)


@dataclass
class _Layout:
    """What `context_features` reads of a page that does not depend on the first stage: worked out once per page
    and shared by every member of a bagged model (each rates the same candidates)."""

    segments: dict[str, tuple[np.ndarray, np.ndarray]]  # inner/outer as (candidate index, other index)
    chains: list[list[int]]  # per candidate: the orders of its parent and everything above it
    masses: np.ndarray
    counts: np.ndarray
    parents: list[int]
    firsts: list[int]  # per candidate: the order of its first record's first element (where p1 ties are broken)
    near: dict[int, np.ndarray] = field(default_factory=dict)  # per top candidate: each one's closeness to it


def _layout(pc: PageCandidates) -> _Layout:
    cached = pc.cache.get("context")
    if cached is None:
        regions = [c.region for c in pc.candidates]

        def segments(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
            owner = np.asarray([i for i, js in enumerate(lists) for _ in js], dtype=np.int64)
            return owner, np.asarray([j for js in lists for j in js], dtype=np.int64)

        cached = pc.cache["context"] = _Layout(
            {"inner": segments(pc.inner), "outer": segments(pc.outer)},
            [[a.order for a in _ancestors(r.parent)] for r in regions],
            np.asarray([sum(r.sizes) for r in regions], dtype=np.float64),
            np.asarray([r.count for r in regions], dtype=np.float64),
            [r.parent.order for r in regions],
            [r.records[0][0].order for r in regions])
    return cached


def _best_of(segment: tuple[np.ndarray, np.ndarray], p1: np.ndarray, n: int) -> np.ndarray:
    """Per candidate, the highest p1 among its related candidates (0 when it has none; p1 is never negative)."""
    out = np.zeros(n)
    owner, other = segment
    np.fmax.at(out, owner, p1[other])  # fmax: a NaN rating (a damaged model) does not hide the others
    return out


def _nearness(layout: _Layout, top: int) -> np.ndarray:
    """Tree distance to the top candidate's parent, as 1 / (1 + steps up to a common ancestor and down)."""
    near = layout.near.get(top)
    if near is None:
        top_chain = {order: d for d, order in enumerate(layout.chains[top])}
        near = np.zeros(len(layout.chains))
        for i, chain in enumerate(layout.chains):
            for up, order in enumerate(chain):
                if order in top_chain:
                    near[i] = 1.0 / (1.0 + up + top_chain[order])
                    break
        layout.near[top] = near
    return near


def context_features(pc: PageCandidates, p1: np.ndarray, base: np.ndarray) -> np.ndarray:
    """`base` is the candidates' first-stage feature matrix (read for the chrome column of the top region)."""
    n = len(pc.candidates)
    if n == 0:
        return np.zeros((0, len(CONTEXT_NAMES)))
    layout = _layout(pc)
    p1 = np.asarray(p1, dtype=np.float64)
    firsts = layout.firsts
    order = sorted(range(n), key=lambda i: (-float(p1[i]), firsts[i], i))
    rank = np.empty(n)
    rank[order] = np.arange(n)
    top = order[0]
    best = float(p1[top]) or 1e-9
    second = float(p1[order[1]]) / best if n > 1 else 0.0
    likely = float((p1 >= 0.5).sum())
    outer = _best_of(layout.segments["outer"], p1, n)

    def column(name: str) -> np.ndarray:
        return base[:, FEATURE_NAMES.index(name)]

    def minus_top(name: str) -> np.ndarray:
        values = column(name)
        return values - values[top]

    out = np.empty((n, len(CONTEXT_NAMES)))
    out[:, 0] = p1
    out[:, 1] = p1 / best
    out[:, 2] = np.asarray([math.log1p(r) for r in rank.tolist()])  # as the models were trained (numpy's may differ)
    out[:, 3] = _best_of(layout.segments["inner"], p1, n)
    out[:, 4] = outer
    out[:, 5] = np.fmax(0.0, pc.same.best(p1))  # as `_best_of`: 0 when none (or only NaN ratings)
    out[:, 6] = math.log1p(likely)
    out[:, 7] = _nearness(layout, top)
    out[:, 8] = layout.masses / (layout.masses[top] or 1)
    out[:, 9] = layout.counts / layout.counts[top]
    out[:, 10] = np.arange(n) == top
    out[:, 11] = column("chrome_tag")[top]
    out[:, 12] = p1 - outer
    out[:, 13] = minus_top("log_fields")
    out[:, 14] = minus_top("log_chars_per_record")
    out[:, 15] = minus_top("link_share")
    out[:, 16] = minus_top("log_parent_depth")
    out[:, 17] = np.asarray(layout.parents) == layout.parents[top]
    out[:, 18] = second
    return out
