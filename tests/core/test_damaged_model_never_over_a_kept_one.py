"""A project model that is valid JSON and names this version's format, but is broken inside (no feature names, a
member that is no member), is a damaged file: training the project again sets it aside as `selector.unusable.json`
and says it was damaged. It used to be taken for a model ("the file's format names one") and copied over
`selector.forgotten.json`, deleting the usable model kept there, with "trained on other candidate features" as the
reason. A model of other features or another format is still a model: it still goes to `selector.forgotten.json`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import FORMAT, ModelError, OtherVersionModel, SelectorModel
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, UNUSABLE_MODEL, project_model_path
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

pytestmark = pytest.mark.usefixtures("quick_fits")

NO_FEATURES = json.dumps({"format": FORMAT, "junk": 1}).encode("utf-8")


def trained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, bytes]:
    """A project with a model learnt (seed 1) and then set aside, as "Propose with the shipped model again" leaves
    it; the model's bytes."""
    project = six_pages_and_page_4_in_progress(tmp_path)
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1", "--seed", "1")
    assert code == 0, err
    usable = project_model_path(project).read_bytes()
    project_model_path(project).replace(project / FORGOTTEN_MODEL)
    return project, usable


def with_broken_member(model: bytes) -> bytes:
    document = json.loads(model)
    document["members"][0] = "x"
    return json.dumps(document).encode("utf-8")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("damaged", ["no features", "a broken member"])
def test_a_damaged_model_of_this_format_is_set_aside_as_unusable_never_over_the_kept_model(
        damaged: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, usable = trained(tmp_path, capsys)
    broken = NO_FEATURES if damaged == "no features" else with_broken_member(usable)
    project_model_path(project).write_bytes(broken)
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")
    assert code == 0, err
    assert (project / FORGOTTEN_MODEL).read_bytes() == usable  # the usable model set aside is still there
    assert (project / UNUSABLE_MODEL).read_bytes() == broken
    why = ("it has no 'features' entry" if damaged == "no features"
           else "member 1 of 2: it has no first stage")
    assert f"the project's earlier model, which was unusable (a damaged selector model ({why}))" in err, err
    assert f"is kept as {project / UNUSABLE_MODEL}" in err, err
    assert "other candidate features" not in err and "in place of" not in err, err


@pytest.mark.timeout(300)
def test_a_model_of_other_features_is_still_a_model_kept_where_forget_keeps_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, usable = trained(tmp_path, capsys)
    document = json.loads(usable)
    document["features"]["first"] = document["features"]["first"][:-1]  # as an older version computed them
    older = json.dumps(document).encode("utf-8")
    project_model_path(project).write_bytes(older)
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")
    assert code == 0, err
    assert (project / FORGOTTEN_MODEL).read_bytes() == older and not (project / UNUSABLE_MODEL).exists()
    assert "which was unusable (the model was trained on other candidate features" in err, err


def test_a_model_is_told_from_a_damaged_file_by_what_it_holds() -> None:
    whole = json.loads(SelectorModel([]).to_json())
    with pytest.raises(ModelError, match=r"a damaged selector model \(it has no 'features' entry\)") as missing:
        SelectorModel.from_json(NO_FEATURES.decode("utf-8"))
    assert not isinstance(missing.value, OtherVersionModel)
    with pytest.raises(ModelError, match="its 'features' entry is not the feature names of each stage") as odd:
        SelectorModel.from_json(json.dumps(whole | {"features": ["a", "b"]}))
    assert not isinstance(odd.value, OtherVersionModel)
    with pytest.raises(OtherVersionModel, match="other candidate features"):
        SelectorModel.from_json(json.dumps(whole | {"features": {"first": ["a feature since renamed"]}}))
    with pytest.raises(OtherVersionModel, match="written by another version"):
        SelectorModel.from_json(json.dumps(whole | {"format": "recordlens-selector/9"}))
