"""Review of training's models: `train --out` and the app's Learn write over any selector model file, of any
version (a model this version can no longer load is what they must replace, not a reason to refuse); train, the
app's Learn and Propose say a model from few pages in one wording (`model_shape.few_pages_warning`); and what a model
records of being fitted smaller than asked counts its page shares by index (two datasets may share page names)
and gives the reason that applied."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.extract import training
from recordlens.core.extract.model_shape import ModelShape, few_pages_warning
from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.extract.training import FitConfig, bags, fit, planned_shape, prepare
from recordlens.core.store import import_paths, init_project, train_on_project
from recordlens.core.store.learnt_model import project_model_path
from tests.core.catalogue_pages import SMALL, labelled_pages, write_dataset


def shipped_document() -> dict:
    return json.loads(gzip.decompress(DEFAULT_MODEL.read_bytes()))


def older_model(path: Path, how: str) -> Path:
    """A model file an earlier (or later) RecordLens wrote, which this version refuses to load."""
    document = shipped_document()
    if how == "other features":
        document["features"] = {"first": ["a feature since renamed"], "second": ["another"]}
    else:
        document["format"] = "recordlens-selector/9"
    text = json.dumps(document).encode("utf-8")
    path.write_bytes(gzip.compress(text, mtime=0) if path.name.endswith(".gz") else text)
    with pytest.raises(ModelError, match="train it again"):
        SelectorModel.load(path)
    return path


@pytest.mark.parametrize(("name", "how"), [("m.json", "other features"), ("m.json.gz", "other features"),
                                            ("m.json", "another format")])
def test_train_writes_over_a_model_this_version_cannot_load(tmp_path: Path, capsys, quick_fits, name: str,
                                                            how: str) -> None:
    """The refusal of the old model says to train it again: training must then replace it, not refuse it."""
    pages, gt = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    model = older_model(tmp_path / name, how)
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(model), "-q"]) == 0, \
        capsys.readouterr().err
    assert SelectorModel.load(model).provenance["trained_on"] == "2 labelled pages of data"


def test_learn_writes_over_the_projects_model_of_another_feature_list(tmp_path: Path, quick_fits) -> None:
    """What the app's Learn runs: the project's own model, learnt by an older version, is learnt again."""
    pages, _ = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [pages.parent]).problems  # imported with their labels: labelled
    own = project_model_path(tmp_path / "p")
    own.parent.mkdir()
    older_model(own, "other features")
    assert train_on_project(tmp_path / "p") == own
    assert SelectorModel.load(own).provenance["trained_on"] == "2 labelled pages of the project p"


@pytest.mark.parametrize("content", [b'{"format": "something-else/1"}', b"[1, 2]", b"\x1f\x8bnot gzip",
                                     b'{"features": {}}'])
def test_train_still_refuses_a_file_that_is_no_selector_model(tmp_path: Path, capsys, content: bytes) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    other = tmp_path / "other.json"
    other.write_bytes(content)
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(other), "-q"]) == 2
    assert "exists and is not a selector model, so it is not replaced" in capsys.readouterr().err
    assert other.read_bytes() == content


# -- one wording of a model from few pages -------------------------------------------------------------------------


def test_train_learn_and_propose_say_a_model_from_few_pages_in_the_words_of_one_function(tmp_path: Path, capsys,
                                                                                          quick_fits) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 3, seed=5)  # type: ignore[list-item]
    path = tmp_path / "m.json"
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(path), "-q"]) == 0
    said = capsys.readouterr().err
    model = SelectorModel.load(path)
    warning = few_pages_warning(ModelShape.of(model))
    assert warning == ("one stage only, from 3 labelled pages (a second stage needs 6): its proposals may be far "
                       "off on pages it was not trained on")
    assert f"warning: {warning}" in said, said
    assert SelectorExtractor(path).caution == warning  # what the app's Propose and Learn say
    assert SelectorExtractor().caution == ""  # the shipped model: both stages


def test_a_model_of_one_stage_from_enough_pages_says_too_few_had_records() -> None:
    pages = labelled_pages(31, 8, with_secondary=False)
    sparse = [training.LabelledPage(p.name, p.page, p.truth if k == 0 else [], p.source) for k, p in enumerate(pages)]
    model = fit(prepare(sparse), config=FitConfig(trees=10), workers=1)
    assert few_pages_warning(ModelShape.of(model)) == (
        "one stage only, from 8 labelled pages, too few of them with records for a second stage: its "
        "proposals may be far off on pages it was not trained on")
    assert "too few pages with records for a second stage" in model.provenance["config"]["smaller_because"]


# -- fitted smaller than asked: shares by index, and the reason that applied ---------------------------------------


def pages_of_two_datasets() -> list[training.Example]:
    """Ten pages, five of each of two datasets whose pages are named alike (0 to 4 in each)."""
    first, second = labelled_pages(1, 5, with_secondary=True), labelled_pages(2, 5, with_secondary=True)
    return prepare([dataclasses.replace(p, source=source) for source, pages in (("a", first), ("b", second))
                    for p in pages])


def test_two_datasets_sharing_page_names_fitted_as_asked_record_nothing_smaller(tmp_path: Path, capsys) -> None:
    examples = pages_of_two_datasets()
    config = FitConfig(trees=10)
    names = [e.name for e in examples]
    left_out = {tuple(names[i] for i in range(10) if i not in share) for share in bags(10, 0, config)}
    assert len(left_out) < config.bags  # the premise: some shares leave out pages of the same names
    model = fit(examples, seed=0, config=config, workers=1)
    assert model.provenance["config"] == dict(config.__dict__)  # as asked: the settings (and bytes) as before
    assert ModelShape.of(model) == planned_shape(examples, 0, config) == ModelShape(10, 16, 8, 2)
    assert cli_main(["inspect", str(model.save(tmp_path / "m.json"))]) == 0
    assert "smaller" not in capsys.readouterr().out


def test_a_share_dropped_for_lacking_a_kind_of_region_is_said_as_such(tmp_path: Path, capsys) -> None:
    """Twelve pages are enough for both stages and four shares; one share lacks regions of records, as only the
    pages it leaves out keep theirs: the model is smaller for that reason, not for too few pages."""
    examples = prepare(labelled_pages(1, 12, with_secondary=True))
    keep = set(range(12)) - set(bags(12, 0, SMALL)[0])
    examples = [e if i in keep else dataclasses.replace(e, targets=0 * e.targets, matched=0 * e.targets)
                for i, e in enumerate(examples)]
    model = fit(examples, seed=0, config=dataclasses.replace(SMALL, trees=10), workers=1)
    config = model.provenance["config"]
    assert (config["stages"], config["bags"], config["requested"]) == (2, 3, {"stages": 2, "bags": 4})
    assert config["smaller_because"].startswith("1 of 4 page shares dropped"), config["smaller_because"]
    assert cli_main(["inspect", str(model.save(tmp_path / "m.json"))]) == 0
    out = capsys.readouterr().out
    assert "fitted smaller than asked (1 of 4 page shares dropped" in out and "too few pages" not in out, out
