"""`recordlens bench --cv K` (core/runs/cross_validation.py) on nine small dev pages in two datasets, K = 3: every
page is extracted by a model fitted without it, the figures hang together, and the command says what it needs.

The whole 80-page report (`bench/offline_extractor.py`) takes minutes; this takes seconds: every fit here grows few
boosted trees (`few_trees`), as what is fitted on which pages and how the figures are put together is tested, not how
well the selector does."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.extract import training
from recordlens.core.runs.cross_validation import cross_validate_sets
from tests.conftest import DEV, require_shared
from tests.quick_training import few_trees

K, SEED = 3, 0


@pytest.fixture(scope="module", autouse=True)
def fits_of_few_trees() -> Iterator[None]:
    """Every fit of this module with few trees (`few_trees`), the module's report included."""
    with pytest.MonkeyPatch.context() as patch:
        few_trees(patch)
        yield


@pytest.fixture(scope="module")
def datasets(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Path]]:
    """The nine smallest dev pages: five under the dev set's own name, four apart (repeats was tuned on all nine,
    known by content whatever their folder)."""
    dev = require_shared(DEV)
    smallest = sorted((dev / "html").glob("*.html"), key=lambda f: f.stat().st_size)[:9]
    root = tmp_path_factory.mktemp("cv")
    out = []
    for name, files in (("nexteval-synth-dev", smallest[:5]), ("other", smallest[5:])):
        for part in ("html", "gt"):
            (root / name / part).mkdir(parents=True)
        for f in files:
            shutil.copy(f, root / name / "html" / f.name)
            shutil.copy(dev / "gt" / f"{f.stem}.json", root / name / "gt" / f"{f.stem}.json")
        out.append((root / name / "html", root / name / "gt"))
    return out


