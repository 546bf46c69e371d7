"""`train --project P --out PATH` where PATH names the project's own model otherwise (absolute, or through `..`)
trains it as the project's own: under the training lock, the earlier model set aside. The paths used to be compared
as written, so such a PATH overwrote the earlier model, unlocked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.store import learnt_model
from recordlens.core.store.learnt_model import FORGOTTEN_MODEL, project_model_path
from tests.core.catalogue_pages import six_pages_and_page_4_in_progress
from tests.core.cli_runs import run

NAMED = {
    "absolute": lambda project: str(project_model_path(project).resolve()),
    "through ..": lambda project: str(project / "models" / ".." / "models" / "selector.json"),
}


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Six pages imported with their labels (labelled), page 4 set back to in progress."""
    return six_pages_and_page_4_in_progress(tmp_path)


@pytest.mark.parametrize("named", list(NAMED))
def test_the_projects_own_model_named_otherwise_is_trained_as_its_own(
        named: str, project_dir: Path, quick_fits, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project_dir.parent)
    project = Path(os.path.relpath(project_dir))  # relative, as typed
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1")
    assert code == 0, err
    first = project_model_path(project).read_bytes()
    locked: list[Path] = []
    real = learnt_model.training_the_project

    def watched(folder):  # noqa: ANN001, ANN202 - the context manager's own
        locked.append(Path(folder))
        return real(folder)

    monkeypatch.setattr(learnt_model, "training_the_project", watched)
    code, _, err = run(capsys, "train", "--project", str(project), "--out", NAMED[named](project), "--seed", "1",
                       "-q", "--workers", "1")
    assert code == 0, err
    assert locked == [project]
    assert (project / FORGOTTEN_MODEL).read_bytes() == first  # set aside, not overwritten
