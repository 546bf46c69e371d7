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

import numpy as np

from .candidates import PageCandidates, _ancestors

CONTEXT_NAMES: tuple[str, ...] = (
    "p1", "p1_rel", "p1_rank_log", "p1_inner_best", "p1_outer_best", "p1_same_best", "p1_likely_log",
    "near_top", "mass_rel_top", "count_rel_top", "is_top", "top_chrome_tag", "p1_gap_outer",
    "fields_rel_top", "chars_rel_top", "link_share_minus_top", "depth_minus_top", "same_parent_as_top",
    "p1_second_best_rel",
)


def context_features(pc: PageCandidates, p1: np.ndarray, base: np.ndarray) -> np.ndarray:
    """`base` is the candidates' first-stage feature matrix (read for the chrome column of the top region)."""
    n = len(pc.candidates)
    if n == 0:
        return np.zeros((0, len(CONTEXT_NAMES)))
    regions = [c.region for c in pc.candidates]
    order = sorted(range(n), key=lambda i: (-float(p1[i]), regions[i].records[0][0].order, i))
    rank = np.empty(n)
    rank[order] = np.arange(n)
    top = order[0]
    best = float(p1[top]) or 1e-9
    top_chain = {a.order: d for d, a in enumerate(_ancestors(regions[top].parent))}
    top_mass = sum(regions[top].sizes) or 1
    from .candidates import FEATURE_NAMES

    chrome_col = FEATURE_NAMES.index("chrome_tag")
    fields_col, chars_col = FEATURE_NAMES.index("log_fields"), FEATURE_NAMES.index("log_chars_per_record")
    link_col, depth_col = FEATURE_NAMES.index("link_share"), FEATURE_NAMES.index("log_parent_depth")
    second = float(p1[order[1]]) / best if n > 1 else 0.0
    likely = float((p1 >= 0.5).sum())
    out = np.zeros((n, len(CONTEXT_NAMES)))
    for i, region in enumerate(regions):
        inner = max((float(p1[j]) for j in pc.inner[i]), default=0.0)
        outer = max((float(p1[j]) for j in pc.outer[i]), default=0.0)
        same = max((float(p1[j]) for j in pc.same[i]), default=0.0)
        # Tree distance to the top candidate's parent: steps up from this parent to a common ancestor.
        near = 0.0
        for up, a in enumerate(_ancestors(region.parent)):
            if a.order in top_chain:
                near = 1.0 / (1.0 + up + top_chain[a.order])
                break
        out[i] = (
            p1[i], p1[i] / best, math.log1p(rank[i]), inner, outer, same, math.log1p(likely),
            near, sum(region.sizes) / top_mass, region.count / regions[top].count, float(i == top),
            base[top, chrome_col], p1[i] - outer,
            base[i, fields_col] - base[top, fields_col], base[i, chars_col] - base[top, chars_col],
            base[i, link_col] - base[top, link_col], base[i, depth_col] - base[top, depth_col],
            float(region.parent is regions[top].parent), second,
        )
    return out
