"""A project's model is the same whatever spelling of the project's path trained it (`P`, `.`, its full path, as
the app's Learn gives it): the provenance records the project's full path and its folder's name. It used to record
the path as typed, so the same pages, labels and seed gave other bytes, "already trained" was not recognised (the
model trained again, pushing out the one set aside before), and `--project .` named the project "" ."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, project_model_path
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

pytestmark = pytest.mark.usefixtures("quick_fits")


@pytest.mark.timeout(300)
def test_three_spellings_of_the_project_give_the_same_model_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    project = six_pages_and_page_4_in_progress(tmp_path)  # tmp_path/p
    spellings = {"relative": ("p", tmp_path), "dot": (".", project), "full": (str(project), tmp_path / "elsewhere")}
    written = {}
    for how, (spelled, folder) in spellings.items():
        folder.mkdir(exist_ok=True)
        monkeypatch.chdir(folder)
        out = tmp_path / f"{how}.json"
        code, _, err = run(capsys, "train", "--project", spelled, "--out", str(out), "-q", "--workers", "1")
        assert code == 0, err
        written[how] = out.read_bytes()
    assert written["relative"] == written["dot"] == written["full"]
    provenance = SelectorModel.load(tmp_path / "dot.json").provenance
    assert provenance["trained_on"] == "5 labelled pages of the project p"
    assert {page["source"] for page in provenance["pages"]} == {str(project.resolve())}


@pytest.mark.timeout(300)
def test_the_model_in_place_is_known_whatever_the_spelling(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    project = six_pages_and_page_4_in_progress(tmp_path)
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")  # as the app's Learn
    assert code == 0, err
    model = project_model_path(project).read_bytes()
    for spelled, folder in (("p", tmp_path), (".", project), ("../p/../p", project)):
        monkeypatch.chdir(folder)
        code, printed, err = run(capsys, "train", "--project", spelled, "-q", "--workers", "1")
        assert code == 0, err
        assert "the project's model is the one it had" in printed and "not trained again" in printed, err
    assert project_model_path(project).read_bytes() == model and not (project / FORGOTTEN_MODEL).exists()
