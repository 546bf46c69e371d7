"""`project init` (and the app's Create) refuses a folder inside another project, where the new project's database
would nest in the first's folders (its snapshots/, or any folder made there), and says which project it lies in."""

from __future__ import annotations

import pytest

from recordlens.core.errors import RecordLensError
from recordlens.core.store import init_project, project_holding


@pytest.mark.parametrize("inside", ["snapshots", "models", "notes/deeper"])
def test_a_project_is_not_made_inside_another(tmp_path, inside) -> None:
    outer = tmp_path / "P"
    with init_project(outer):
        pass
    folder = outer / inside
    folder.mkdir(parents=True, exist_ok=True)
    with pytest.raises(RecordLensError, match="lies inside the RecordLens project"):
        init_project(folder)
    assert not (folder / "project.db").exists()
    assert project_holding(folder) == outer


def test_a_folder_beside_a_project_is_no_project_s(tmp_path) -> None:
    with init_project(tmp_path / "P"):
        pass
    with init_project(tmp_path / "Q") as beside:
        assert beside.root.name == "Q"
    assert project_holding(tmp_path / "Q") is None
