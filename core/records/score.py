"""NEXT-EVAL's structure-aware metric: Jaccard overlap, optimal one-to-one matching, P/R/F1, hallucination.

Per page: predicted and true records are expanded against the same text map, every pair gets a Jaccard
overlap (two empty sets: 1), `linear_sum_assignment` picks the matching that maximises the summed overlap,
precision = sum / #predicted, recall = sum / #true. A dataset's figures are the means of the per-page
figures. The reference's blind spots are kept (so figures stay comparable) and reported as warnings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..lazy_import import load
from .model import TextKeyIndex, matches_everything


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    union = len(a | b)
    return 1.0 if union == 0 else len(a & b) / union


@dataclass(frozen=True)
class Match:
    predicted: int
    true: int
    overlap: float


@dataclass(frozen=True)
class PageFigures:
    """A page's figures, as scored now (PageScore) or as a project stored them (store.StoredScore)."""

    page: str
    precision: float
    recall: float
    f1: float
    predicted_records: int
    true_records: int


def _figures(score: PageFigures | DatasetScore) -> dict[str, float]:
    """Precision, recall and F1 by name, as the JSON of a page's or a dataset's score writes them."""
    return {"precision": score.precision, "recall": score.recall, "f1": score.f1}


@dataclass(frozen=True)
class PageScore(PageFigures):
    matches: list[Match]
    hallucinated_records: int
    empty_true_records: int
    warnings: list[str] = field(default_factory=list)

    @property
    def hallucinated(self) -> bool:
        return self.hallucinated_records > 0

    @property
    def total_overlap(self) -> float:
        return sum(m.overlap for m in self.matches)

    def as_dict(self) -> dict[str, object]:
        return {
            "page": self.page,
            **_figures(self),
            "hallucinated": self.hallucinated,  # the page counts in the paper's rate
            "records": self.predicted_records,
            "true_records": self.true_records,
            "empty_records": self.hallucinated_records,
            "empty_true_records": self.empty_true_records,
            "warnings": list(self.warnings),
        }


def match_costs(predicted: Sequence[frozenset[str]], true: Sequence[frozenset[str]]) -> np.ndarray:
    """1 - jaccard for every pair of a predicted and a true record, the same bits as pair by pair. Only the pairs
    that share a text key are worked out (through an index of the true records by key): on a page of 700 records
    nearly every pair shares none, and comparing them all took most of a second."""
    cost = np.ones((len(predicted), len(true)), dtype=np.float64)
    holders: dict[str, list[int]] = {}
    for j, t in enumerate(true):
        for key in t:
            holders.setdefault(key, []).append(j)
    empty_true = [j for j, t in enumerate(true) if not t]
    for i, p in enumerate(predicted):
        if not p:
            cost[i, empty_true] = 0.0  # two empty records: a jaccard of 1, as the reference counts it
            continue
        shared: dict[int, int] = {}
        for key in p:
            for j in holders.get(key, ()):
                shared[j] = shared.get(j, 0) + 1
        for j, common in shared.items():
            cost[i, j] = 1.0 - common / (len(p) + len(true[j]) - common)
    return cost


