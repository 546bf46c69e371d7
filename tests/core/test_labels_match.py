"""Training targets: each record's best overlap, or the overlap under the score's one-to-one matching."""

from __future__ import annotations

import pytest

from recordlens.core.extract.labels_match import matched_targets, region_targets
from recordlens.core.records.score import score_expanded


def keys(*names: str) -> frozenset[str]:
    return frozenset(names)


TRUTH = [keys("a", "b"), keys("c", "d"), keys("e")]


def test_two_halves_of_one_true_record_are_worth_one_half_of_it_under_the_matching() -> None:
    halves = [keys("a"), keys("b")]  # each half of the first true record: Jaccard 0.5 with it
    assert region_targets([halves], TRUTH) == [0.5]
    assert matched_targets([halves], TRUTH) == [0.25]  # only one of them can be matched to it


def test_whole_records_and_unmatched_ones_count_the_same_under_both() -> None:
    regions = [[keys("a", "b"), keys("c", "d")], [keys("e"), keys("x")], [keys("x"), keys("y")], []]
    assert region_targets(regions, TRUTH) == matched_targets(regions, TRUTH) == [1.0, 0.5, 0.0, 0.0]


def test_the_matched_target_is_the_precision_the_region_alone_would_score() -> None:
    regions = [[keys("a"), keys("a", "b", "c"), keys("c", "d"), keys("d")], [keys("a", "c", "e")]]
    for records, target in zip(regions, matched_targets(regions, TRUTH), strict=True):
        assert target == pytest.approx(score_expanded(records, TRUTH).precision)
