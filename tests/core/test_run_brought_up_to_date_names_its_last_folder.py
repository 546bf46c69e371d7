"""A run brought up to date from a folder (`runs --add` of its folder, or of a copy of it, gone on since) names that
folder from then on: it holds what the run holds now, where the folder it was first added from may hold less (or be
gone). It named the first folder still, and its deleted copy said that folder too."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store import import_paths, init_project
from recordlens.core.store.runs import run_origin
from tests.core.shop_runs import dataset


def test_a_run_finished_from_another_folder_names_it(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])
        first, copy = str(tmp_path / "A"), str(tmp_path / "B")
        run = project.runs.add("handmade", {"input_format": "flat", "source": first})
        project.runs.add_predictions(run, {"0": []})
        project.runs.finish(run)
        assert run_origin(project.runs.get(run).parameters) == "from A"
        project.runs.add_predictions(run, {"1": []})  # brought up to date from B, a copy of A gone on
        project.runs.finish(run, source=copy)
        held = project.runs.get(run)
        assert held.parameters == {"input_format": "flat", "source": copy}
        assert run_origin(held.parameters, held.cost) == "from B"
        project.runs.finish(run)  # finished again without a folder: the folder named stays
        assert project.runs.get(run).parameters["source"] == copy
