"""A score that went with its prediction before schema 10 kept what it had seen (`predictions.score_dropped_seen`,
empty after the upgrade) is said as the labels' or the predictions' doing, not as a label change: nothing says
which. A page labelled or changed since the run was scored is still said as such."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import open_project, take_upgrades
from recordlens.core.store.project import Provenance
from tests.core.old_projects import as_earlier_schema
from tests.core.test_score_reader_version import scored_project

ANA = Provenance.person("ana")


@pytest.fixture(autouse=True)
def _no_upgrade_left_unsaid() -> None:
    take_upgrades()


def test_a_score_dropped_before_schema_10_is_not_said_as_a_label_change(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)  # pages 0, 1, 2 labelled; run 1 predicts and scores them all
    with open_project(folder) as project:  # page 1's prediction replaced: its score goes with it
        project.runs.add_predictions(1, {"1": project.runs.predictions(1)["1"][:1]})
    as_earlier_schema(folder, 9)  # as RecordLens of schema 9 left it: nothing kept of the score that went
    with open_project(folder) as project:
        assert project.schema_version() == 10
        assert project.runs.stale_pages(1) == ["1"]
        assert project.runs.why_stale(1) == ("the labels or the run's predictions of 1 page changed since it was "
                                             "scored (1) (an earlier RecordLens kept no word of which)")
        assert "labelled, changed or unmarked" not in project.runs.why_stale(1, names=False)

        project.set_status("2", "proposed", ANA)  # page 2 unmarked since: its labels' doing, said so
        assert project.runs.why_stale(1) == (
            "the labels or the run's predictions of 1 page changed since it was scored (1) (an earlier RecordLens "
            "kept no word of which); 1 page labelled, changed or unmarked since it was scored (2)")


def test_a_page_labelled_since_the_run_was_scored_is_still_said_labelled_after_the_upgrade(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:  # page 1's prediction replaced, and its labels changed since the score
        project.runs.add_predictions(1, {"1": project.runs.predictions(1)["1"][:1]})
        project.set_status("1", "proposed", ANA)
        project.set_status("1", "labelled", ANA)
    as_earlier_schema(folder, 9)
    with open_project(folder) as project:
        assert project.runs.why_stale(1) == "1 page labelled, changed or unmarked since it was scored (1)"
