"""How well each candidate region matches a page's labelled records: the training target and the oracle.

Contract. `region_targets(candidates, truth)` gives, per candidate, the mean over its records of the best
Jaccard overlap (on expanded text keys, NEXT-EVAL's expansion) with any true record: 1 when every record is a
true record, near 0 for a region of fields inside true records or of records the labels never hold.
`matched_targets` gives the same mean under the one-to-one matching NEXT-EVAL's score makes: two records that
are the two halves of one true record count 0.5 each in the first, 0.5 and 0 in the second.
`oracle_selection(...)` greedily builds the non-overlapping set of candidates that maximises the page's F1
by NEXT-EVAL's scoring (a lower bound of the best set, the "best-candidate oracle").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..records.model import TextKeyIndex
from ..records.score import optimal_matching, score_expanded
from .candidates import Claims, PageCandidates


def expanded_records(pc: PageCandidates, keys: TextKeyIndex) -> list[list[frozenset[str]]]:
    """Every candidate's records expanded to text keys (element by element, cached: regions share elements)."""
    cache: dict[int, frozenset[str]] = {}
    out: list[list[frozenset[str]]] = []
    for candidate in pc.candidates:
        records = []
        for record in candidate.region.records:
            found: set[str] = set()
            for element in record:
                got = cache.get(element.order)
                if got is None:
                    got = cache[element.order] = frozenset(keys.under(element.xpath))
                found |= got
            records.append(frozenset(found))
        out.append(records)
    return out


def _overlaps(records: Sequence[frozenset[str]], truth: Sequence[frozenset[str]]) -> list[dict[int, float]]:
    """Per record, its Jaccard with every true record it shares a key with, through an inverted index."""
    owners: dict[str, list[int]] = {}
    for j, t in enumerate(truth):
        for key in t:
            owners.setdefault(key, []).append(j)
    out: list[dict[int, float]] = []
    for record in records:
        shared: dict[int, int] = {}
        for key in record:
            for j in owners.get(key, ()):
                shared[j] = shared.get(j, 0) + 1
        out.append({j: n / (len(record) + len(truth[j]) - n) for j, n in shared.items()})
    return out


def best_overlaps(records: Sequence[frozenset[str]], truth: Sequence[frozenset[str]]) -> list[float]:
    """Per record, the best Jaccard with any true record."""
    return [max(found.values(), default=0.0) for found in _overlaps(records, truth)]


def region_targets(expanded: Sequence[Sequence[frozenset[str]]], truth: Sequence[frozenset[str]]) -> list[float]:
    return [sum(b) / len(b) if b else 0.0 for b in (best_overlaps(r, truth) for r in expanded)]


def matched_overlap(records: Sequence[frozenset[str]], truth: Sequence[frozenset[str]]) -> float:
    """The summed overlap of the one-to-one matching of these records with the true ones that maximises it
    (the score's matching), over only the true records that share a key with one of them: the same sum as
    `score_expanded`'s, without its dense record-by-record Jaccard matrix, which a region of hundreds of records
    against hundreds of true ones would make for each of a page's candidates."""
    found = _overlaps(records, truth)
    columns = {j: c for c, j in enumerate(sorted({j for f in found for j in f}))}
    if not columns:
        return 0.0
    overlap = np.zeros((len(records), len(columns)))
    for i, f in enumerate(found):
        for j, value in f.items():
            overlap[i, columns[j]] = value
    rows, cols = optimal_matching(overlap, maximize=True)  # SciPy loaded then, a Ctrl+C while it loads kept
    return float(overlap[rows, cols].sum())


def matched_targets(expanded: Sequence[Sequence[frozenset[str]]], truth: Sequence[frozenset[str]]) -> list[float]:
    return [matched_overlap(r, truth) / len(r) if r else 0.0 for r in expanded]


def oracle_selection(pc: PageCandidates, expanded: Sequence[Sequence[frozenset[str]]],
                     truth: Sequence[frozenset[str]], targets: Sequence[float]) -> list[int]:
    """Indices of a non-overlapping candidate set chosen greedily for the largest gain in page F1."""
    pool = [i for i, t in enumerate(targets) if t > 0.2]
    chosen: list[int] = []
    claims = Claims()
    current = score_expanded([], truth).f1
    while True:
        best_gain, best_i = 1e-9, -1
        records = [r for i in chosen for r in expanded[i]]
        for i in pool:
            if claims.overlaps(pc.candidates[i].region):
                continue
            f1 = score_expanded(records + list(expanded[i]), truth).f1
            if f1 - current > best_gain:
                best_gain, best_i = f1 - current, i
        if best_i < 0:
            return chosen
        chosen.append(best_i)
        claims.take(pc.candidates[best_i].region)
        current += best_gain
        pool.remove(best_i)
