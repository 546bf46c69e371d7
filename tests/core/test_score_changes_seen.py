"""A stored score says the latest label change committed when its labels were read (schema 8), so a change
committed later leaves it stale whatever the clocks said: an edit whose transaction began before scoring read the
labels and committed after, and an edit made after the clock stepped back. Scores stored before schema 8 are
judged by their time, as before."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from recordlens.core.store import (
    import_paths,
    init_project,
    open_project,
    score_stored_run,
    take_upgrades,
)
from recordlens.core.store import project as project_module
from recordlens.core.store import runs as runs_module
from recordlens.core.store.project import Project, Provenance
from tests.core.old_projects import as_earlier_schema
from tests.core.shop_runs import dataset, scored_project

ME = Provenance("person", "me")



def reject_a_true_record(project: Project, page: str) -> None:
    first = next(label for label in project.labels(page) if label.is_true)
    project.reject(first.id, ME)


def test_an_edit_made_after_the_clock_stepped_back_leaves_the_score_stale(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A laptop's clock stepped back an hour after the run was scored (an NTP step): the edit's time is earlier
    than the score's, and the score was kept as current though the page's truth had changed."""
    folder = scored_project(tmp_path)
    monkeypatch.setattr(project_module, "now", lambda: "2000-01-01T00:00:00.000Z")
    with open_project(folder) as project:
        reject_a_true_record(project, "1")
        assert project.runs.stale_pages(1) == ["1"]
        assert "1 page labelled, changed or unmarked since it was scored" in project.runs.why_stale(1)
        fresh, _, _ = score_stored_run(project, 1)
        assert project.runs.stale_pages(1) == []
        assert next(s for s in fresh.pages if s.page == "1").true_records == 1


def test_an_edit_committed_while_scoring_read_the_labels_leaves_the_score_stale(tmp_path: Path) -> None:
    """The app saves an edit (its time taken, its transaction open) while `recordlens score` runs in a terminal:
    scoring reads the labels as they were before the edit, then stores its score once the edit has committed.
    The edit's time is earlier than the score's, yet the score does not hold its change."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        for page in project.page_names():  # every page is scored again below (none kept: nothing else written)
            reject_a_true_record(project, page)
    labels_read, edit_begun = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def edit_in_the_app() -> None:
        try:
            with open_project(folder) as app, app.writing():
                reject_a_true_record(app, "2")
                edit_begun.set()
                assert labels_read.wait(60)
        except BaseException as error:  # noqa: BLE001 - said by the test below
            failures.append(error)
            edit_begun.set()

    editor = threading.Thread(target=edit_in_the_app)
    editor.start()
    assert edit_begun.wait(60)

    def reading(names: Sequence[str]) -> Iterator[str]:
        yield from names
        labels_read.set()  # every label read: the edit may commit, before the scores are stored

    try:
        with open_project(folder) as project:
            # The labels of page 2 scoring reads are those before the edit (its transaction is open)
            assert len(project.true_records("2")) == 1
            scored, _, _ = score_stored_run(project, 1, progress=reading)
            assert next(s for s in scored.pages if s.page == "2").true_records == 1
            editor.join(60)
            assert not failures, failures
            assert project.true_records("2") == []
            assert project.runs.stale_pages(1) == ["2"]
    finally:
        labels_read.set()
        editor.join(60)


def test_scores_stored_before_schema_8_get_the_latest_change_their_time_was_after(tmp_path: Path) -> None:
    """A project scored by RecordLens of schema 7 (its scores say no label change): the upgrade gives each score
    the latest change made before it by the clock, so a change made after it by the clock leaves it stale as
    schema 7 judged it, and from then on an edit after the clock stepped back does too."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        reject_a_true_record(project, "2")  # after the score: page 2 stale, whichever judges it
        latest_before = project.db.execute("SELECT MAX(id) FROM label_history WHERE at <= "
                                           "(SELECT MIN(scored_at) FROM scores)").fetchone()[0]
    as_earlier_schema(folder, 7)
    with open_project(folder) as project:
        assert take_upgrades()  # schema 7 -> 9, said once
        assert {row[0] for row in project.db.execute("SELECT changes_seen FROM scores")} == {latest_before}
        assert project.runs.stale_pages(1) == ["2"]
    with pytest.MonkeyPatch.context() as clock:
        clock.setattr(project_module, "now", lambda: "2000-01-01T00:00:00.000Z")
        with open_project(folder) as project:
            reject_a_true_record(project, "1")
            assert project.runs.stale_pages(1) == ["1", "2"]


