"""Review: a run's records on one page against the labels, each classed matched, partial, missed or spurious.

The classes come from NEXT-EVAL's own matching (`score_page`), so what the reviewer sees is what the score
counted. The optimal one-to-one matching pairs predicted and true records; a pair is

- **matched** when its overlap (Jaccard on text keys) is at least `MATCH_THRESHOLD` (0.5 by default),
- **partial** when it overlaps below that: it adds its overlap to P and R, but less than half of a record;

a true record left unpaired (or paired at overlap 0) is **missed**, a predicted record left so **spurious**.
`PageReview.summary()` states the counts with the summed overlap that P and R divide, so the words and the
figures cannot disagree (48 pairs at overlap 0.05 are 48 partial, and recall 0.05 says why).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .model import TextKeyIndex
from .score import Match, PageScore, jaccard, score_page

MATCHED, PARTIAL, MISSED, SPURIOUS = "matched", "partial", "missed", "spurious"
KINDS = (MATCHED, PARTIAL, MISSED, SPURIOUS)
MATCH_THRESHOLD = 0.5


@dataclass(frozen=True)
class ReviewRecord:
    kind: str                        # matched, partial, missed or spurious
    xpaths: tuple[str, ...]          # the predicted record's (matched, partial, spurious) or the true one's (missed)
    predicted: int | None            # index in the run's records of the page
    true: int | None                 # index in the page's true records
    overlap: float                   # Jaccard of the pair on text keys; 0 when unpaired
    true_xpaths: tuple[str, ...] = ()  # the paired true record's XPaths (matched, partial; missed: = xpaths)


@dataclass(frozen=True)
class PageReview:
    score: PageScore
    records: tuple[ReviewRecord, ...]
    threshold: float = MATCH_THRESHOLD

    def count(self, kind: str) -> int:
        return sum(1 for r in self.records if r.kind == kind)

    def counts(self) -> dict[str, int]:
        return {kind: self.count(kind) for kind in KINDS}

    def summary(self) -> str:
        """`3 matched · 2 partial · 1 missed · 0 spurious` and the overlap P and R are made of."""
        counts = " · ".join(f"{n} {kind}" for kind, n in self.counts().items())
        s = self.score
        return (f"{counts}\noverlap {s.total_overlap:.2f} of {s.predicted_records} predicted (P) "
                f"and {s.true_records} true (R); matched means overlap ≥ {self.threshold:g}")


def review_page(predicted: Sequence[Sequence[str]], true: Sequence[Sequence[str]], keys: TextKeyIndex,
                page: str = "", threshold: float = MATCH_THRESHOLD) -> PageReview:
    """Score the page and class every record: pairs in true-record order (matched or partial), then missed, then
    spurious."""
    score = score_page(predicted, true, keys, page)
    pairs = sorted((m for m in score.matches if m.overlap > 0), key=lambda m: m.true)
    paired_true = {m.true for m in pairs}
    paired_predicted = {m.predicted for m in pairs}
    records = [_paired(m, predicted, true, exact_overlap(predicted[m.predicted], true[m.true], keys), threshold)
               for m in pairs]
    records += [ReviewRecord(MISSED, tuple(r), None, j, 0.0, tuple(r))
                for j, r in enumerate(true) if j not in paired_true]
    records += [ReviewRecord(SPURIOUS, tuple(r), i, None, 0.0)
                for i, r in enumerate(predicted) if i not in paired_predicted]
    return PageReview(score, tuple(records), threshold)


def _paired(match: Match, predicted: Sequence[Sequence[str]], true: Sequence[Sequence[str]], overlap: float,
            threshold: float) -> ReviewRecord:
    return ReviewRecord(MATCHED if overlap >= threshold else PARTIAL, tuple(predicted[match.predicted]),
                        match.predicted, match.true, overlap, tuple(true[match.true]))


def exact_overlap(predicted: Sequence[str], true: Sequence[str], keys: TextKeyIndex) -> float:
    """A pair's overlap as its fraction of text keys, rounded once (1/5 is 0.2). The score's `Match.overlap` is
    `1 - cost`, rounded twice (1/5 is 0.19999999999999996), which NEXT-EVAL sums and so the score keeps, bit for
    bit; a pair is classed by this one, so that a pair exactly on a threshold (`agreement --threshold 0.2`)
    reaches it. At 0.5 both class every pair alike: `1 - cost` is exact from 0.5 up, and below it stays below."""
    return jaccard(keys.expand(predicted), keys.expand(true))


class _Scored(Protocol):
    page: str
    f1: float


def worst_pages(scores: Iterable[_Scored], limit: int | None = None) -> list[tuple[str, float]]:
    """(page, F1) from the lowest F1 up; ties in the order given, so the list is stable between calls."""
    ranked = sorted(((s.page, s.f1) for s in scores), key=lambda item: item[1])
    return ranked if limit is None else ranked[:limit]
