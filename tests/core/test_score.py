"""NEXT-EVAL's metric: the README's worked example, the reference's figures on its recorded Gemini answers,
ground truth against itself, and the blind spots reported as warnings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.score import (
    DatasetScore,
    jaccard,
    match_costs,
    score_expanded,
    score_page,
    score_raw,
)
from tests.conftest import dev_page_numbers


def test_reference_readme_example_scores_one_third() -> None:
    prefix = "/body/section[1]/div"
    predicted = [[f"{prefix}[{k}]/span[1]", f"{prefix}[{k}]/span[2]", f"{prefix}[{k}]/a[1]"] for k in (4, 2, 3)]
    true = [
        [f"{prefix}[3]/span[1]", f"{prefix}[3]/a[1]", f"{prefix}[3]/button[1]"],
        [f"{prefix}[2]/span[1]", f"{prefix}[2]/a[1]", f"{prefix}[2]/span[3]"],
        [f"{prefix}[5]/span[1]", f"{prefix}[5]/span[2]", f"{prefix}[5]/a[1]"],
    ]
    score = score_raw(predicted, true)
    assert score.total_overlap == pytest.approx(1.0)
    assert len(score.matches) == 3
    assert score.precision == score.recall == score.f1 == pytest.approx(1 / 3)


def test_edge_cases_of_empty_lists_and_sets() -> None:
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert score_expanded([], []).f1 == 1.0
    assert score_expanded([frozenset({"a"})], []).f1 == 0.0
    assert score_expanded([], [frozenset({"a"})]).f1 == 0.0
    # Rectangular: two predictions, one truth; only min(M, N) pairs.
    score = score_expanded([frozenset({"a"}), frozenset({"b"})], [frozenset({"b"})])
    assert (score.precision, score.recall) == (0.5, 1.0)
    assert score.f1 == pytest.approx(2 / 3)


def test_mean_is_of_per_page_f1_and_hallucination_is_per_page() -> None:
    pages = [
        score_expanded([frozenset({"a"})], [frozenset({"a"})], "1"),
        score_expanded([frozenset({"a"}), frozenset()], [frozenset({"b"})], "2"),
    ]
    scores = DatasetScore(pages)
    assert scores.f1 == pytest.approx((1.0 + 0.0) / 2)
    assert scores.hallucination_rate == 0.5
    assert scores.hallucinated_record_share == pytest.approx(1 / 3)


def test_empty_prediction_matching_a_stale_true_record_is_flagged_with_the_page() -> None:
    page = parse_html("<ul><li>a</li><li>b</li></ul>")
    keys = TextKeyIndex(page.text_map)
    true = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[9]"]]  # the second resolves to nothing
    predicted = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ol[1]"]]    # so does this one
    score = score_page(predicted, true, keys, "stale-page")
    assert score.f1 == 1.0
    assert score.hallucinated_records == 1
    assert any("stale-page" in w and "expanding to nothing" in w for w in score.warnings)


def test_match_all_paths_are_reported() -> None:
    keys = TextKeyIndex(parse_html("<p>a</p><p>b</p>").text_map)
    score = score_page([["/"]], [["/body[1]/p[1]"], ["/body[1]/p[2]"]], keys, "7")
    # "/" covers both entries: Jaccard 1/2 with the one true record it is matched to.
    assert (score.precision, score.recall) == (pytest.approx(0.5), pytest.approx(0.25))
    assert any("'/'" in w for w in score.warnings)


def _load_sample_scores(samples_dir: Path, dev_dir: Path, fmt: str) -> DatasetScore:
    index = json.loads((samples_dir / "index.json").read_text())
    pages = []
    for sample, number in index.items():
        page = parse_html((dev_dir / "html" / f"{number}.html").read_text(encoding="utf-8"))
        predicted = json.loads((samples_dir / "llm" / f"{sample}_{fmt}_content.json").read_text())
        true = json.loads((dev_dir / "gt" / f"{number}.json").read_text())
        pages.append(score_page(predicted, true, TextKeyIndex(page.text_map), sample))
    return DatasetScore(pages)


@pytest.mark.parametrize(("fmt", "f1", "hallucination_rate"), [
    ("flat", 0.8672, 0.00), ("hier", 0.6584, 0.40), ("slim", 0.2307, 0.80),
])
def test_recorded_gemini_answers_reproduce_the_reference_figures(samples_dir: Path, dev_dir: Path, fmt: str,
                                                                  f1: float, hallucination_rate: float) -> None:
    scores = _load_sample_scores(samples_dir, dev_dir, fmt)
    assert len(scores.pages) == 20
    assert scores.f1 == pytest.approx(f1, abs=0.0005)
    assert scores.hallucination_rate == pytest.approx(hallucination_rate, abs=1e-9)


@pytest.mark.parametrize("number", dev_page_numbers())
def test_ground_truth_against_itself_is_perfect(dev_dir: Path, number: int) -> None:
    page = parse_html((dev_dir / "html" / f"{number}.html").read_text(encoding="utf-8"))
    true = json.loads((dev_dir / "gt" / f"{number}.json").read_text())
    assert score_page(true, true, TextKeyIndex(page.text_map), str(number)).f1 == 1.0


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.lists(st.frozensets(st.sampled_from("abcdefgh"), max_size=5), max_size=8),
       st.lists(st.frozensets(st.sampled_from("abcdefgh"), max_size=5), max_size=8))
def test_the_costs_worked_out_through_shared_keys_are_those_of_every_pair(predicted, true):
    # Only pairs sharing a key are worked out: the matrix must still be the pairwise one, bit for bit (the
    # reference's scores depend on it), empty records included (two empty records: a jaccard of 1).
    expected = np.array([[1.0 - jaccard(p, t) for t in true] for p in predicted]).reshape(len(predicted), len(true))
    assert np.array_equal(match_costs(predicted, true), expected)