def optimal_matching(cost: np.ndarray, *, maximize: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of the one-to-one matching that minimises (or, `maximize`, maximises) the summed
    `cost`: SciPy's `linear_sum_assignment`. SciPy is loaded here, the first time a page is matched: scipy.optimize
    costs about 0.5 s to import, which every start of the app would pay; a Ctrl+C met while it loads stays a
    Ctrl+C (`lazy_import.load`)."""
    return load("scipy.optimize").linear_sum_assignment(cost, maximize=maximize)


def identical_matching(predicted: Sequence[frozenset[str]], true: Sequence[frozenset[str]]) -> list[Match] | None:
    """The optimal matching without the cost matrix, when records alike pair off one side wholly (a run that
    proposes the true records, each as often as they are listed or less; the labels' ceiling); else None.

    Why it is the matrix's result: an overlap is at most 1, so a matching of min(m, n) pairs each of overlap 1 is
    optimal, and every optimal matching is then made of such pairs (a cost above 0 would raise the summed cost above
    the 0 this one reaches). Its overlaps are all 1.0, so their sum, P, R and F1 have the same bits whichever pairs
    of alike records it holds; here the k-th copy of a text is paired with its k-th copy on the other side. The
    matrix of 10,000 copies of one record scored against itself held 0.8 GB."""
    copies: dict[frozenset[str], list[int]] = {}
    for j, record in enumerate(true):
        copies.setdefault(record, []).append(j)
    taken: dict[frozenset[str], int] = {}
    matches = []
    for i, record in enumerate(predicted):
        k = taken.get(record, 0)
        alike = copies.get(record, ())
        if k < len(alike):
            taken[record] = k + 1
            matches.append(Match(i, alike[k], 1.0))
    return matches if len(matches) == min(len(predicted), len(true)) else None


def score_expanded(predicted: Sequence[frozenset[str]], true: Sequence[frozenset[str]],
                   page: str = "") -> PageScore:
    """Score records already expanded to text keys (calculateEvaluationMetrics)."""
    m, n = len(predicted), len(true)
    hallucinated = sum(1 for r in predicted if not r)
    empty_true = sum(1 for r in true if not r)
    if m == 0 or n == 0:
        value = 1.0 if m == n else 0.0
        return PageScore(page, value, value, value, m, n, [], hallucinated, empty_true)
    matches = identical_matching(predicted, true)
    if matches is None:
        cost = match_costs(predicted, true)
        rows, cols = optimal_matching(cost)
        # The reference recovers each overlap as 1 - cost and sums in row order: same bits here.
        matches = [Match(int(i), int(j), 1.0 - float(cost[i, j])) for i, j in zip(rows, cols, strict=True)]
    total = 0.0
    for match in matches:
        total += match.overlap
    precision, recall = total / m, total / n
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    score = PageScore(page, precision, recall, f1, m, n, matches, hallucinated, empty_true)
    empty_pairs = [x for x in matches if not predicted[x.predicted] and not true[x.true]]
    if empty_pairs:
        score.warnings.append(
            f"page {page}: {len(empty_pairs)} predicted record(s) that expand to nothing matched true "
            "record(s) expanding to nothing, for an overlap of 1 each (scored as perfect by the reference)"
        )
    return score


def score_page(predicted: Sequence[Sequence[str]], true: Sequence[Sequence[str]], keys: TextKeyIndex,
               page: str = "") -> PageScore:
    """Expand both record lists against one page's text keys, then score them."""
    score = score_expanded(keys.expand_all(predicted), keys.expand_all(true), page)
    for label, records in (("predicted", predicted), ("true", true)):
        _say_wide_records(score, label, records)
    return score


def score_without_prediction(true: Sequence[Sequence[str]], naming_nothing: int, page: str = "") -> PageScore:
    """`score_page` of no predicted record, the page unread: with nothing to match, the figures are the truth's
    alone (every true record missed: 0; a page labelled as holding no record: 1, as the reference scores two empty
    lists), and all they need of the page is how many true records expand to no text there (`naming_nothing`, the
    `empty_true_records` a label check of the page tells without parsing it again)."""
    value = 0.0 if true else 1.0
    score = PageScore(page, value, value, value, 0, len(true), [], 0, naming_nothing)
    _say_wide_records(score, "true", true)
    return score


def _say_wide_records(score: PageScore, label: str, records: Sequence[Sequence[str]]) -> None:
    """Warn of the records that hold an XPath the reference expands to the whole page (a blind spot kept)."""
    wide = sum(1 for r in records if any(matches_everything(x) for x in r))
    if wide:
        score.warnings.append(
            f"page {score.page}: {wide} {label} record(s) hold '', '/' or '/html', which the reference expands "
            "to every text entry of the page")


def score_raw(predicted: Sequence[Sequence[str]], true: Sequence[Sequence[str]]) -> PageScore:
    """Score records as plain XPath sets, without expansion (the reference README's worked example)."""
    return score_expanded([frozenset(r) for r in predicted], [frozenset(r) for r in true])


@dataclass
class DatasetScore:
    pages: list[PageScore]
    # Pages whose predictions file could not be read (name -> why), scored as empty predictions: kept here so
    # that `score` can name them apart from the pages the run failed on.
    unreadable: dict[str, str] = field(default_factory=dict)
    # Every page scored as an empty prediction for want of a usable one (name -> why: failed, never extracted,
    # left out, its file unreadable), as the run's folder said when it was scored.
    without_prediction: dict[str, str] = field(default_factory=dict)
    # Pages with ground truth that could not be scored at all (name -> why): their saved page or their labels cannot
    # be read. Not in `pages`: the figures are over the others, which `score` says ("over N of M pages").
    not_read: dict[str, str] = field(default_factory=dict)

    def _mean(self, values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0

    @property
    def precision(self) -> float:
        return self._mean([p.precision for p in self.pages])

    @property
    def recall(self) -> float:
        return self._mean([p.recall for p in self.pages])

    @property
    def f1(self) -> float:
        """The mean of per-page F1 (not the F1 of mean P and R), as the paper reports."""
        return self._mean([p.f1 for p in self.pages])

    @property
    def hallucination_rate(self) -> float:
        """The paper's rate: the share of pages with at least one record that expands to nothing."""
        return self._mean([1.0 if p.hallucinated else 0.0 for p in self.pages])

    @property
    def hallucinated_record_share(self) -> float:
        total = sum(p.predicted_records for p in self.pages)
        return sum(p.hallucinated_records for p in self.pages) / total if total else 0.0

    def hallucination_words(self) -> str:
        """The hallucination figures in words, as `recordlens score` and the app's review say them."""
        return (f"hallucination rate (pages) {self.hallucination_rate:.4f}; "
                f"hallucinated records {self.hallucinated_record_share:.4f}")

    @property
    def warnings(self) -> list[str]:
        return [w for p in self.pages for w in p.warnings]

    def mean_dict(self) -> dict[str, float]:
        return {
            **_figures(self),
            "hallucination_rate": self.hallucination_rate,
            "hallucinated_record_share": self.hallucinated_record_share,
        }

    def as_dict(self) -> dict[str, object]:
        return {"mean": self.mean_dict(), "pages": [p.as_dict() for p in self.pages]}
