"""A score that went with its prediction before schema 10 kept what it had seen (`predictions.score_dropped_seen`,
empty after the upgrade) is said as the labels' or the predictions' doing, not as a label change: nothing says
which. A page labelled or changed since the run was scored is still said as such, and so is a page brought into the
project since (its prediction never had a score to lose, whatever schema stored it)."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.store import open_project
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance
from tests.core.old_projects import as_earlier_schema
from tests.core.shop_runs import page_html, scored_project

ANA = Provenance.person("ana")


def test_a_score_dropped_before_schema_10_is_not_said_as_a_label_change(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)  # pages 0, 1, 2 labelled; run 1 predicts and scores them all
    with open_project(folder) as project:  # page 1's prediction replaced: its score goes with it
        project.runs.add_predictions(1, {"1": project.runs.predictions(1)["1"][:1]})
    as_earlier_schema(folder, 9)  # as RecordLens of schema 9 left it: nothing kept of the score that went
    with open_project(folder) as project:
        assert project.schema_version() == 12
        assert project.runs.stale_pages(1) == ["1"]
        assert project.runs.why_stale(1) == ("the labels or the run's predictions of 1 page changed since it was "
                                             "scored (1) (the project kept no word of which)")
        assert "labelled, changed or unmarked" not in project.runs.why_stale(1, names=False)

        project.set_status("2", "proposed", ANA)  # page 2 unmarked since: its labels' doing, said so
        assert project.runs.why_stale(1) == (
            "the labels or the run's predictions of 1 page changed since it was scored (1) (the project kept no "
            "word of which); 1 page labelled, changed or unmarked since it was scored (2)")


def test_a_page_labelled_since_the_run_was_scored_is_still_said_labelled_after_the_upgrade(tmp_path: Path) -> None:
    folder = scored_project(tmp_path)
    with open_project(folder) as project:  # page 1's prediction replaced, and its labels changed since the score
        project.runs.add_predictions(1, {"1": project.runs.predictions(1)["1"][:1]})
        project.reject(next(label for label in project.labels("1") if label.is_true).id, ANA)
    as_earlier_schema(folder, 9)
    with open_project(folder) as project:
        assert project.runs.why_stale(1) == "1 page labelled, changed or unmarked since it was scored (1)"


def test_a_page_brought_in_since_the_score_is_said_labelled_since_in_a_project_never_upgraded(tmp_path: Path) -> None:
    """No earlier RecordLens ever: page 3 is imported marked labelled with no record ([]: no label change), after
    run 1 was scored, and the run is given a prediction of it. Its prediction keeps no dropped score (it never had
    one): the page came in, and was labelled, since the run was scored."""
    folder = scored_project(tmp_path)
    data = tmp_path / "more"
    (data / "html").mkdir(parents=True)
    (data / "gt").mkdir()
    (data / "html" / "3.html").write_text(page_html(3), encoding="utf-8")
    (data / "gt" / "3.json").write_text("[]", encoding="utf-8")
    with open_project(folder) as project:
        import_paths(project, [data])
        assert project.page("3").status == "labelled"
        project.runs.add_predictions(1, {"3": [["/body[1]/ul[1]/li[1]"]]})
        assert project.runs.stale_pages(1) == ["3"]
        assert project.runs.why_stale(1) == "1 page labelled, changed or unmarked since it was scored (3)"