@pytest.fixture(scope="module")
def report(datasets: list[tuple[Path, Path]], tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The command run once, with the pages each fold's model was fitted on recorded (training.fit wrapped)."""
    fitted_on: list[set[tuple[str, str]]] = []
    real_fit = training.fit

    def recording_fit(examples, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        fitted_on.append({(e.source, e.name) for e in examples})
        return real_fit(examples, *args, **kwargs)

    json_file = tmp_path_factory.mktemp("cv-out") / "cv.json"
    argv = ["bench", "--cv", str(K), "--seed", str(SEED), "--per-page", "--json", str(json_file), "-q",
            "--no-chart"]  # --cv draws no chart anyway: the option is taken, not refused
    for pages, gt in datasets:
        argv += ["--pages", str(pages), "--gt", str(gt)]
    stdout = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout):
        patch.setattr(training, "fit", recording_fit)
        code = main(argv)
    assert code == 0
    return {"json": json.loads(json_file.read_text(encoding="utf-8")), "table": stdout.getvalue(),
            "fitted_on": fitted_on}


def test_every_page_is_scored_by_a_model_fitted_without_it(report: dict) -> None:
    document, fitted_on = report["json"], report["fitted_on"]
    pages = {(p["dataset"], p["page"]) for p in document["pages"]}
    assert len(document["pages"]) == len(pages) == 9 and len(fitted_on) == K
    held_out = [{tuple(x.split("/")) for x in fold} for fold in document["held_out"]]
    assert sorted(len(fold) for fold in held_out) == [3, 3, 3] and set().union(*held_out) == pages
    for fold, (held, trained) in enumerate(zip(held_out, fitted_on, strict=True)):
        assert not held & trained, f"fold {fold}: its model was fitted on a page it scores"
        assert held | trained == pages, f"fold {fold}: its model left out more than the fold"
    for p in document["pages"]:
        assert (p["dataset"], p["page"]) in held_out[p["fold"]]
    # The fold split is training's seeded shuffle of the pages in the order given.
    order = [(p["dataset"], p["page"]) for p in document["pages"]]
    assert [{order[i] for i in fold} for fold in training.folds(9, K, SEED)] == held_out


def test_the_figures_hang_together(report: dict) -> None:
    document = report["json"]
    rows = {r["label"]: r for r in document["rows"]}
    assert list(rows) == ["selector, 3-fold CV (all 9)", "selector CV, nexteval-synth-dev pages",
                          "selector CV, other pages", "repeats on nexteval-synth-dev (tuned there)",
                          "repeats on other (tuned there)",
                          "best-candidate oracle (all 9)", "the same, outside page chrome (all 9)",
                          "ground-truth ceiling (all 9)"]
    assert [r["pages"] for r in rows.values()] == [9, 5, 4, 5, 4, 9, 9, 9]
    pages = document["pages"]
    for kind in ("selector", "repeats", "oracle", "main_oracle", "ceiling"):
        for p in pages:
            assert all(0.0 <= p[kind][f] <= 1.0 for f in ("precision", "recall", "f1"))
    kinds = ("selector", "oracle", "main_oracle", "ceiling")
    mean = {kind: sum(p[kind]["f1"] for p in pages) / len(pages) for kind in kinds}
    assert rows["selector, 3-fold CV (all 9)"]["f1"] == pytest.approx(mean["selector"])
    assert mean["selector"] <= mean["oracle"] <= mean["ceiling"] <= 1.0
    assert mean["main_oracle"] <= mean["ceiling"]
    assert all(p["ceiling"]["precision"] == 1.0 for p in pages)  # each distinct true record, once
    assert rows["ground-truth ceiling (all 9)"]["hallucination_rate"] == 0.0
    assert document["datasets"] == [{"name": "nexteval-synth-dev", "pages": 5}, {"name": "other", "pages": 4}]
    table = report["table"]
    assert "fold" in table.splitlines()[0]  # --per-page: every page first
    for label, row in rows.items():
        assert f"{label} " in table and f"{row['f1']:7.4f}" in table


def test_the_same_seed_gives_the_same_figures_through_the_module(datasets: list[tuple[Path, Path]],
                                                                 report: dict) -> None:
    cv = cross_validate_sets(datasets, K, SEED)
    assert [p.as_dict() for p in cv.pages] == report["json"]["pages"]


def test_splits_repeat_the_whole_cross_validation_and_report_their_mean(datasets: list[tuple[Path, Path]],
                                                                        report: dict) -> None:
    import statistics

    from recordlens.core.runs.cross_validation import format_report

    cv = cross_validate_sets(datasets, K, SEED, splits=2)
    assert cv.splits == 2
    first, second = cv.split_scores()
    # The first split is the single-split run; the second is the same pages under the next seed's shuffle.
    assert [p.as_dict() for p in cv.pages] == report["json"]["pages"]
    assert [s.page for s in second] == [s.page for s in first]
    alone = cross_validate_sets(datasets, K, SEED + 1)
    assert [s.f1 for s in second] == [p.selector.f1 for p in alone.pages]
    rows = {r.label: r.figures() for r in cv.rows()}
    headline = rows["selector, 3-fold CV x 2 splits (all 9)"]
    assert headline["pages"] == 9
    assert headline["f1"] == pytest.approx(statistics.fmean(s.f1 for s in first + second))
    assert rows["  first split only (seed 0)"]["f1"] == pytest.approx(statistics.fmean(s.f1 for s in first))
    in_dev = [i for i, p in enumerate(cv.pages) if p.dataset == "nexteval-synth-dev"]
    dev_row = rows["  selector CV, nexteval-synth-dev pages"]
    assert dev_row["pages"] == 5
    assert dev_row["f1"] == pytest.approx(statistics.fmean(split[i].f1 for split in (first, second) for i in in_dev))
    document = cv.as_dict()
    assert document["splits"] == 2 and document["split_f1"] == pytest.approx(
        [statistics.fmean(s.f1 for s in split) for split in (first, second)])
    assert [[x["f1"] for x in split] for split in document["more_splits"]] == [[s.f1 for s in second]]
    assert "selector F1 by split: seed 0: " in format_report(cv)
    assert "per page: the selector and fold of the first split (seed 0)" in format_report(cv, per_page=True)


def test_the_command_says_what_it_needs(datasets: list[tuple[Path, Path]], capsys) -> None:
    pages, gt = (str(d) for d in datasets[0])
    for argv, message in (
        (["bench", "--cv", "5"], "needs labelled pages: --pages DIR --gt DIR"),
        (["bench", "--cv", "5", "--pages", pages], "needs labelled pages"),
        (["bench", "--cv", "9", "--pages", pages, "--gt", gt], "from 2 folds to as many folds as pages (5 here)"),
        (["bench", "--cv", "2", "--pages", pages, "--gt", gt, "--methods", "mdr"], "--methods: not for bench --cv"),
        (["bench", "--cv", "2", "--pages", pages, "--gt", gt, "--pages", pages, "--gt", gt], "given twice"),
        (["bench", "--pages", pages, "--gt", gt, "--pages", pages, "--gt", gt], "one --pages DIR and one --gt"),
        (["bench", "--pages", pages, "--gt", gt, "--seed", "1"], "--seed goes with --cv"),
        (["bench", "--pages", pages, "--gt", gt, "--splits", "2"], "--splits goes with --cv"),
        (["bench", "--cv", "2", "--pages", pages, "--gt", gt, "--splits", "0"], "--splits must be at least 1"),
    ):
        assert main(argv) == 2
        assert message in capsys.readouterr().err


def test_a_page_given_twice_under_another_name_is_refused_rather_than_tested_on_itself(
        datasets: list[tuple[Path, Path]], tmp_path: Path, capsys) -> None:
    pages, gt = datasets[0]
    copy = tmp_path / "copy"
    shutil.copytree(pages.parent, copy)
    assert main(["bench", "--cv", "2", "--pages", str(pages), "--gt", str(gt), "--pages", str(copy / pages.name),
                 "--gt", str(copy / gt.name)]) == 2
    assert "cross-validation would test a page on a model trained on it; give each page once" in capsys.readouterr().err


def test_the_second_oracle_never_takes_page_chrome() -> None:
    """On a page whose labels are its footer's links, the oracle finds them and the one kept out of chrome
    cannot: the distance between the two is what a page's labelling policy costs a fixed-policy extractor."""
    from recordlens.core.page.dom import parse_html
    from recordlens.core.runs.cross_validation import _oracle_score, targets_outside_chrome

    products = "".join(f"<li><h3>Product {k}</h3><p>{k} reviews</p><b>{k}0 EUR</b></li>" for k in range(5))
    links = "".join(f'<li><a href="/help/{k}">Help topic {k}</a></li>' for k in range(5))
    page = parse_html(f"<html><body><main><ul>{products}</ul></main><footer><ul>{links}</ul></footer></body></html>")
    truth = [[f"/body[1]/footer[1]/ul[1]/li[{k}]"] for k in range(1, 6)]
    (example,) = training.prepare([training.LabelledPage("p", page, truth)])
    assert _oracle_score(example, list(example.targets)).f1 == 1.0
    assert _oracle_score(example, targets_outside_chrome(example)).f1 == 0.0


def test_the_benchmark_times_a_page_in_a_fresh_process() -> None:
    import re
    import subprocess
    import sys

    page = sorted((require_shared(DEV) / "html").glob("*.html"), key=lambda f: f.stat().st_size)[0]
    script = Path(__file__).resolve().parents[2] / "bench" / "offline_extractor.py"
    done = subprocess.run([sys.executable, str(script), "--time-page", str(page)], capture_output=True, text=True,
                          timeout=300, check=True)
    assert re.fullmatch(r"\(\d+\.\d\d MB\): model load \d+\.\d{3} s \+ parse \d+\.\d{3} s \+ extract \d+\.\d{3} s "
                        r"= \d+\.\d{3} s = \d+\.\dx a bare lxml\.html parse of the page in the same process "
                        r"\(\d+\.\d{3} s, best of \d+\)\n", done.stdout), done.stdout


def test_saved_out_of_fold_probabilities_give_back_every_split_without_fitting(
        datasets: list[tuple[Path, Path]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.runs import cross_validation

    kept = tmp_path / "oof.json"
    fitted = cross_validate_sets(datasets, K, SEED, splits=2, save_probabilities=kept)

    def no_fit(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("the folds were fitted again")

    monkeypatch.setattr(cross_validation, "cross_validate", no_fit)
    again = cross_validate_sets(datasets, K, SEED, splits=2, from_probabilities=kept)
    assert again.as_dict()["pages"] == fitted.as_dict()["pages"]
    assert [[s.f1 for s in split] for split in again.split_scores()] == \
        [[s.f1 for s in split] for split in fitted.split_scores()]
    # Fewer splits than were kept: the first ones.
    first = cross_validate_sets(datasets, K, SEED, from_probabilities=kept)
    assert first.as_dict()["pages"] == fitted.as_dict()["pages"]


def test_saved_probabilities_are_refused_for_other_folds_or_other_candidates(
        datasets: list[tuple[Path, Path]], tmp_path: Path) -> None:
    from recordlens.core.errors import DatasetError

    kept = tmp_path / "oof.json"
    cross_validate_sets(datasets, K, SEED, save_probabilities=kept)
    with pytest.raises(DatasetError, match="saved for other folds .*seed 0, not 1"):
        cross_validate_sets(datasets, K, SEED + 1, from_probabilities=kept)
    with pytest.raises(DatasetError, match="1 split\\(s\\) saved, 2 asked for"):
        cross_validate_sets(datasets, K, SEED, splits=2, from_probabilities=kept)
    # A page whose candidates changed since (its features digest no longer the same) is named.
    document = json.loads(kept.read_text())
    page = document["splits"][0][3]
    page["features"] = "0" * 64
    kept.write_text(json.dumps(document))
    with pytest.raises(DatasetError, match=f"{page['page']} has other labels or candidates than when saved"):
        cross_validate_sets(datasets, K, SEED, from_probabilities=kept)
    # A page gone since (the file names one more): the folds of the pages left are drawn anew, so it is not theirs.
    document = json.loads(kept.read_text())
    document["splits"][0].append({**document["splits"][0][0], "page": "gone-since"})
    kept.write_text(json.dumps(document))
    with pytest.raises(DatasetError, match="saved over 10 pages, 9 given now .*gone-since"):
        cross_validate_sets(datasets, K, SEED, from_probabilities=kept)
    kept.write_text('{"format": 1, "k": 3,')  # cut off mid-write by hand
    with pytest.raises(DatasetError, match="cannot read the saved probabilities"):
        cross_validate_sets(datasets, K, SEED, from_probabilities=kept)
