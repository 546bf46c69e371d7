"""Scoring as the reference scores, and said as `extract` says it: the XPath normaliser's index rule is the
reference's JavaScript one (ASCII digits, the end of the step alone); `score`'s in-sample warning counts only the
pages scored with a prediction; `bench` gives the hallucination rate to 4 decimals, as `score` does; a page file
that is a FIFO or a folder is named for what it is; and a dataset's own folder given for its pages or labels is
hinted at as `extract` hints at it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.records.model import normalise_xpath
from tests.conftest import DEV, require_shared
from tests.core.cli_runs import DEMO, run

TUNED = ("46", "111")  # two small dev pages repeats' hand rules were tuned on


def copy_demo(root: Path) -> Path:
    """The demo dataset (html/ and gt/) in `root`."""
    shutil.copytree(DEMO, root)
    return root


@pytest.mark.parametrize(
    ("xpath", "normalised"),
    [
        ("/body[1]/p[\u0663]", "/body[1]/p[\u0663][1]"),  # an Arabic-Indic 3 is no index to JavaScript's \d
        ("/body[1]/div[\uff11]", "/body[1]/div[\uff11][1]"),  # nor a full-width 1
        ("/body[1]/div[1]\n", "/body[1]/div[1]\n[1]"),  # JavaScript's $ does not match before a final newline
        ("/body[1]/div[12]", "/body[1]/div[12]"),
        ("/html/body/div", "/body[1]/div[1]"),
    ],
)
def test_the_index_rule_is_the_reference_s_javascript_one(xpath: str, normalised: str) -> None:
    assert normalise_xpath(xpath) == normalised


def test_a_step_named_with_a_non_ascii_digit_matches_only_itself(tmp_path: Path, capsys) -> None:
    root = tmp_path / "ds"
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    (root / "pred").mkdir()
    (root / "html" / "1.html").write_text("<html><body><p[\u0663]>one</p[\u0663]><p[\u0663]x>two</p[\u0663]x>"
                                          "</body></html>", encoding="utf-8")
    (root / "gt" / "1.json").write_text(json.dumps([["/body[1]/p[\u0663][1]"]]), encoding="utf-8")
    (root / "pred" / "1.json").write_text(json.dumps([["/body[1]/p[\u0663]"]]), encoding="utf-8")
    code, out, _ = run(capsys, "score", "--pred", str(root / "pred"), "--gt", str(root / "gt"), "--pages",
                       str(root / "html"), "--json", "-q")
    assert code == 0
    assert json.loads(out)["mean"]["f1"] == 1.0  # the prediction names p[٣][1] alone, not p[٣]x[1] too


def test_an_unreadable_prediction_file_is_no_page_scored_with_a_prediction(tmp_path: Path, capsys) -> None:
    dev = require_shared(DEV)
    for part in ("html", "gt"):
        (tmp_path / part).mkdir()
    for name in TUNED:
        shutil.copy(dev / "html" / f"{name}.html", tmp_path / "html")
        shutil.copy(dev / "gt" / f"{name}.json", tmp_path / "gt")
    pages, gt, pred = tmp_path / "html", tmp_path / "gt", tmp_path / "run"
    assert run(capsys, "extract", "--method", "repeats", "--pages", str(pages), "--out", str(pred), "-q")[0] == 0
    (pred / "111.json").write_text('[["/body[1]"', encoding="utf-8")  # cut short: it cannot be read
    code, out, err = run(capsys, "score", "--pred", str(pred), "--gt", str(gt), "--pages", str(pages), "--json",
                         "-q")
    assert code == 1  # scored, but a prediction file could not be read
    assert json.loads(out)["in_sample_pages"] == ["46"]
    assert "scored with a prediction (46)" in " ".join(err.split())


def test_bench_gives_the_hallucination_rate_to_4_decimals(capsys) -> None:
    bench = ("bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "mdr", "--no-chart",
             "-q")
    code, out, _ = run(capsys, *bench, "--json")
    assert code == 0
    rate = json.loads(out)["table2"][0]["hallucination_rate"]
    code, out, _ = run(capsys, *bench)
    row = next(line for line in out.splitlines() if line.startswith("mdr "))
    assert row.split()[5] == f"{rate:.4f}"


def test_score_names_a_page_file_that_is_a_fifo_or_a_folder(tmp_path: Path, capsys) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    root = copy_demo(tmp_path / "ds")
    (root / "html" / "2.html").unlink()
    os.mkfifo(root / "html" / "2.html")
    (root / "html" / "3.html").unlink()
    (root / "html" / "3.mhtml").mkdir()
    code, out, err = run(capsys, "score", "--pred", str(root / "gt"), "--gt", str(root / "gt"), "--pages",
                         str(root / "html"), "-q")
    assert code == 1  # pages 1 and 4 scored; 2 and 3 left out, each named (README: one rule for what cannot be read)
    message = " ".join(out.split())
    assert f"{root / 'html' / '2.html'}: a FIFO (named pipe), not a regular file" in message
    assert f"{root / 'html' / '3.mhtml'}: a folder, not a page file" in message
    assert "no page 2.html" not in message and "no page 3.html" not in message
    assert "no page 4.html" not in message  # the pages that are there are not named


def test_score_hints_at_a_dataset_s_folders_as_extract_does(tmp_path: Path, capsys) -> None:
    root = copy_demo(tmp_path / "ds")
    code, _, err = run(capsys, "score", "--pred", str(root / "gt"), "--gt", str(root / "gt"), "--pages", str(root),
                       "-q")
    assert code == 2
    assert f"(a dataset? its pages are in {root / 'html'})" in err
    assert err.count("no page") == 1  # one message for the folder, not one for each page
    code, _, err = run(capsys, "score", "--pred", str(root / "gt"), "--gt", str(root), "--pages",
                       str(root / "html"), "-q")
    assert code == 2
    assert f"(a dataset? its labels are in {root / 'gt'})" in err
    _, _, extracted = run(capsys, "extract", "--method", "mdr", "--pages", str(root), "--out", str(tmp_path / "r"),
                          "-q")
    assert f"(a dataset? its pages are in {root / 'html'})" in extracted


def test_score_of_a_run_with_seeds_gives_the_hallucination_rate_to_4_decimals(tmp_path: Path, capsys) -> None:
    root = copy_demo(tmp_path / "ds")
    for seed in (0, 1):
        shutil.copytree(root / "gt", tmp_path / "run" / f"seed-{seed}")
    # on seed 1, page 1 predicts a record that names nothing: 1 page of 4 hallucinates, 0.25 as 0.2500
    (tmp_path / "run" / "seed-1" / "1.json").write_text(json.dumps([["/body[1]/nav[9]"]]), encoding="utf-8")
    code, out, _ = run(capsys, "score", "--pred", str(tmp_path / "run"), "--gt", str(root / "gt"), "--pages",
                       str(root / "html"), "-q")
    assert code == 0
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert rows["0"][4] == "0.0000" and rows["1"][4] == "0.2500" and rows["mean"][4] == "0.1250"
