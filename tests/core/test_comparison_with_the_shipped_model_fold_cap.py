"""The comparison with the shipped model that no one gave a K (the app's Learn and `train --project` without --cv,
of a model of one stage) fits one model per fold while the user waits. It left one page out at a time whatever
the number of pages: a project of 200 labelled pages (one stage: too few of them with records) would have fitted
200 models. Up to FOLDS pages (or groups of a page and its variants) it still leaves one out at a time; above, it
fits FOLDS page-grouped folds, as `train --cv FOLDS` does, and says which it did in `train --cv`'s words. Fits are
counted, not timed."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract import training
from recordlens.core.extract.model_shape import ModelShape
from recordlens.core.extract.training import FitConfig, prepare
from recordlens.core.runs.cross_validation import FOLDS, check_training, compare_with_shipped
from recordlens.core.store.learnt_model import project_pages_to_read, shipped_comparison
from tests.core.catalogue_pages import labelled_pages, project_with_policy

pytestmark = pytest.mark.usefixtures("quick_fits")

ONE_STAGE = ModelShape(pages=7, members=1, bags=1, stages=1)  # what `written` is said against: not fitted here


@pytest.fixture
def fits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The training pages of every fit from now on, one entry a fit (the folds' fits go through `training.fit`)."""
    done: list[int] = []
    real_fit = training.fit

    def counted_fit(examples, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202 - `fit`'s own
        done.append(len(examples))
        return real_fit(examples, *args, **kwargs)

    monkeypatch.setattr(training, "fit", counted_fit)
    return done


def test_the_usual_k_is_five() -> None:
    assert FOLDS == 5  # the README's figures and `bench/offline_extractor.py`'s default


@pytest.mark.parametrize(("pages", "folds", "said"), [
    (4, 4, "leave one page out"),
    (FOLDS, FOLDS, "leave one page out"),  # as many pages as the cap: still one left out at a time
    (FOLDS + 2, FOLDS, f"{FOLDS} page-grouped folds"),
])
def test_at_most_five_fits_whatever_the_pages(fits: list[int], pages: int, folds: int, said: str) -> None:
    examples = prepare(labelled_pages(3, pages, with_secondary=False))
    lines = compare_with_shipped(examples, 0, [e.name for e in examples], ONE_STAGE).lines
    assert len(fits) == folds, fits
    assert sum(pages - trained for trained in fits) == pages  # every page held out once, by one fold
    assert lines[0].startswith(f"these settings, cross-validated on these {pages} pages ({said}, seed 0): P "), lines


def test_five_folds_are_what_train_cv_five_says(fits: list[int]) -> None:
    examples = prepare(labelled_pages(3, FOLDS + 3, with_secondary=False))
    lines = compare_with_shipped(examples, 0, [e.name for e in examples], ONE_STAGE).lines
    assert len(fits) == FOLDS
    # the same folds (a fixed seed) and the same words as `train --cv 5`'s comparison of these pages
    assert lines[:3] == check_training(examples, FOLDS).lines()
    assert lines == compare_with_shipped(examples, 0, [e.name for e in examples], ONE_STAGE).lines


def test_groups_of_a_page_and_its_variants_are_what_is_counted(fits: list[int]) -> None:
    examples = prepare(labelled_pages(3, 8, with_secondary=False))
    six_groups = ["a", "a", "b", "b", "c", "d", "e", "f"]  # two pages with a variant each
    lines = compare_with_shipped(examples, 0, six_groups, ONE_STAGE).lines
    assert len(fits) == FOLDS
    assert lines[0].startswith(f"these settings, cross-validated on these 8 pages ({FOLDS} page-grouped folds, "
                               "seed 0; 8 pages in 6 groups: variants fold with their source): P "), lines
    fits.clear()
    four_groups = ["a", "a", "b", "b", "c", "d"]  # 6 pages, but 4 to leave out: one at a time
    lines = compare_with_shipped(examples[:6], 0, four_groups, ONE_STAGE).lines
    assert sorted(fits) == [4, 4, 5, 5], fits
    assert lines[0].startswith("these settings, cross-validated on these 6 pages (leave one page and its variants "
                               "out, seed 0; 6 pages in 4 groups: variants fold with their source): P "), lines


def test_learn_on_a_project_of_more_pages_fits_five_folds(tmp_path: Path, fits: list[int]) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=FOLDS + 2)
    # A model of one stage from 7 pages (the project's pages too few with records, say): what Learn compares.
    examples = [p.example for p in training.for_training(project_pages_to_read(folder))]
    model = training.fit(examples, config=FitConfig(stages=1))
    fits.clear()
    checked: list[tuple[int, int]] = []
    comparison = shipped_comparison(folder, model, check=lambda done, total: checked.append((done, total)))
    assert comparison is not None
    assert len(fits) == FOLDS, fits
    assert checked[-1] == (FOLDS, FOLDS)  # the progress Learn shows counts the folds fitted
    assert comparison.lines[0].startswith(f"these settings, cross-validated on these {FOLDS + 2} pages "
                                          f"({FOLDS} page-grouped folds, seed 0): P "), comparison.lines
