"""What `train --cv` and `score` say beside the shipped model's figure, and what `bench --cv` says of its folds.

- Development pages relabelled (a project's own policy on the pages the shipped model was trained on) are pages it
  was trained on under other labels. `train --cv` said "it was not trained on any of them", and `score` said
  nothing: both matched texts and labels together. Both now ask `in_sample`, which knows the shipped model's pages
  by their texts too (resources/models/selector-training-texts.json).
- `bench --cv` gave the cross-validated figure of one-stage, unbagged fold models without the caveat `train --cv`
  gives the same figure; it now gives it, from the same code (`training.weaker_folds_note`).

Every fit here grows few trees (`quick_fits`): what is said is tested, not how well the selector does."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.runs.in_sample import trained_on
from tests.conftest import DEV, require_shared
from tests.core.catalogue_pages import write_dataset

SMALLEST = 6


def relabelled_dev_pages(root: Path) -> tuple[Path, Path]:
    """The smallest dev pages of 3 records or more, their HTML untouched, each labelled without its last record:
    another policy."""
    dev = require_shared(DEV)
    labels = {f.stem: json.loads(f.read_text(encoding="utf-8")) for f in (dev / "gt").glob("*.json")}
    smallest = sorted((f for f in (dev / "html").glob("*.html") if len(labels.get(f.stem, [])) >= 3),
                      key=lambda f: f.stat().st_size)[:SMALLEST]
    for part in ("html", "gt"):
        (root / part).mkdir(parents=True)
    for page in smallest:
        shutil.copy(page, root / "html" / page.name)
        (root / "gt" / f"{page.stem}.json").write_text(json.dumps(labels[page.stem][:-1]), encoding="utf-8")
    return root / "html", root / "gt"


def test_the_shipped_texts_are_of_the_shipped_model_and_unknown_for_another() -> None:
    from recordlens.core.extract.selector import load_model
    from recordlens.core.runs.in_sample import trained_texts

    shipped = load_model()
    assert len(trained_texts("default", shipped.digest)) == len(shipped.trained_digests()) == 80
    assert trained_texts("default", "another shipped model") == frozenset()  # RecordLens updated: not claimed
    assert trained_texts("my-model.json", shipped.digest) == frozenset()


def test_the_bench_script_makes_the_shipped_texts_from_the_development_pages(monkeypatch) -> None:
    from recordlens.core.resource_files import resource_path
    from recordlens.core.runs.in_sample import SHIPPED_MODEL_TEXTS
    from tests.script_modules import script_module

    require_shared(DEV)
    folder = Path(__file__).resolve().parents[2] / "bench"
    monkeypatch.syspath_prepend(str(folder))  # as `python bench/selector_training_texts.py` runs
    script = script_module(folder / "selector_training_texts.py", "recordlens_bench_selector_training_texts")
    shipped = json.loads(resource_path(*SHIPPED_MODEL_TEXTS).read_text(encoding="utf-8"))
    assert shipped == script.texts_document(script.development_sets())


@pytest.mark.timeout(600)
def test_train_cv_and_score_say_the_shipped_model_was_trained_on_relabelled_pages(tmp_path: Path, quick_fits,
                                                                                   capsys) -> None:
    pages, gt = relabelled_dev_pages(tmp_path / "small")
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"), "--cv", "2",
                     "-q", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert ("the shipped model on the same pages (it was trained on all of them, under other labels: "
            "not pages it never saw): P ") in out, out
    assert "it was not trained on any of them" not in out

    run = tmp_path / "shipped-run"
    assert cli_main(["extract", "--pages", str(pages), "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert cli_main(["score", "--pred", str(run), "--gt", str(gt), "--pages", str(pages), "-q"]) == 0
    err = capsys.readouterr().err
    assert (f"{SMALLEST} of the {SMALLEST} pages scored with a prediction (") in err, err
    assert ") are pages the shipped selector model was trained on under other labels (the same texts): its figures " \
           "there are of pages it has seen, not a measure of pages it has not seen" in err, err


def test_one_rule_for_both_same_labels_win_over_other_labels() -> None:
    from recordlens.core.extract.selector import load_model
    from recordlens.core.runs.in_sample import PageDigests, trained_texts

    shipped = load_model()
    digest = sorted(shipped.trained_digests())[0]
    text = sorted(trained_texts("default", shipped.digest))[0]
    found = trained_on({"model": "default", "model_digest": shipped.digest},
                       [PageDigests("a", digest, text), PageDigests("b", "other labels", text), ("c", "unseen")])
    assert found is not None and (found.pages, found.relabelled, found.scored) == (["a"], ["b"], 3)


@pytest.mark.timeout(600)
def test_bench_cv_says_its_folds_are_weaker_as_train_cv_does(tmp_path: Path, quick_fits, capsys) -> None:
    pages, gt = write_dataset(tmp_path / "data8", [None] * 8, seed=5)  # type: ignore[list-item]
    assert cli_main(["bench", "--cv", "3", "--pages", str(pages), "--gt", str(gt), "-q"]) == 0
    bench = capsys.readouterr().out
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"), "--cv", "3",
                     "-q", "--workers", "1"]) == 0
    train = capsys.readouterr().out
    said = [line for line in train.splitlines() if line.startswith("the cross-validated figure is of models weaker")]
    assert len(said) == 1, train
    folds = said[0].split(", each fitted on fewer pages: ")[1].removesuffix(". It likely understates the model written")
    folds = " ".join(folds.split())
    assert ("(the cross-validated figure is of models weaker than the one trained on all these pages (2 stages, 16 "
            f"members on 8 page shares), each fitted on fewer pages: {folds}. It likely understates the model trained "
            "on all these pages)") in " ".join(bench.split()), bench
    assert "1 stage, 2 members, not bagged" in folds
    assert cli_main(["bench", "--cv", "3", "--pages", str(pages), "--gt", str(gt), "-q", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["weaker_folds"].endswith("understates the model trained on all these "
                                                                         "pages")