def test_a_score_without_the_change_it_saw_is_judged_by_its_time(tmp_path: Path) -> None:
    """A score that comes back with a removed page's copy made before schema 8 says no change: a change after it
    by the clock leaves it stale, one before does not."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.db.execute("UPDATE scores SET changes_seen = NULL")
        project.db.conn.commit()
        assert project.runs.stale_pages(1) == []
        reject_a_true_record(project, "1")
        assert project.runs.stale_pages(1) == ["1"]
        project.db.execute("UPDATE label_history SET at = '2000-01-01T00:00:00.000Z'")
        project.db.conn.commit()
        assert project.runs.stale_pages(1) == []


def test_predictions_changed_after_the_score_leave_it_stale_whatever_the_clocks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run scored while it ran (2 of 3 pages predicted), then finished after the clock stepped back: its end
    came before its score by the clock, and the old scores were kept, the pages predicted since at F1 0."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(tmp_path / "data", 3)])
        for name in project.page_names():
            project.set_status(name, "labelled", ME)
        run_id = project.runs.start("handmade")
        truth = {name: project.true_records(name) for name in project.page_names()}
        project.runs.add_predictions(run_id, {"0": truth["0"], "1": truth["1"]})
        project.runs.finish(run_id, status="cancelled")
        before, _, _ = score_stored_run(project, run_id)
        assert [round(s.f1, 3) for s in before.pages] == [1.0, 1.0, 0.0]
        monkeypatch.setattr(runs_module, "now", lambda: "2000-01-01T00:00:00.000Z")
        project.runs.add_predictions(run_id, {"1": truth["1"], "2": truth["2"]})  # "1" as it was: kept
        project.runs.finish(run_id)
        assert project.runs.stale_pages(run_id) == ["2"]
        after, _, _ = score_stored_run(project, run_id)
        assert [round(s.f1, 3) for s in after.pages] == [1.0, 1.0, 1.0]
        assert project.runs.stale_pages(run_id) == []


def test_the_upgrade_keeps_stale_a_score_a_stepped_back_clock_made_look_fresh(tmp_path: Path) -> None:
    """Schema 7 judged a score stale when a change's time was after it. A change made after the clock stepped back
    has a larger id and an earlier time than one after the score: the upgrade must not count the later-timed change
    as seen because a larger id came before the score by the clock."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        reject_a_true_record(project, "2")  # after the score, by id and by time
        reject_a_true_record(project, "0")  # after it too, but its time is set back below
        project.db.execute("UPDATE label_history SET at = '2000-01-01T00:00:00.000Z' WHERE id = "
                           "(SELECT MAX(id) FROM label_history)")
        project.db.conn.commit()
    as_earlier_schema(folder, 7)
    with open_project(folder) as project:
        assert take_upgrades()
        assert "2" in project.runs.stale_pages(1)  # as schema 7 said; page 0 errs on the stale side


def test_the_upgrade_makes_again_a_score_older_than_its_runs_end(tmp_path: Path) -> None:
    """Before schema 8 a change of a run's predictions kept the page's score, and `score` judged it by the run's
    end: a score made before a resume replaced predictions would now be kept as if current."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:  # what schema 7 left: page 0's predictions replaced, the run ended since
        project.db.execute("UPDATE predictions SET records = '[]' "
                           "WHERE page_id = (SELECT id FROM pages WHERE name = '0')")
        project.db.execute("UPDATE runs SET ended_at = '2999-01-01T00:00:00.000Z'")
        project.db.conn.commit()
    as_earlier_schema(folder, 7)
    with open_project(folder) as project:
        assert take_upgrades()
        assert project.runs.stale_pages(1) == ["0", "1", "2"]
        assert "scored by an earlier RecordLens" in project.runs.why_stale(1)
        scored, _, _ = score_stored_run(project, 1)
        assert next(s for s in scored.pages if s.page == "0").predicted_records == 0
        assert project.runs.stale_pages(1) == []


def test_a_score_without_the_change_it_saw_holds_only_if_made_after_its_runs_end(tmp_path: Path) -> None:
    """A score that comes back with a removed page's copy made before schema 8 (no change seen) over predictions a
    resume replaced since: judged by the run's end, as before."""
    folder = scored_project(tmp_path)
    with open_project(folder) as project:
        project.db.execute("UPDATE scores SET changes_seen = NULL")
        project.db.execute("UPDATE predictions SET records = '[]' "
                           "WHERE page_id = (SELECT id FROM pages WHERE name = '0')")
        project.db.execute("UPDATE runs SET ended_at = '2999-01-01T00:00:00.000Z'")
        project.db.conn.commit()
        scored, _, _ = score_stored_run(project, 1)
        assert next(s for s in scored.pages if s.page == "0").predicted_records == 0
