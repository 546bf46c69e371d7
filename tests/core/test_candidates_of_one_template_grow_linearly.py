"""The candidates of one template (each row of a long table is one: the row's cells) are held as shared blocks,
not as a list of the others per candidate: that list grew with the square of the rows, in time and in memory
(6000 rows: 17 s and 1.3 GB). The counts and bests read from the blocks are the ones the lists gave."""

from __future__ import annotations

import math
import random

import numpy as np

from recordlens.core.extract.candidates import FEATURE_NAMES, PageCandidates, SameTemplate, page_candidates
from recordlens.core.extract.context import CONTEXT_NAMES, context_features
from recordlens.core.page.dom import parse_html
from recordlens.core.records.score import jaccard


def _long_table(rows: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    body = "".join(f'<tr><td>{1000 + i}</td><td><a href="/o/{i}">Name {rng.randint(0, 10**6)}</a></td>'
                   f"<td>City {i % 37}</td><td>${rng.randint(1, 999)}</td></tr>" for i in range(rows))
    return f"<html><body><main><table><tbody>{body}</tbody></table></main></body></html>"


def _kin_by_definition(pc: PageCandidates) -> list[list[int]]:
    """Per candidate, its kin spelt out: the other candidates of three or more records, of the same record tags,
    whose template (tag paths to the texts of their first 20 records) overlaps its own by half or more."""
    regions = [c.region for c in pc.candidates]
    tags = [tuple(e.tag for e in r.records[0]) for r in regions]
    templates = [frozenset(f"{e.tag}{p}" for rec in r.records[:20] for e in rec for p in pc.facts.signature(e))
                 for r in regions]
    return [[j for j, other in enumerate(regions) if j != i and other.count >= 3 and tags[j] == tags[i]
             and jaccard(templates[i], templates[j]) >= 0.5] for i in range(len(regions))]


def test_a_long_table_keeps_its_template_kin_in_room_linear_in_its_rows() -> None:
    pc = page_candidates(parse_html(_long_table(1500)))
    n = len(pc.candidates)
    assert n > 1500
    held = sum(map(len, pc.same.blocks)) + sum(map(len, pc.same.groups))
    assert held <= 2 * n  # the lists per candidate held n * n entries
    # Each row's cells are a candidate with every other row's cells as kin: the feature still counts them all.
    column = FEATURE_NAMES.index("log_same_template")
    assert max(c.features[column] for c in pc.candidates) == math.log1p(1499)


def test_counts_and_bests_are_those_of_the_kin_spelt_out() -> None:
    # Sections of cards of two templates alike enough to be kin (the second has one field more), and links.
    rng = random.Random(7)
    card = '<div class="c"><h3>T{k}</h3><p>{n} items</p></div>'
    other = '<div class="d"><h3>U{k}</h3><p>{n} items</p><b>new</b></div>'
    sections = "".join("<section>" + "".join((card, other)[s % 2].format(k=k, n=rng.randint(1, 99))
                                             for k in range(3 + s % 3)) + "</section>" for s in range(6))
    links = "".join(f'<li><a href="/l{k}">Link {k}</a></li>' for k in range(6))
    pc = page_candidates(parse_html(f"<html><body>{sections}<ul>{links}</ul></body></html>"))
    kin = _kin_by_definition(pc)
    tags_of = [pc.candidates[j].region.records[0][0].attrs.get("class") for k in kin for j in k]
    assert {"c", "d"} <= set(tags_of) and max(map(len, kin)) >= 5  # kin across the two alike templates
    assert pc.same.counts == [len(k) for k in kin]
    column = FEATURE_NAMES.index("same_template_best_rel")
    for candidate, others in zip(pc.candidates, kin, strict=True):
        best = max((pc.candidates[j].region.score for j in others), default=0.0)
        assert candidate.features[column] == best / (candidate.region.score or 1e-9)
    # The second stage's column: the best first-stage rating among the kin, 0 without kin, a NaN rating ignored.
    p1 = np.asarray([rng.random() for _ in pc.candidates])
    p1[0] = np.nan
    base = np.asarray([c.features for c in pc.candidates])
    got = context_features(pc, np.nan_to_num(p1), base)[:, CONTEXT_NAMES.index("p1_same_best")]
    want = [max([0.0] + [float(np.nan_to_num(p1)[j]) for j in others]) for others in kin]
    assert got.tolist() == want
    with_nan = np.fmax(0.0, pc.same.best(p1))
    assert with_nan.tolist() == [max([0.0] + [float(p1[j]) for j in others if j != 0]) for others in kin]


def test_best_leaves_the_candidate_itself_out_even_when_it_ties_or_leads() -> None:
    # Candidates 0-2 form block 0, 3-4 block 1 (kin of each other's key), 5 has no block.
    same = SameTemplate(key=[0, 0, 0, 1, 1, 2], own=[0, 0, 0, 1, 1, -1], groups=[[0, 1], [0, 1], []],
                        blocks=[[0, 1, 2], [3, 4]])
    values = np.asarray([0.9, 0.9, 0.2, 0.5, 0.1, 0.7])
    assert same.counts == [4, 4, 4, 4, 4, 0]
    assert same.best(values).tolist() == [0.9, 0.9, 0.9, 0.9, 0.9, -math.inf]
    values = np.asarray([0.95, 0.3, 0.2, 0.5, 0.99, 0.7])
    assert same.best(values).tolist() == [0.99, 0.99, 0.99, 0.99, 0.95, -math.inf]
