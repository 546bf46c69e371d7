"""The selector's model files and entry points under bad input: every case is a clear one-line refusal (exit 2 from
the command line), never a traceback, a hang, a silently different result, or two models mixed in one run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main as cli_main
from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.store import project_model
from tests.core.catalogue_pages import write_dataset


@pytest.fixture(scope="module")
def shipped() -> dict:
    return json.loads(SelectorModel.load(DEFAULT_MODEL).to_json())


def written(tmp_path: Path, data: object, name: str = "model.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("threshold", [float("nan"), 5, -0.1, "half", None])
def test_a_threshold_that_is_no_probability_is_refused(tmp_path: Path, shipped: dict, threshold: object) -> None:
    # NaN would keep every candidate (no `p < NaN` holds): about five times the records, silently.
    path = written(tmp_path, {**shipped, "threshold": threshold})
    with pytest.raises(ModelError, match="threshold must be a number from 0 to 1") as refused:
        SelectorModel.load(path)
    assert str(path) in str(refused.value)  # which file
    if threshold is not None:  # None asks for the model's own threshold
        with pytest.raises(ModelError, match="threshold must be a number from 0 to 1"):
            SelectorExtractor(threshold=threshold)  # type: ignore[arg-type]


@pytest.mark.parametrize("damage", ["base not finite", "rate not finite", "no trees", "a null leaf value",
                                    "a fractional node number", "members a string", "members a dict",
                                    "members of numbers", "nested too deep", "a number too long"])
def test_damage_that_would_change_the_results_is_refused(tmp_path: Path, shipped: dict, damage: str) -> None:
    data = json.loads(json.dumps(shipped))
    first = data["members"][0]["first"]
    first = first.get("boosted", first)  # a stage that blends boosted trees with a forest
    tree = first["trees"][0]
    text = None
    if damage == "base not finite":
        first["base"] = float("nan")
    elif damage == "rate not finite":
        first["rate"] = float("inf")
    elif damage == "no trees":
        first["trees"] = []
    elif damage == "a null leaf value":
        leaf = next(i for i, left in enumerate(tree["left"]) if left < 0)
        tree["value"][leaf] = None
    elif damage == "a fractional node number":
        inner = next(i for i, left in enumerate(tree["left"]) if left >= 0)
        tree["left"][inner] += 0.5
    elif damage == "members a string":
        data["members"] = "xyz"
    elif damage == "members a dict":
        data["members"] = {"a": 1}
    elif damage == "members of numbers":
        data["members"] = [1]
    elif damage == "nested too deep":
        text = json.dumps({**data, "members": []})[:-1] + ', "x": ' + "[" * 100_000 + "]" * 100_000 + "}"
    else:
        text = json.dumps(data).replace('"threshold": 0.5', '"threshold": 1' + "0" * 5000)  # over int's limit
    path = written(tmp_path, text if text is not None else data)
    with pytest.raises(ModelError, match=f"^{path}: (a damaged selector model|not a selector model)"):
        SelectorModel.load(path)
    # As a project's own model, the same file is named and the shipped model proposes: no traceback in the app.
    project = tmp_path / "project"
    (project / "models").mkdir(parents=True)
    os.replace(path, project / "models" / "selector.json")
    model, why = project_model(project)
    assert model is None and why


def test_a_fifo_or_a_folder_given_as_the_model_is_refused_without_waiting(tmp_path: Path, capsys) -> None:
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)
    pages, _ = write_dataset(tmp_path / "data", [None], seed=1)  # type: ignore[list-item]
    # Opening a FIFO for reading would wait for a writer forever; it must be refused at once.
    assert cli_main(["extract", "--model", str(fifo), "--pages", str(pages), "--out", str(tmp_path / "r"),
                     "-q"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert cli_main(["extract", "--model", str(tmp_path), "--pages", str(pages), "--out", str(tmp_path / "r"),
                     "-q"]) == 2
    assert "cannot read the model" in capsys.readouterr().err
    assert cli_main(["extract", "--model", "", "--pages", str(pages), "--out", str(tmp_path / "r"), "-q"]) == 2
    assert "cannot read the model" in capsys.readouterr().err  # not a quiet fall back to the shipped model
    project = tmp_path / "project"  # a project given for its own model: named
    (project / "models").mkdir(parents=True)
    (project / "models" / "selector.json").write_text("{}")
    assert cli_main(["extract", "--model", str(project), "--pages", str(pages), "--out", str(tmp_path / "r"),
                     "-q"]) == 2
    assert f"the project's own model is {project / 'models' / 'selector.json'}" in capsys.readouterr().err


def test_a_model_of_another_version_says_so(tmp_path: Path, shipped: dict) -> None:
    with pytest.raises(ModelError, match="format 'recordlens-selector/9', written by another version"):
        SelectorModel.load(written(tmp_path, {**shipped, "format": "recordlens-selector/9"}))


def test_resuming_a_run_with_another_model_or_threshold_is_refused(tmp_path: Path, shipped: dict, capsys) -> None:
    pages, _ = write_dataset(tmp_path / "data", [None] * 2, seed=3)  # type: ignore[list-item]
    (pages / "1.html").rename(tmp_path / "later.html")
    out = tmp_path / "run"
    assert cli_main(["extract", "--pages", str(pages), "--out", str(out), "-q"]) == 0
    (tmp_path / "later.html").rename(pages / "1.html")
    other = written(tmp_path, {**shipped, "threshold": 0.9}, "other.json")
    assert cli_main(["extract", "--model", str(other), "--pages", str(pages), "--out", str(out), "-q"]) == 2
    said = capsys.readouterr().err
    assert "would mix two methods" in said and "model_digest: " in said  # names what differs
    assert cli_main(["extract", "--param", "threshold=0.7", "--pages", str(pages), "--out", str(out), "-q"]) == 2
    assert "would mix two methods" in capsys.readouterr().err
    assert not (out / "1.json").exists()  # nothing was added to the first run
    # The same model copied elsewhere is the same method (its digest decides, not its path).
    copy = tmp_path / "copy.json"
    shutil.copyfile(DEFAULT_MODEL, copy)
    assert cli_main(["extract", "--model", str(copy), "--pages", str(pages), "--out", str(out), "-q"]) == 0
    assert (out / "1.json").exists()
    assert cli_main(["extract", "--method", "repeats", "--param", "similarity=0.6", "--pages", str(pages),
                     "--out", str(tmp_path / "rep"), "-q"]) == 0
    assert cli_main(["extract", "--method", "repeats", "--pages", str(pages), "--out", str(tmp_path / "rep"),
                     "-q"]) == 2  # repeats' parameters are compared too
    assert "would mix two methods" in capsys.readouterr().err


def test_train_refuses_an_output_or_a_seed_it_cannot_use_before_any_work(tmp_path: Path, capsys) -> None:
    pages, gt = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    a_file = tmp_path / "a_file"
    a_file.write_text("kept", encoding="utf-8")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = {str(a_file / "model.json"): "is a file, not a folder", str(tmp_path): "is a folder",
             str(fifo): "not a regular file"}
    for out, said in cases.items():
        assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", out, "-q"]) == 2
        assert said in capsys.readouterr().err
    for seed in ("-5", str(2**32)):
        assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"),
                         "--seed", seed, "-q"]) == 2
        assert "the seed must be from 0 to" in capsys.readouterr().err
    assert a_file.read_text(encoding="utf-8") == "kept" and not (tmp_path / "m.json").exists()


def test_a_model_file_named_like_a_number_is_found_through_param(tmp_path: Path, monkeypatch) -> None:
    pages, _ = write_dataset(tmp_path / "data", [None], seed=2)  # type: ignore[list-item]
    (tmp_path / "5").write_bytes(DEFAULT_MODEL.read_bytes())
    monkeypatch.chdir(tmp_path)
    assert cli_main(["extract", "--param", "model=5", "--pages", str(pages), "--out", "run", "-q"]) == 0
    assert json.loads((tmp_path / "run" / "_run" / "run.json").read_text(encoding="utf-8"))["parameters"][
        "model"] == str((tmp_path / "5").resolve())  # the file "5" by its whole path, not the number 5


def test_learning_in_a_project_whose_models_folder_is_a_file_fails_before_any_work(tmp_path: Path) -> None:
    """The app's Learn writes the project's own model: a file where its folder goes is said at once, not after
    every page was read and fitted, and the file is left as it was."""
    from recordlens.core.errors import DatasetError
    from recordlens.core.store import init_project, train_on_project

    init_project(tmp_path).close()  # a project, whose models folder is a user's file
    (tmp_path / "models").write_text("a user's file", encoding="utf-8")
    read: list[str] = []
    with pytest.raises(DatasetError, match="is a file, not a folder"):
        train_on_project(tmp_path, progress=read.append)
    assert not read and (tmp_path / "models").read_text(encoding="utf-8") == "a user's file"
    with pytest.raises(DatasetError, match="the seed must be"):
        train_on_project(tmp_path / "elsewhere", seed=-1, progress=read.append)
    assert not read


def test_training_on_too_few_pages_says_the_model_has_one_stage(tmp_path: Path, capsys) -> None:
    """In the words of the app's Learn and Propose (model_shape.few_pages_warning): it may propose far off."""
    pages, gt = write_dataset(tmp_path / "data", [None] * 2, seed=5)  # type: ignore[list-item]
    assert cli_main(["train", "--pages", str(pages), "--gt", str(gt), "--out", str(tmp_path / "m.json"), "-q"]) == 0
    assert "warning: one stage only, from 2 labelled pages (a second stage needs 6)" in capsys.readouterr().err
    assert SelectorModel.load(tmp_path / "m.json").provenance["second_stage_from"].startswith("nothing: one stage")
