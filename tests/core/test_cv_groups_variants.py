"""Cross-validation beside synthetic variants (`recordlens synth`): a page and every variant made of it fall in one
fold, in `bench --cv`, `train --pages --cv` and `train --project --cv`, and the output says how many groups there
are; without variants the folds are the split they always were (the README's figures depend on it); `bench --cv`
marks `repeats`' figures on variants of the pages it was tuned on as `score` marks them.

The datasets are the four demo pages and the variants `synth` makes of them (and, for repeats, three small dev
pages and their variants); every fit has few trees (`quick_fits`), and those recorded one share of the pages (not
bagged): what is fitted on which pages is tested, not how well."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.extract import training
from recordlens.core.runs.cross_validation import Variants, check_folds
from recordlens.core.runs.in_sample import repeats_tuning_digests
from recordlens.core.store import import_paths, init_project
from tests.conftest import DEV, ROOT, require_shared

DEMO = ROOT / "resources" / "demo" / "dataset"


def synth(pages: Path, gt: Path, out: Path, variants: int = 2) -> Path:
    """The variants `recordlens synth` makes of a dataset, written to `out` (html only)."""
    assert main(["synth", "--pages", str(pages), "--gt", str(gt), "--out", str(out), "--variants", str(variants),
                 "--seed", "0", "--formats", "html", "-q"]) == 0
    return out


def source_of(page: str) -> str:
    """`3_v2` -> `3`: the page a variant was made from, by synth's naming (the test's key, not the code's)."""
    return page.split("_v")[0]


@pytest.fixture
def recorded_fits(monkeypatch: pytest.MonkeyPatch, quick_fits: None) -> list[set[str]]:
    """The page names of every fit (each fold's, and a model written), with few trees and one share of the pages
    (not bagged): which pages each fit is given is tested, not the members it makes of them."""
    fitted_on: list[set[str]] = []
    quick_fit = training.fit

    def recording_fit(examples, seed=0, config=None, **kwargs):  # noqa: ANN001, ANN003, ANN202 - fit's own
        fitted_on.append({e.name for e in examples})
        return quick_fit(examples, seed, dataclasses.replace(config or training.FitConfig(), bags=1), **kwargs)

    monkeypatch.setattr(training, "fit", recording_fit)
    return fitted_on


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two variants of each of the four demo pages: `S/html/N_vK.html`, `S/gt/N_vK.json` and `S/synth.json`."""
    return synth(DEMO / "html", DEMO / "gt", tmp_path_factory.mktemp("synth") / "S")


def assert_whole_groups(fitted_on: list[set[str]], pages: set[str]) -> None:
    """Every fit took each page with all its variants, or none of them."""
    groups = {source_of(p) for p in pages}
    assert fitted_on
    for trained in fitted_on:
        for group in groups:
            members = {p for p in pages if source_of(p) == group}
            assert members <= trained or not members & trained, (
                f"a fit trained on {sorted(members & trained)} and not on {sorted(members - trained)}")


# -- the split without variants: as it always was ------------------------------------------------------------------


def test_the_split_of_the_80_dev_pages_is_unchanged() -> None:
    """`bench --cv 5` over the 80 development pages (seed 0): the README's figures are of this split."""
    assert training.folds(80, 5, 0) == [
        [1, 6, 7, 9, 13, 28, 29, 38, 40, 47, 50, 61, 67, 72, 74, 77],
        [5, 10, 12, 25, 39, 41, 42, 45, 51, 52, 63, 64, 68, 70, 75, 78],
        [4, 8, 15, 18, 19, 22, 24, 27, 31, 34, 36, 46, 56, 57, 69, 76],
        [17, 20, 21, 26, 33, 35, 43, 44, 49, 55, 58, 59, 62, 65, 66, 71],
        [0, 2, 3, 11, 14, 16, 23, 30, 32, 37, 48, 53, 54, 60, 73, 79]]
    for count, k, seed in [(80, 5, 0), (80, 5, 1), (80, 5, 2), (40, 5, 0), (9, 3, 0), (12, 4, 7)]:
        order = np.random.default_rng(seed).permutation(count).tolist()  # the split as it was first written
        before = [sorted(order[i::k]) for i in range(k)]
        assert training.folds(count, k, seed) == before
        assert training.folds(count, k, seed, [f"page {i}" for i in range(count)]) == before  # each alone


def test_pages_without_variants_are_each_their_own_group() -> None:
    pages = [training.Example(str(i), None, np.zeros(0), np.zeros(0), [], [], "d", f"digest {i}")  # type: ignore[arg-type]
             for i in range(5)]
    assert Variants().groups(pages) == [f"digest {i}" for i in range(5)]


def test_variants_group_with_their_source_and_each_other() -> None:
    found = Variants({"v1": "source", "v2": "source", "v1 again": "v1", "orphan 1": "gone", "orphan 2": "gone"})
    digests = ["source", "v1", "v2", "v1 again", "other", "orphan 1", "orphan 2"]
    pages = [training.Example(d, None, np.zeros(0), np.zeros(0), [], [], "d", d)  # type: ignore[arg-type]
             for d in digests]
    assert found.groups(pages) == ["source", "source", "source", "source", "other", "gone", "gone"]
    split = training.folds(len(pages), 2, 0, found.groups(pages))
    assert sorted(len(fold) for fold in split) == [3, 4]
    assert {0, 1, 2, 3} in [set(fold) & {0, 1, 2, 3} for fold in split]  # source and its three variants together
    assert any({5, 6} <= set(fold) for fold in split)


