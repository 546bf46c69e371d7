"""The app shows every stored time (UTC in the store) in the person's own zone, the same way on every screen:
the run list and its tip said UTC with no zone while History said local time."""

from __future__ import annotations

from pathlib import Path

from recordlens.annotator.labelling.review_panel import ReviewPanel, run_started_and_origin
from recordlens.annotator.qt.local_time import local_time
from recordlens.core.store import init_project


def test_a_stored_time_is_shown_in_the_local_zone(in_newfoundland: None) -> None:
    assert local_time("2026-12-05T17:10:13.962Z") == "2026-12-05 13:40:13"
    assert local_time("2026-12-05T17:10:13.962Z", seconds=False) == "2026-12-05 13:40"
    assert local_time("2026-12-05T17:10:13.962Z", zone=True) == "2026-12-05 13:40:13 NST"
    assert local_time("2026-07-05T17:10:13.962Z", zone=True) == "2026-07-05 14:40:13 NDT"  # its own summer time
    assert local_time("2026-12-05T17:10:13") == "2026-12-05 13:40:13"  # no zone written: the store's UTC
    assert local_time("not a time") == "not a time"


def test_the_run_list_and_its_tip_say_local_time_as_history_does(tmp_path: Path, in_newfoundland: None) -> None:
    with init_project(tmp_path / "p") as project:
        run_id = project.runs.add("repeats", started_at="2026-12-05T17:10:13.000Z")
        project.runs.finish(run_id, ended_at="2026-12-05T17:12:40.500Z")
        run = project.runs.get(run_id)
    assert run_started_and_origin(run) == "started 2026-12-05 13:40"
    assert ReviewPanel._run_tip(run).startswith(
        f"run {run_id}: repeats, started 2026-12-05 13:40:13 NST, ended 2026-12-05 13:42:40 NST")


def test_the_trajectory_viewer_says_local_time_too(in_newfoundland: None) -> None:
    from types import SimpleNamespace

    from recordlens.annotator.agent import trajectory_viewer

    run = SimpleNamespace(id=3, method="gemini-agent", parameters={}, started_at="2026-12-05T17:10:13.000Z")
    assert trajectory_viewer._run_title(run) == "Agent run 3 · gemini-agent · started 2026-12-05 13:40"
    assert trajectory_viewer._date("2026-12-05T17:10:13.000Z") == "2026-12-05 13:40"


def test_the_run_tip_names_a_folder_whose_name_is_not_utf8_by_its_bytes(tmp_path: Path) -> None:
    import os

    folder = os.fsdecode(b"/data/lat\xe9n1/run")  # as Python holds such a name: a lone surrogate
    with init_project(tmp_path / "p") as project:
        run = project.runs.get(project.runs.add("repeats", {"source": folder}))
    tip = ReviewPanel._run_tip(run)
    assert "from /data/lat\\xe9n1/run" in tip
    tip.encode("utf-8")  # what Qt is given: no lone surrogate
