"""Review classes come from the score's own matching."""

from __future__ import annotations

from dataclasses import dataclass

from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.review import MATCHED, MISSED, PARTIAL, SPURIOUS, review_page, worst_pages

KEYS = TextKeyIndex(["/body[1]/li[1]", "/body[1]/li[2]", "/body[1]/li[3]", "/body[1]/li[4]", "/body[1]/p[1]"])


def test_matched_missed_and_spurious_follow_the_optimal_matching() -> None:
    true = [["/body[1]/li[1]"], ["/body[1]/li[2]"], ["/body[1]/li[3]", "/body[1]/li[4]"]]
    predicted = [["/body[1]/p[1]"], ["/body[1]/li[3]"], ["/body[1]/li[1]"]]
    review = review_page(predicted, true, KEYS, "7")
    assert [(r.kind, r.predicted, r.true) for r in review.records] == [
        (MATCHED, 2, 0), (MATCHED, 1, 2), (MISSED, None, 1), (SPURIOUS, 0, None)]
    assert review.records[1].overlap == 0.5
    assert review.records[1].xpaths == ("/body[1]/li[3]",)
    assert review.records[2].xpaths == ("/body[1]/li[2]",)
    assert (review.count(MATCHED), review.count(MISSED), review.count(SPURIOUS)) == (2, 1, 1)
    assert review.score.precision == (1 + 0.5) / 3 and review.score.page == "7"


def test_a_pair_below_half_overlap_is_partial_and_the_summary_agrees_with_recall() -> None:
    keys = TextKeyIndex([f"/body[1]/div[{k}]/p[{j}]" for k in range(1, 49) for j in range(1, 21)])
    # 48 true records of 20 texts each; the run predicts one text of each: overlap 0.05 per pair.
    true = [[f"/body[1]/div[{k}]"] for k in range(1, 49)]
    predicted = [[f"/body[1]/div[{k}]/p[1]"] for k in range(1, 49)]
    review = review_page(predicted, true, keys)
    assert review.count(PARTIAL) == 48 and review.count(MATCHED) == 0
    assert review.records[0].true_xpaths == ("/body[1]/div[1]",)
    assert abs(review.score.recall - 0.05) < 1e-9
    assert review.summary().startswith("0 matched · 48 partial · 0 missed · 0 spurious\noverlap 2.40 of 48")
    # The threshold is a parameter: at 0.05 the same pairs count as matched.
    assert review_page(predicted, true, keys, threshold=0.05).count(MATCHED) == 48


def test_a_pair_with_no_overlap_is_a_miss_and_a_spurious_record() -> None:
    review = review_page([["/body[1]/p[1]"]], [["/body[1]/li[1]"]], KEYS)
    assert [r.kind for r in review.records] == [MISSED, SPURIOUS]
    assert review_page([], [], KEYS).records == ()
    assert [r.kind for r in review_page([], [["/body[1]/li[1]"]], KEYS).records] == [MISSED]


def test_worst_pages_come_first_and_ties_keep_their_order() -> None:
    @dataclass
    class S:
        page: str
        f1: float

    scores = [S("1", 0.9), S("2", 0.1), S("3", 0.5), S("4", 0.1)]
    assert worst_pages(scores) == [("2", 0.1), ("4", 0.1), ("3", 0.5), ("1", 0.9)]
    assert worst_pages(scores, 2) == [("2", 0.1), ("4", 0.1)]
