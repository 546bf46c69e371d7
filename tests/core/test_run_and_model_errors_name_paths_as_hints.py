"""The errors and messages of runs and extractors name a path as a hint names one (`command_hints.hint_path`): for a
folder whose name holds a space and a byte that is not UTF-8 (`caf\\xe9 x`), the form a POSIX shell reads back as
those bytes, never the raw name. One message of each module that says them: a run folder's refusals and notes
(`runner`), its run.json that cannot be read (`run_files`), a score's (`evaluate`), a bench's, saved out-of-fold
probabilities, a chart's missing glyphs, a dataset given twice to cross-validation, a figure in-sample, a prompt
file, recorded answers, a selector model's file, its caution, and training's."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from recordlens.core.errors import DatasetError, RecordLensError
from recordlens.core.extract.gemini import prompt_from_file
from recordlens.core.extract.recorded import ReplayExtractor
from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor, caution_before_a_run
from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.extract.training import FitConfig, Twice, dataset_pages_to_read, save_model
from recordlens.core.runs.bench import run_bench
from recordlens.core.runs.charts import Fonts, say_missing
from recordlens.core.runs.cross_validation import labelled_sets
from recordlens.core.runs.evaluate import not_in_the_project, score_run, score_seeds
from recordlens.core.runs.in_sample import InSample
from recordlens.core.runs.run_files import (
    META_DIR,
    identity_differences,
    run_description_and_problem,
    unnamed_method_message,
)
from recordlens.core.runs.runner import refuse_seeds_beside_a_run, run_extractor
from recordlens.core.runs.saved_folds import read_fold_results
from recordlens.core.store.learnt_model import project_model, project_model_path
from tests.core.cli_runs import DEMO
from tests.core.test_store_errors_name_paths_as_hints import ODD, named_as_a_hint
from tests.shell_words import made_folder


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    """A folder named with a space and a byte that is not UTF-8."""
    return made_folder(tmp_path / ODD)


def refused(error: type[BaseException], call, *args, **kwargs) -> str:  # noqa: ANN001 (any callable)
    with pytest.raises(error) as raised:
        call(*args, **kwargs)
    return str(raised.value)


def test_a_run_folder_s_refusals_name_it_as_a_hint(odd: Path) -> None:  # runner
    run = odd / "run"
    (run / META_DIR).mkdir(parents=True)
    (run / META_DIR / "run.json").write_text("{}", encoding="utf-8")
    named_as_a_hint(refused(RecordLensError, refuse_seeds_beside_a_run, run), run)
    pages = odd / "pages"
    shutil.copytree(DEMO / "html", pages)
    kept = odd / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine", encoding="utf-8")
    said = refused(DatasetError, run_extractor, SimpleNamespace(name="mdr"), pages, kept)
    named_as_a_hint(said, kept)


def test_a_run_description_that_cannot_be_read_is_named_as_a_hint(odd: Path) -> None:  # run_files
    (odd / META_DIR).mkdir()
    (odd / META_DIR / "run.json").write_text("", encoding="utf-8")
    named_as_a_hint(str(run_description_and_problem(odd)[1]), odd / META_DIR / "run.json")
    named_as_a_hint(str(unnamed_method_message(odd)), odd)


def test_a_run_made_with_another_model_file_names_both_as_hints(odd: Path) -> None:  # run_files
    made = {"method": "selector", "parameters": {"model": str(odd / "a.json"), "model_digest": "1"}}
    other = {"method": "selector", "parameters": {"model": str(odd / "b.json"), "model_digest": "2"}}
    said = "; ".join(identity_differences(made, other))
    named_as_a_hint(said, odd / "a.json")
    named_as_a_hint(said, odd / "b.json")
    assert "model_digest: '1' -> '2'" in said  # any other value as Python writes it


def test_a_score_names_its_folders_as_hints(odd: Path) -> None:  # evaluate
    gt = odd / "gt"
    gt.mkdir()
    named_as_a_hint(refused(DatasetError, score_run, odd, gt, odd), gt)
    named_as_a_hint(refused(DatasetError, score_seeds, odd, gt, odd), odd)
    named_as_a_hint(not_in_the_project(odd / "gone"), odd / "gone")


def test_a_bench_names_its_labels_folder_as_a_hint(odd: Path) -> None:
    named_as_a_hint(refused(DatasetError, run_bench, odd, odd, []), odd)


def test_saved_probabilities_name_their_file_as_a_hint(odd: Path) -> None:
    missing = odd / "folds.json"
    named_as_a_hint(refused(DatasetError, read_fold_results, missing, [], 5, 0, FitConfig(), 1), missing)


def test_a_chart_s_missing_characters_name_it_as_a_hint(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    say_missing(Fonts(("DejaVu Sans",), "\U000f0000"), odd / "chart.png")
    named_as_a_hint(capsys.readouterr().err, odd / "chart.png")


def test_a_dataset_given_twice_to_cross_validation_is_named_as_a_hint(odd: Path) -> None:
    shutil.copytree(DEMO, odd / ODD)  # the dataset named after its folder
    dataset = (odd / ODD / "html", odd / ODD / "gt")
    named_as_a_hint(refused(DatasetError, labelled_sets, [dataset, dataset]), Path(ODD))


def test_a_page_given_again_to_training_names_the_project_as_a_hint(odd: Path) -> None:  # training
    page = SimpleNamespace(name="1", source=str(odd))
    named_as_a_hint(str(Twice(page, page, True)), odd)  # type: ignore[arg-type]
    named_as_a_hint(refused(DatasetError, dataset_pages_to_read, odd, odd), odd)


def test_a_model_file_is_named_as_a_hint(odd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    empty = odd / "empty.json"
    empty.write_text("", encoding="utf-8")
    named_as_a_hint(refused(ModelError, SelectorModel.load, empty), empty)  # selector_model
    # the project's own model is said without its path, which its caller names
    project_model_path(odd).parent.mkdir(parents=True)
    project_model_path(odd).write_text("", encoding="utf-8")
    assert project_model(odd) == (None, "not a selector model (the file is empty)")
    model = odd / "model.json.gz"
    shutil.copyfile(DEFAULT_MODEL, model)
    extractor = SelectorExtractor(model)
    named = Path(extractor.model_name)  # the model by its whole path, as a run names it
    monkeypatch.setattr(SelectorExtractor, "caution", property(lambda _: "one stage"))
    named_as_a_hint(str(caution_before_a_run(extractor)), named)  # selector
    named_as_a_hint(InSample(str(named), [], 0, unknown="is gone").message(), named)  # in_sample

    def cannot_write(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(SelectorModel, "save", cannot_write)
    named_as_a_hint(refused(DatasetError, save_model, extractor.model, odd / "m.json"), odd / "m.json")  # training


def test_a_prompt_file_and_recorded_answers_are_named_as_hints(odd: Path) -> None:
    prompt = odd / "prompt.md"
    prompt.write_text("", encoding="utf-8")
    named_as_a_hint(refused(RecordLensError, prompt_from_file, prompt), prompt)  # gemini
    answers = odd / "answers"
    answers.mkdir()
    named_as_a_hint(refused(DatasetError, ReplayExtractor, answers), odd / "index.json")  # recorded
