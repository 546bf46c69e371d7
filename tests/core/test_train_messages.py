"""What `recordlens train` says and records about the model it writes: a model from too few pages for a full one
(one stage, not bagged) is said so where it is written and in its provenance's settings; `--cv K` says when its
folds fit weaker models than the one written; a damaged or empty model file, a bad worker count and a missing
`--gt` are each named as what they are."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.extract.fit_pool import WORKERS_VARIABLE
from recordlens.core.extract.model_shape import ModelShape
from recordlens.core.extract.selector import DEFAULT_MODEL
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.extract.training import FitConfig, fit, fold_shapes, planned_shape, prepare
from tests.core.catalogue_pages import SMALL, labelled_pages, write_dataset


def train(tmp_path: Path, pages: int, *more: str, name: str = "m.json") -> Path:
    pages_dir, gt_dir = write_dataset(tmp_path / f"data{pages}", [None] * pages, seed=5)  # type: ignore[list-item]
    model = tmp_path / name
    assert cli_main(["train", "--pages", str(pages_dir), "--gt", str(gt_dir), "--out", str(model), "-q",
                     *more]) == 0
    return model


def test_a_model_from_too_few_pages_is_said_to_be_one_and_its_settings_say_what_was_fitted(tmp_path: Path,
                                                                                          capsys) -> None:
    model = train(tmp_path, 3)
    said = capsys.readouterr().err
    assert "warning: one stage only, from 3 labelled pages (a second stage needs 6): its proposals may be far off " \
           "on pages it was not trained on; label more pages and train again" in said, said
    assert "The model written: 1 stage, 2 members, not bagged (bagging needs 7 pages)" in said, said
    config = SelectorModel.load(model).provenance["config"]
    assert (config["stages"], config["bags"], config["requested"]) == (1, 1, {"stages": 2, "bags": 8})
    assert config["smaller_because"] == "too few pages"
    assert cli_main(["inspect", str(model)]) == 0
    assert "fitted smaller than asked (too few pages): 2 stage(s) and 8 bag(s) asked for" in capsys.readouterr().out
    train(tmp_path, 3)  # the same again: not written, so not said to be
    captured = capsys.readouterr()
    said = captured.out + captured.err  # "not trained again" on stdout, the caution on stderr
    assert "not trained again" in said and "The model there: 1 stage, 2 members" in said, said
    assert "The model written" not in said


def test_one_labelled_page_is_one_page(tmp_path: Path, capsys) -> None:
    model = train(tmp_path, 1)
    assert "selector model from 1 labelled page of data1," in capsys.readouterr().out
    assert SelectorModel.load(model).provenance["trained_on"] == "1 labelled page of data1"


def test_a_model_fitted_as_asked_keeps_its_settings_as_they_were() -> None:
    """The settings are rewritten only where the fit made less than asked: a full model's bytes are as before."""
    examples = prepare(labelled_pages(1, 12, with_secondary=True))
    model = fit(examples, seed=3, config=SMALL, workers=1)
    assert model.provenance["config"] == dict(SMALL.__dict__)
    assert ModelShape.of(model) == planned_shape(examples, 3, SMALL) == ModelShape(12, 8, 4, 2)


def test_the_shape_worked_out_before_fitting_is_the_one_fitted() -> None:
    examples = prepare(labelled_pages(2, 5, with_secondary=False))
    for count in (1, 5):
        model = fit(examples[:count], seed=0, config=FitConfig(trees=5), workers=1)
        assert ModelShape.of(model) == planned_shape(examples[:count], 0, FitConfig(trees=5)), count


