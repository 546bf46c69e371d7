"""A pair exactly on the agreement's threshold reaches it: its overlap is the fraction of text keys rounded once
(1/5 is 0.2), not `1 - cost` (0.19999999999999996), while the score keeps NEXT-EVAL's `1 - cost`, bit for bit."""

from __future__ import annotations

import json
import random
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.review import MATCH_THRESHOLD, MATCHED, PARTIAL, review_page
from recordlens.core.records.score import score_page
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

TEXTS = [f"/body[1]/div[1]/p[{k}]" for k in range(1, 6)]
KEYS = TextKeyIndex(TEXTS)
PAGE = "<html><body><div>" + "".join(f"<p>text {k}</p>" for k in range(1, 6)) + "</div></body></html>"


def test_a_pair_of_overlap_one_fifth_is_matched_at_threshold_one_fifth() -> None:
    review = review_page([[TEXTS[0]]], [["/body[1]/div[1]"]], KEYS, threshold=0.2)
    assert [(r.kind, r.overlap) for r in review.records] == [(MATCHED, 0.2)]
    assert review_page([[TEXTS[0]]], [["/body[1]/div[1]"]], KEYS, threshold=0.21).records[0].kind == PARTIAL
    # the score is NEXT-EVAL's: its overlap summed as 1 - cost, as the reference sums it
    assert review.score.total_overlap == 1 - (1 - 1 / 5) == score_page([[TEXTS[0]]], [["/body[1]/div[1]"]],
                                                                       KEYS).total_overlap


def test_at_the_default_threshold_every_pair_is_classed_as_one_minus_cost_classed_it() -> None:
    rng = random.Random(41)
    for _ in range(2000):
        union = rng.randint(1, 400)
        common = rng.randint(1, union)
        exact, reference = common / union, 1.0 - (1.0 - common / union)
        assert (exact >= MATCH_THRESHOLD) == (reference >= MATCH_THRESHOLD), (common, union)
        assert exact == reference or exact < MATCH_THRESHOLD  # from 0.5 up, 1 - cost is exact


def test_agreement_lists_no_difference_for_a_pair_on_the_threshold(tmp_path: Path, capsys) -> None:
    for who, record in (("ours", ["/body[1]/div[1]"]), ("theirs", [TEXTS[0]])):
        (tmp_path / who / "html").mkdir(parents=True)
        (tmp_path / who / "gt").mkdir()
        (tmp_path / who / "html" / "1.html").write_text(PAGE, encoding="utf-8")
        (tmp_path / who / "gt" / "1.json").write_text(json.dumps([record]), encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [tmp_path / "ours"])
        import_paths(project, [tmp_path / "theirs"], annotator="bea")
    args = ["agreement", "--project", str(tmp_path / "p"), "--between", "project", "bea", "-q", "--threshold"]
    assert main([*args, "0.2", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)["pages"][0]
    assert page["disagreements"] == [] and [d["overlap"] for d in page["other_xpaths"]] == [0.2]
    assert main([*args, "0.2"]) == 0
    assert "different" not in capsys.readouterr().out
    assert main([*args, "0.25", "--json"]) == 0
    assert [d["overlap"] for d in json.loads(capsys.readouterr().out)["pages"][0]["disagreements"]] == [0.2]
