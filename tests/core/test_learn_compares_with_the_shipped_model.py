"""A model of one stage learnt from a project's few labelled pages is compared with the shipped model on those pages
before it is written (`train_on_project(compared=...)`, the app's Learn; `train --project` without --cv): its
settings cross-validated (one page left out at a time, or 5 page-grouped folds above 5 pages:
tests/core/test_comparison_with_the_shipped_model_fold_cap.py), beside the shipped model, in the words and by the
code path of `train --cv K`. From 3 pages a model learnt from scratch scored far below the shipped model on a
project's other pages (docs/selector-experiments.md), and nothing said so where the model was learnt."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from recordlens.core.extract.training import prepare
from recordlens.core.records.model import save_records
from recordlens.core.runs.cross_validation import FIGURES_KEY, check_training
from recordlens.core.store import import_paths, init_project, project_model_path, train_on_project
from tests.core.catalogue_pages import catalogue, labelled_pages, project_with_policy
from tests.core.cli_runs import run

pytestmark = pytest.mark.usefixtures("quick_fits")


class Cancelled(Exception):
    """What the app's job raises from its check at a cancel."""


def test_a_model_of_one_stage_is_compared_with_the_shipped_model_before_it_is_written(tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=3)
    told: list[tuple[list[str], bool]] = []
    checked: list[tuple[int, int]] = []

    def compared(lines: list[str], shipped_better: bool) -> None:
        assert not project_model_path(folder).exists()  # compared first: a cancel meanwhile writes no model
        told.append((lines, shipped_better))

    train_on_project(folder, compared=compared, comparing=lambda done, total: checked.append((done, total)))
    assert project_model_path(folder).is_file()
    [(lines, shipped_better)] = told
    assert lines[0].startswith("these settings, cross-validated on these 3 pages (leave one page out, seed 0): P "
                               ), lines
    # the shipped model finds every card of these pages; a model learnt from two of them misses the third's
    assert lines[1].startswith("the shipped model on the same pages (it was not trained on any of them): "
                               "P 1.000  R 1.000  F1 1.000"), lines
    assert lines[2:] == [FIGURES_KEY]
    assert shipped_better
    assert checked and checked[-1] == (3, 3)  # its fits went through `comparing`, one fold after another


def test_learn_says_what_train_cv_says_of_the_same_pages(tmp_path: Path, capsys) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=True, labelled=3)
    told: list[list[str]] = []
    train_on_project(folder, compared=lambda lines, _better: told.append(lines))
    code, cv, _ = run(capsys, "train", "--project", str(folder), "--cv", "3", "-q")
    assert code == 0
    assert told == [cv.splitlines()[1:]]  # one wording, one code path (after train's line of the model written)


def test_train_project_without_cv_prints_the_comparison_of_a_model_of_one_stage(tmp_path: Path, capsys) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=3)
    code, out, err = run(capsys, "train", "--project", str(folder), "-q")
    assert code == 0, err
    code, cv, _ = run(capsys, "train", "--project", str(folder), "--cv", "3", "-q")
    assert code == 0
    # after each's line of the model (written, then the same one in place)
    assert out.splitlines()[1:] == cv.splitlines()[1:]
    assert out.splitlines()[1].startswith("these settings, cross-validated on these 3 pages (leave one page out"), out


def test_no_comparison_of_a_model_of_both_stages_or_of_one_page(tmp_path: Path) -> None:
    told: list[list[str]] = []
    for labelled in (6, 1):
        folder, _ = project_with_policy(tmp_path / f"p{labelled}", with_secondary=False, labelled=labelled)
        train_on_project(folder, compared=lambda lines, _better: told.append(lines))
        assert project_model_path(folder).is_file()
    assert told == []


def test_a_cancel_while_comparing_writes_no_model(tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=3)
    fits: list[tuple[int, int]] = []

    def comparing(done: int, total: int) -> None:
        fits.append((done, total))
        if done >= 1:  # the first fold fitted: the user cancels
            raise Cancelled

    with pytest.raises(Cancelled):
        train_on_project(folder, compared=lambda lines, better: None, comparing=comparing)
    assert not project_model_path(folder).exists()
    assert (3, 3) not in fits  # the folds after the cancel were not fitted


def test_check_training_with_a_check_gives_the_same_figures() -> None:
    examples = prepare(labelled_pages(3, 3, with_secondary=True))
    calls: list[tuple[int, int]] = []
    checked = check_training(examples, 3, check=lambda done, total: calls.append((done, total)))
    assert checked.lines() == check_training(examples, 3).lines()
    assert calls[0] == (0, 3) and calls[-1] == (3, 3)


def test_a_fold_that_cannot_be_fitted_is_said_in_place_of_figures(tmp_path: Path) -> None:
    data, rng = tmp_path / "data", random.Random(5)
    (data / "html").mkdir(parents=True)
    for k in range(3):  # the cards of page 0 labelled; pages 1 and 2 labelled as holding no record
        html, cards, _ = catalogue(rng)
        (data / "html" / f"{k}.html").write_text(html, encoding="utf-8")
        save_records(data / "gt" / f"{k}.json", cards if k == 0 else [])
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [data]).problems
    told: list[tuple[list[str], bool]] = []
    train_on_project(tmp_path / "p", compared=lambda lines, better: told.append((lines, better)))
    [(lines, shipped_better)] = told
    assert len(lines) == 1 and not shipped_better
    assert lines[0].startswith(
        "not compared with the shipped model on these 3 pages (leave one page out): fold "), lines
    assert lines[0].endswith(" would have nothing to learn: these 2 pages are labelled as holding no record: training "
                             "needs pages whose labels mark lists of records; label more pages"), lines