def test_cv_says_its_folds_fit_weaker_models_than_the_one_written(tmp_path: Path, capsys, quick_fits) -> None:
    """8 pages make a bagged model of two stages; 3 folds of them train on 5 or 6 pages: one stage, or not bagged."""
    examples = prepare(labelled_pages(5, 8, with_secondary=False))
    assert [(s.pages, s.stages, s.bags) for s in fold_shapes(examples, 3)] == [(5, 1, 1), (5, 1, 1), (6, 2, 1)]
    train(tmp_path, 8, "--cv", "3", "--workers", "1")
    out = capsys.readouterr().out
    assert re.search(r"the cross-validated figure is of models weaker than the one written \(2 stages, 16 members "
                     r"on 8 page shares\), each fitted on fewer pages: folds? [\d, ]+ \(.*\): 1 stage, 2 members, "
                     r"not bagged", out), out


def test_cv_of_folds_as_full_as_the_model_written_says_nothing_of_them(tmp_path: Path, capsys, quick_fits) -> None:
    train(tmp_path, 3, "--cv", "3", "--workers", "1")  # every model one stage and unbagged, the written one too
    assert "weaker" not in capsys.readouterr().out


def test_an_empty_model_file_is_said_to_be_empty(tmp_path: Path, capsys) -> None:
    pages_dir, _ = write_dataset(tmp_path / "data", [None], seed=2)  # type: ignore[list-item]
    (tmp_path / "empty.json").write_bytes(b"")
    assert cli_main(["extract", "--model", str(tmp_path / "empty.json"), "--pages", str(pages_dir), "--out",
                     str(tmp_path / "run"), "-q"]) == 2
    assert "empty.json: not a selector model (the file is empty)" in capsys.readouterr().err


@pytest.mark.parametrize(("damage", "named"), [
    (lambda m: m["members"][0].update(first={}), "member 1 of 16: its first stage has no 'base' entry"),
    (lambda m: m["members"][2].pop("first"), "member 3 of 16: it has no first stage"),
    (lambda m: m["members"][1]["second"]["trees"][0].pop("left"), "member 2 of 16: its second stage has no 'left' "
                                                                  "entry"),
    (lambda m: m.pop("members"), "it has no 'members' entry"),
])
def test_a_damaged_model_names_what_is_missing_and_where(tmp_path: Path, capsys, damage, named) -> None:
    data = json.loads(SelectorModel.load(DEFAULT_MODEL).to_json())
    damage(data)
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    assert cli_main(["inspect", str(tmp_path / "bad.json")]) == 2
    assert f"a damaged selector model ({named})" in capsys.readouterr().err


def test_a_bad_worker_count_in_the_environment_is_one_warning(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv(WORKERS_VARIABLE, "abc-train")
    train(tmp_path, 2)
    said = capsys.readouterr().err
    warning = "warning: RECORDLENS_FIT_WORKERS='abc-train' is not a number of processes of at least 1; ignored"
    assert said.count("RECORDLENS_FIT_WORKERS") == 1 and warning in said, said


def test_bench_cv_says_a_bad_worker_count_as_a_warning_too(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv(WORKERS_VARIABLE, "abc-bench")
    pages_dir, gt_dir = write_dataset(tmp_path / "data", [None] * 4, seed=5)  # type: ignore[list-item]
    assert cli_main(["bench", "--cv", "2", "--pages", str(pages_dir), "--gt", str(gt_dir), "-q"]) == 0
    said = capsys.readouterr().err
    assert said.count("RECORDLENS_FIT_WORKERS") == 1
    assert "warning: RECORDLENS_FIT_WORKERS='abc-bench' is not a number of processes of at least 1; ignored" in said


@pytest.mark.parametrize(("pairs", "said"), [
    (["--pages", "a", "--gt", "a", "--pages", "b"], "2 --pages and 1 --gt: a --gt is missing"),
    (["--gt", "a"], "0 --pages and 1 --gt: a --pages is missing"),
])
def test_a_missing_gt_is_named(tmp_path: Path, capsys, pairs, said) -> None:
    assert cli_main(["train", *pairs, "--out", str(tmp_path / "m.json")]) == 2
    assert said in capsys.readouterr().err