def test_more_folds_than_groups_is_refused_saying_why() -> None:
    check_folds(4, 12, 4)
    with pytest.raises(RecordLensError, match=r"as many folds as groups of pages \(here 12 pages in 4 groups: "
                                              r"variants fold with their source\)"):
        check_folds(5, 12, 4)


# -- bench --cv --------------------------------------------------------------------------------------------------


def test_bench_cv_folds_each_variant_with_its_source_and_says_so(variants: Path, recorded_fits: list[set[str]],
                                                               tmp_path: Path) -> None:
    json_file = tmp_path / "cv.json"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main(["bench", "--cv", "4", "--per-page", "--json", str(json_file), "-q", "--pages",
                     str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--pages", str(variants / "html"), "--gt",
                     str(variants / "gt")]) == 0
    document = json.loads(json_file.read_text(encoding="utf-8"))
    pages = {p["page"] for p in document["pages"]}
    assert len(pages) == 12 and len(recorded_fits) == 4
    assert_whole_groups(recorded_fits, pages)
    fold_of = {p["page"]: p["fold"] for p in document["pages"]}
    assert all(fold_of[p] == fold_of[source_of(p)] for p in pages)
    assert document["fold_groups"] == 4
    assert "12 pages in 4 groups: variants fold with their source" in stdout.getvalue()


def test_bench_cv_refuses_more_folds_than_groups_before_any_fit(variants: Path, recorded_fits: list[set[str]],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "--cv", "5", "-q", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"),
                 "--pages", str(variants / "html"), "--gt", str(variants / "gt")])
    assert code != 0 and not recorded_fits
    assert "12 pages in 4 groups" in capsys.readouterr().err


def test_bench_cv_marks_variants_of_the_pages_repeats_was_tuned_on(tmp_path: Path, quick_fits: None) -> None:
    """Three small dev pages (repeats was tuned on them) and a variant of each: the variants' repeats row is
    marked, as `score` of a repeats run on them warns, and the footer does not call it an honest figure."""
    dev = require_shared(DEV)
    smallest = sorted((dev / "html").glob("*.html"), key=lambda f: f.stat().st_size)[:3]
    for part in ("html", "gt"):
        (tmp_path / "dev" / part).mkdir(parents=True)
    for f in smallest:
        shutil.copy(f, tmp_path / "dev" / "html" / f.name)
        shutil.copy(dev / "gt" / f"{f.stem}.json", tmp_path / "dev" / "gt" / f"{f.stem}.json")
    made = synth(tmp_path / "dev" / "html", tmp_path / "dev" / "gt", tmp_path / "S", variants=1)
    named = [p["source_digest"] for p in json.loads((made / "synth.json").read_text(encoding="utf-8"))["pages"]]
    assert len(named) == 3 and set(named) <= repeats_tuning_digests()  # synth names each variant's source
    json_file = tmp_path / "cv.json"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        assert main(["bench", "--cv", "3", "--json", str(json_file), "-q", "--pages", str(tmp_path / "dev" / "html"),
                     "--gt", str(tmp_path / "dev" / "gt"), "--pages", str(made / "html"), "--gt",
                     str(made / "gt")]) == 0
    document = json.loads(json_file.read_text(encoding="utf-8"))
    marked = {p["page"]: (p["repeats_tuned_on"], p["repeats_tuned_on_its_source"]) for p in document["pages"]}
    assert marked == {f.stem: (True, False) for f in smallest} | {f"{f.stem}_v1": (False, True) for f in smallest}
    labels = [r["label"] for r in document["rows"] if r["kind"] == "repeats"]
    assert labels == ["repeats on dev (tuned there)", "repeats on S (variants of pages it was tuned on)"]
    table = stdout.getvalue()
    assert "close to one on synthetic variants of them" in table

    # `score` of a repeats run on the variants names the same pages, by the same function
    run = tmp_path / "run"
    assert main(["extract", "--method", "repeats", "--pages", str(made / "html"), "--out", str(run), "-q"]) == 0
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        main(["score", "--pred", str(run), "--gt", str(made / "gt"), "--pages", str(made / "html")])
    assert "are synthetic variants of pages repeats' hand rules were tuned on" in err.getvalue()


# -- train --cv ----------------------------------------------------------------------------------------------------


def test_train_pages_cv_folds_each_variant_with_its_source(variants: Path, recorded_fits: list[set[str]],
                                                           tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--pages", str(variants / "html"),
                 "--gt", str(variants / "gt"), "--out", str(tmp_path / "m.json"), "--cv", "4", "-q"]) == 0
    pages = {p.stem for p in (DEMO / "html").glob("*.html")} | {p.stem for p in (variants / "html").glob("*.html")}
    assert len(recorded_fits) == 1 + 4  # the model written, then each fold's
    assert_whole_groups(recorded_fits, pages)
    assert ("(leave one page and its variants out, seed 0; 12 pages in 4 groups: variants fold with their source)"
            in capsys.readouterr().out)


def test_train_project_cv_folds_each_variant_with_its_source(variants: Path, recorded_fits: list[set[str]],
                                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [DEMO, variants]).problems
    assert main(["train", "--project", str(tmp_path / "p"), "--cv", "4", "-q"]) == 0
    pages = {p.stem for p in (DEMO / "html").glob("*.html")} | {p.stem for p in (variants / "html").glob("*.html")}
    assert len(recorded_fits) == 1 + 4
    assert_whole_groups(recorded_fits, pages)
    assert "12 pages in 4 groups: variants fold with their source" in capsys.readouterr().out
