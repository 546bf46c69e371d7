"""The project API: labels with provenance, every edit in the history, restore to any earlier state, page
status, runs and scores, agent-benchmark tables, schema migrations."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import ModelCall, Task, Trajectory
from recordlens.core.agent.targets import Target
from recordlens.core.records.score import DatasetScore, score_raw
from recordlens.core.store.db import connect
from recordlens.core.store.files import snapshot_path, store_snapshot
from recordlens.core.store.project import (
    Project,
    Provenance,
    StoreError,
    history_numbers,
    history_steps,
    init_project,
    open_project,
)
from recordlens.core.store.schema import MIGRATIONS, SCHEMA_VERSION, SchemaError, schema_version
from tests.core.old_projects import OLD_HASH, old_project

ANA = Provenance.person("ana")
MDR = Provenance.extractor("mdr", "0.3", "html", seed=7)
HTML = b"<html><body><ul><li>a</li><li>b</li><li>c</li></ul></body></html>"


@pytest.fixture
def project(tmp_path: Path) -> Project:
    project = init_project(tmp_path / "p")
    digest = store_snapshot(project.root, HTML, ".html")
    project.add_page("12", digest, ".html", len(HTML))
    yield project
    project.close()


def state(project: Project, page: str = "12") -> list[tuple[int, tuple[str, ...], str]]:
    return [(label.id, label.xpaths, label.status) for label in project.labels(page)]


def test_a_new_project_is_a_folder_with_a_wal_database_and_snapshots(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        assert project.schema_version() == SCHEMA_VERSION
        assert project.one("PRAGMA journal_mode")[0] == "wal"
        assert project.one("PRAGMA foreign_keys")[0] == 1
        assert {"pages", "records", "label_history", "runs", "predictions", "scores", "sites", "site_pages",
                "tasks", "trajectories", "steps", "agent_runs"} <= set(project.db.table_names())
    assert (tmp_path / "p" / "snapshots").is_dir()
    with pytest.raises(StoreError, match="already a RecordLens project"):
        init_project(tmp_path / "p")
    with pytest.raises(StoreError, match="there is no folder .*elsewhere; create a project there"):
        open_project(tmp_path / "elsewhere")
    init_project(tmp_path / "shops-2026").close()
    with pytest.raises(StoreError, match=r"there is no folder .*shosp-2026; did you mean .*shops-2026\?"):
        open_project(tmp_path / "shosp-2026")  # a mistyped name: the project beside it, not an invitation to make one
    (tmp_path / "empty").mkdir()
    with pytest.raises(StoreError, match="empty is not a RecordLens project .*project init"):
        open_project(tmp_path / "empty")
    (tmp_path / "p" / "project.db").write_bytes(b"")  # what a crash or a full disk can leave
    for leftover in ("project.db-wal", "project.db-shm"):
        (tmp_path / "p" / leftover).unlink(missing_ok=True)
    # a project of no page: what an unfinished init left, which `project init` takes over
    # (tests/core/test_project_init_left_unfinished.py); with pages, a crash's (the backup's wording)
    with pytest.raises(StoreError, match=r"project.db is empty \(0 bytes\) and the folder holds no saved page"):
        open_project(tmp_path / "p")
    assert (tmp_path / "p" / "project.db").stat().st_size == 0  # nothing written over it


def test_a_project_on_read_only_media_is_said_to_be_read_only(tmp_path: Path, monkeypatch) -> None:
    import sqlite3


    init_project(tmp_path / "p").close()

    from recordlens.core.store import db

    def cannot_open(path: object, **_: object) -> None:  # what SQLite says when WAL cannot make its lock files there
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(db.sqlite3, "connect", cannot_open)
    monkeypatch.setattr(db.os, "access", lambda path, mode: False)
    said = "unable to open database file.*the folder is read-only.*recordlens project copy"
    with pytest.raises(StoreError, match=said):
        open_project(tmp_path / "p")


def test_snapshots_are_content_addressed_read_only_and_stored_once(tmp_path: Path) -> None:
    digest = store_snapshot(tmp_path, HTML, ".html")
    path = snapshot_path(tmp_path, digest, ".html")
    assert path == tmp_path / "snapshots" / digest[:2] / f"{digest}.html"
    assert path.read_bytes() == HTML
    assert not path.stat().st_mode & 0o222
    assert store_snapshot(tmp_path, HTML, ".html") == digest
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_records_keep_order_provenance_and_status(project: Project) -> None:
    change = project.add_records("12", [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]], MDR)
    assert change.action == "add" and change.actor == MDR and change.id is not None
    assert project.page("12").status == "proposed"  # proposals move a new page on
    first, second = project.labels("12")
    assert (first.status, first.origin, first.changed_by) == ("proposed", MDR, None)
    project.accept(first.id, ANA)
    project.reject(second.id, ANA)
    first, second = project.labels("12")
    assert (first.status, first.changed_by, first.is_true) == ("accepted", ANA, True)
    assert (second.status, second.is_true) == ("rejected", False)
    assert project.true_records("12") == [["/body[1]/ul[1]/li[1]"]]
    mine = project.add_record("12", ["/body[1]/ul[1]/li[3]"], ANA).record
    assert (mine.status, mine.origin, mine.changed_by) == ("accepted", ANA, ANA)
    assert [label.id for label in project.labels("12")] == [first.id, second.id, mine.id]
    info = project.page("12")
    assert (info.true_labels, info.proposed, info.flagged, info.rejected) == (2, 0, 0, 1)


def test_a_persons_first_record_moves_a_new_page_into_progress_too(project: Project) -> None:
    # Found using the app: a record clicked on a new page left it "new", beside its "1 accepted".
    change = project.add_record("12", ["/body[1]/ul[1]/li[1]"], ANA)
    assert project.page("12").status == "proposed"  # shown as "in progress"
    assert change.detail["page_status"] == {"from": "new", "to": "proposed"}  # what an undo puts back
    project.add_record("12", ["/body[1]/ul[1]/li[2]"], ANA)
    assert "page_status" not in project.history("12")[-1].detail  # only the first moves it


def test_merge_and_split_say_where_records_came_from(project: Project) -> None:
    project.add_records("12", [["/a"], ["/b", "/c"], ["/d"]], MDR)
    a, bc, d = project.labels("12")
    merged = project.merge([bc.id, a.id], ANA).record
    assert merged.xpaths == ("/b", "/c", "/a")
    assert (merged.status, merged.derived_from, merged.origin, merged.changed_by) == ("edited", (bc.id, a.id), MDR, ANA)
    assert [label.id for label in project.labels("12")] == [merged.id, d.id]  # in the first one's place
    parts = project.split(merged.id, [["/b"], ["/c", "/a"]], ANA).after
    assert [p.derived_from for p in parts] == [(merged.id,), (merged.id,)]
    assert [label.xpaths for label in project.labels("12")] == [("/b",), ("/c", "/a"), ("/d",)]
    with pytest.raises(StoreError, match="own XPaths"):
        project.split(parts[0].id, [["/b"], ["/zzz"]], ANA)
    with pytest.raises(StoreError, match="at least two"):
        project.merge([d.id], ANA)


def test_a_split_without_places_puts_its_pieces_in_the_records_place_for_later_merges_and_splits(
        project: Project) -> None:
    """Without `before`, a split's pieces all took the record's position: ties broken by id, so a later merge of the
    first piece was put behind the second, and the badge numbers moved."""
    project.add_records("12", [["/a"], ["/b"], ["/c"], ["/d"]], MDR)
    a, b, c, d = project.labels("12")
    merged = project.merge([a.id, b.id], ANA).record
    first, second = project.split(merged.id, [["/a"], ["/b"]], ANA).after
    assert [label.id for label in project.labels("12")] == [first.id, second.id, c.id, d.id]
    again = project.merge([first.id, c.id], ANA).record  # where the first one was
    assert [label.id for label in project.labels("12")] == [again.id, second.id, d.id]
    pieces = project.split(again.id, [["/a"], ["/c"]], ANA).after  # in its place, in front of the second
    assert [label.id for label in project.labels("12")] == [pieces[0].id, pieces[1].id, second.id, d.id]
    last = project.split(project.merge([second.id, d.id], ANA).record.id, [["/b"], ["/d"]], ANA).after
    assert [label.id for label in project.labels("12")][-2:] == [last[0].id, last[1].id]  # the last: stays last


def test_a_failed_edit_leaves_no_trace(project: Project) -> None:
    record = project.add_record("12", ["/a"], MDR).record
    entries = len(project.history("12"))
    with pytest.raises(StoreError):
        project.merge([record.id, 999_999], ANA)
    with pytest.raises(StoreError, match="no longer in the project"):
        project.accept(999_999, ANA)
    assert len(project.history("12")) == entries
    assert state(project) == [(record.id, ("/a",), "proposed")]


def test_every_earlier_state_can_be_restored_and_a_restore_can_be_undone(project: Project) -> None:
    rng = random.Random(4)
    states = {}
    for step in range(60):
        labels = project.labels("12")
        action = rng.choice(["add", "add", "accept", "reject", "edit", "delete", "merge", "split"])
        if action == "add" or not labels:
            change = project.add_records("12", [[f"/x{step}", f"/y{step}"]], MDR)
        elif action == "accept":
            change = project.accept(rng.choice(labels).id, ANA)
        elif action == "reject":
            change = project.reject(rng.choice(labels).id, ANA)
        elif action == "edit":
            label = rng.choice(labels)
            change = project.edit(label.id, [*label.xpaths, f"/e{step}"], ANA)
        elif action == "merge" and len(labels) > 1:
            change = project.merge([x.id for x in rng.sample(labels, 2)], ANA)
        elif action == "split" and len(rng.choice(labels).xpaths) > 1:
            label = max(labels, key=lambda x: len(x.xpaths))
            change = project.split(label.id, [label.xpaths[:1], label.xpaths[1:]], ANA)
        else:
            change = project.delete(rng.choice(labels).id, ANA)
        if change.id is not None:  # a no-op (rejecting a rejected record) is not a change
            states[change.id] = state(project)
    final = state(project)
    for history_id, expected in rng.sample(sorted(states.items()), 20):
        restored = project.restore("12", history_id, ANA)
        assert state(project) == expected
        assert restored.action == "restore"
    project.restore("12", None, ANA)
    assert state(project) == []
    project.restore("12", max(states), ANA)
    assert state(project) == final
    assert project.restore("12", max(states), ANA).id is None  # nothing to change: nothing logged
    busy = max(history_id for history_id, labels in states.items() if labels)
    project.restore("12", busy, ANA)
    assert state(project) == states[busy]
    project.restore("12", project.history("12")[-2].id, ANA)  # a restore is undone like any change
    assert state(project) == final


def test_a_restore_takes_the_page_status_back_with_the_labels(project: Project) -> None:
    added = project.add_records("12", [["/a"], ["/b"]], MDR)  # new -> proposed
    project.accept(added.after[0].id, ANA)
    marked = project.set_status("12", "labelled", ANA)
    restored = project.restore("12", None, ANA)
    assert state(project) == [] and project.page("12").status == "new"
    assert restored.detail["page_status"] == {"from": "labelled", "to": "new"}
    project.restore("12", added.id, ANA)
    assert project.page("12").status == "proposed" and len(state(project)) == 2
    project.restore("12", marked.id, ANA)
    assert project.page("12").status == "labelled"
    assert [s for _, _, s in state(project)] == ["accepted", "proposed"]
    assert project.restore("12", project.history("12")[-1].id, ANA).id is None  # as it is: nothing logged


def test_a_page_imported_with_labels_before_the_status_was_logged_restores_to_new_too(tmp_path: Path) -> None:
    from recordlens.core.store.importer import import_paths

    (tmp_path / "data" / "html").mkdir(parents=True)
    (tmp_path / "data" / "gt").mkdir()
    (tmp_path / "data" / "html" / "1.html").write_bytes(HTML)
    (tmp_path / "data" / "gt" / "1.json").write_text('[["/html/body/ul/li[1]"]]', encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [tmp_path / "data"])
        with project.writing() as db:  # what a project imported before this session holds: no status move noted
            db.execute("UPDATE label_history SET detail = '{}'")
        assert project.page("1").status == "labelled"
        project.restore("1", None, ANA)
        assert project.labels("1") == [] and project.page("1").status == "new"


def test_records_added_in_front_of_others_move_those_down_in_the_same_undoable_change(project: Project) -> None:
    first = project.add_records("12", [["/a"], ["/d"]], ANA)  # positions 1, 2
    a, d = first.after
    project.delete(project.add_record("12", ["/x"], ANA).after[0].id, ANA)  # a gap: /e lands at 4
    e = project.add_record("12", ["/e"], ANA).after[0]
    added = project.add_records("12", [["/b"], ["/c"], ["/f"]], ANA, before=[d.id, d.id, None])
    assert [label.xpaths for label in project.labels("12")] == [("/a",), ("/b",), ("/c",), ("/d",), ("/e",),
                                                               ("/f",)]
    # Only the records that had to make room moved (/d from 2 to 4, /e from 4 to 5), in the change itself
    assert {label.id for label in added.before} == {d.id, e.id} and a.id not in {x.id for x in added.after}
    assert [label.xpaths for label in added.after[:3]] == [("/b",), ("/c",), ("/f",)]
    numbers = history_numbers(project.history("12"))[-1]
    assert [numbers.get(label.id) for label in project.labels("12")] == [None, 2, 3, 4, 5, 6]  # those it touched
    project.restore("12", project.history("12")[-2].id, ANA)  # the undo of the add
    assert [label.xpaths for label in project.labels("12")] == [("/a",), ("/d",), ("/e",)]
    project.restore("12", added.id, ANA)  # and its redo
    assert [label.xpaths for label in project.labels("12")][:4] == [("/a",), ("/b",), ("/c",), ("/d",)]
    assert project.add_records("12", [], ANA, before=[]).after == ()  # nothing to place
    # Records in front of the first one added keep their places, ties too (a split's pieces share one)
    two = project.add_record("12", ["/y1", "/y2"], ANA).after[0]
    parts = project.split(two.id, [["/y1"], ["/y2"]], ANA).after
    end = project.add_records("12", [["/z"]], ANA, before=[None])
    assert {label.id for label in end.before} == set() and {p.id for p in parts}.isdisjoint({x.id for x in end.after})


def test_history_says_who_did_what_and_when(project: Project) -> None:
    record = project.add_record("12", ["/a"], MDR).record
    project.edit(record.id, ["/a", "/b"], ANA)
    project.set_status("12", "labelled", ANA)
    history = project.history("12")
    assert [(c.action, c.actor) for c in history] == [("add", MDR), ("edit", ANA), ("status", ANA)]
    assert history[1].before[0].xpaths == ("/a",) and history[1].after[0].xpaths == ("/a", "/b")
    assert history[2].detail == {"from": "proposed", "to": "labelled"}
    assert history[0].at <= history[1].at <= history[2].at
    assert project.set_status("12", "labelled", ANA).id is None
    with pytest.raises(StoreError, match="unknown page status"):
        project.set_status("12", "done", ANA)


def test_changes_made_as_one_step_are_one_step_of_the_history_and_another_step_is_another(
        project: Project) -> None:
    records = project.add_records("12", [["/a"], ["/b"], ["/c"]], MDR).after
    with project.one_step("reject record"):
        project.reject(records[0].id, ANA)
        with project.one_step("inner"):  # a step inside a step is the outer one
            project.reject(records[1].id, ANA)
    with project.one_step("reject record"):  # the same words, another step
        project.reject(records[2].id, ANA)
    with pytest.raises(StoreError), project.one_step("accept record"):
        project.accept(10_000, ANA)
    project.accept(records[0].id, ANA)  # after a step that failed, a change made alone is alone
    history = project.history("12")
    steps = history_steps(history)
    assert [[c.action for c in step] for step in steps] == [["add"], ["reject", "reject"], ["reject"], ["accept"]]
    assert steps[1][0].step == steps[1][1].step and steps[1][0].step[1] == "reject record"
    assert steps[2][0].step != steps[1][0].step and history[0].step is None and history[-1].step is None
    reopened = open_project(project.root)  # the steps are in the file, not in this session's memory
    try:
        assert [len(step) for step in history_steps(reopened.history("12"))] == [1, 2, 1, 1]
    finally:
        reopened.close()


def test_an_edit_that_changes_nothing_is_not_stored(project: Project) -> None:
    record = project.add_record("12", ["/a"], MDR).record
    assert project.reject(record.id, ANA).id is not None
    entries = len(project.history("12"))
    again = project.reject(record.id, ANA)
    assert again.id is None and again.before == again.after
    project.accept(record.id, ANA)
    assert project.accept(record.id, ANA).id is None
    assert project.edit(record.id, ["/a"], ANA).id is None
    assert len(project.history("12")) == entries + 1
    assert project.labels("12")[0].status == "accepted"


def test_unresolved_xpaths_are_kept_and_flagged(project: Project) -> None:
    project.add_records("12", [["/body[1]/ul[1]/li[1]", "/body[1]/ul[1]/li[9]"], ["/html/body/ul/li[2]"]], ANA)
    assert project.flag_unresolved("12") == 1
    first, second = project.labels("12")
    assert first.xpaths == ("/body[1]/ul[1]/li[1]", "/body[1]/ul[1]/li[9]")
    assert (first.unresolved, second.unresolved) == (("/body[1]/ul[1]/li[9]",), ())
    assert project.page("12").flagged == 1


def test_runs_keep_predictions_and_scores(project: Project) -> None:
    run = project.runs.add("mdr", {"version": "0.3"})
    project.runs.add_predictions(run, {"12": [["/body[1]/ul[1]/li[1]"]]})
    page_score = replace(score_raw([["/a"]], [["/a"], ["/b"]]), page="12")
    project.runs.add_scores(run, DatasetScore([page_score]), changes_seen=project.last_change_id() or 0)
    project.runs.finish(run, cost={"seconds": 1.5})
    (info,) = project.runs.all()
    assert (info.method, info.parameters, info.status, info.cost) == ("mdr", {"version": "0.3"}, "finished",
                                                                     {"seconds": 1.5})
    assert (info.predicted_pages, info.scored_pages, info.recall) == (1, 1, 0.5)
    assert project.runs.predictions(run) == {"12": [["/body[1]/ul[1]/li[1]"]]}
    assert project.runs.scores(run)[0].f1 == pytest.approx(2 / 3)
    with pytest.raises(StoreError, match="no run 99"):
        project.runs.get(99)


def test_agent_tables_hold_a_site_a_task_and_a_trajectory(project: Project) -> None:
    site = project.agent.add_site("arxiv-2024", folder="sites/arxiv")
    project.agent.add_site_page(site, "https://arxiv.org/list/cs.CL", "12")
    task = Task("count-1", "How many papers are listed?", "3", category="counting", answer_kind="number",
                normalise=("numbers", "whitespace"), start_url="https://arxiv.org/list/cs.CL")
    row = project.agent.save_task(site, task)
    assert project.agent.save_task(site, task) == row  # the same id on the same site is updated, not added again
    steps = [Step("scroll", None, "down", "https://arxiv.org/list/cs.CL", screenshot_before="a", screenshot_after="b",
                  thought="more below", seconds=0.5, raw="Scroll [WINDOW]; down"),
             Step("", None, None, "https://arxiv.org/list/cs.CL", raw="hmm", error="no action"),
             Step("answer", Target(xpath="/body[1]/ul[1]", text="3"), "3", "https://arxiv.org/list/cs.CL")]
    trajectory = Trajectory("count-1", "person:ana", steps, answer="3", success=True)
    stored = project.agent.add_trajectory(row, trajectory)
    assert project.agent.site_pages(site) == {"https://arxiv.org/list/cs.CL": "12"}
    assert project.agent.tasks(site) == [replace(task, site="arxiv-2024")]
    assert project.agent.task_row_id("count-1") == row
    assert project.agent.steps(stored) == [replace(s, at=project.agent.steps(stored)[0].at) for s in steps]
    [(row_id, back)] = project.agent.trajectories(reference=True)
    assert (row_id, back.actor, back.answer, back.success, back.run, back.steps[2].target) == (
        stored, "person:ana", "3", True, None, Target(xpath="/body[1]/ul[1]", text="3"))
    with pytest.raises(StoreError, match="unknown step action"):
        project.agent.add_trajectory(row, Trajectory("count-1", "person:ana", [Step("hover", url="u")]))
    with pytest.raises(StoreError, match="no task 'nope'"):
        project.agent.task_row_id("nope")


def test_agent_runs_keep_run_index_stop_screenshots_and_every_model_call(project: Project) -> None:
    site = project.agent.site_id("demo")
    assert project.agent.site_id("demo") == site
    row = project.agent.save_task(site, Task("t1", "Find it", "x"))
    run = project.agent.add_run("gemini-2.5-pro", {"memory": "window:3"})
    png = b"\x89PNG fake"
    digest = hashlib.sha256(png).hexdigest()
    trajectory = Trajectory("t1", "agent:gemini-2.5-pro/window:3", [
        Step("click", Target(label=2, xpath="/body[1]/a[1]"), url="u", screenshot_before=digest)],
        run=2, stop="budget", success=False,
        calls=[ModelCall(1, "prompt", "Click [2]", {"total": 12}, 0.25, system="sys", images=1),
               ModelCall(2, "prompt 2", None, error="HTTP 500")],
        screenshots={digest: png})
    stored = project.agent.add_trajectory(row, trajectory, agent_run_id=run)
    project.agent.finish_run(run, {"tokens": 12})
    [(_, back)] = project.agent.trajectories(agent_run_id=run)
    assert (back.actor, back.run, back.stop, back.success) == ("agent:gemini-2.5-pro/window:3", 2, "budget", False)
    assert project.agent.model_calls(stored) == trajectory.calls
    assert project.agent.screenshot_file(digest).read_bytes() == png
    assert project.agent.screenshot_file("0" * 64) is None
    assert project.agent.trajectories(reference=True) == []
    assert project.agent.runs()[0].cost == {"tokens": 12} and project.agent.runs()[0].ended_at


def test_a_version_2_project_gets_the_agent_columns_and_keeps_its_tasks(tmp_path: Path) -> None:
    folder = old_project(tmp_path / "v2", 2, "INSERT INTO sites (name, created_at) VALUES ('s', 't')",
                         "INSERT INTO tasks (site_id, instruction, gold_answer, start_url, created_at) "
                         "VALUES (1, 'Count them', '3', 'https://a.org/', 't')")
    with open_project(folder) as project:
        assert project.schema_version() == SCHEMA_VERSION == 12
        expected = Task("1", "Count them", "3", normalise=(), start_url="https://a.org/", site="s")
        assert project.agent.tasks() == [expected]
        assert "model_calls" in project.db.table_names()


def test_a_version_1_project_is_migrated_on_open_and_keeps_its_data(tmp_path: Path) -> None:
    folder = old_project(tmp_path / "old", 1, f"INSERT INTO snapshots VALUES ('{OLD_HASH}', '.html', 1, 't')",
                         "INSERT INTO pages (name, snapshot, imported_at, updated_at) "
                         f"VALUES ('7', '{OLD_HASH}', 't', 't')")
    db = connect(folder / "project.db")
    assert schema_version(db.conn) == 1 and "sites" not in db.table_names()
    db.close()
    with open_project(folder) as project:
        assert project.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        assert "sites" in project.db.table_names()
        assert [p.name for p in project.pages()] == ["7"]


def test_a_newer_or_foreign_database_is_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer"
    init_project(newer).close()
    with sqlite3.connect(newer / "project.db") as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaError, match="newer"):
        open_project(newer)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    with sqlite3.connect(foreign / "project.db") as conn:
        conn.execute("CREATE TABLE notes (x)")
    with pytest.raises(SchemaError, match="not a RecordLens project"):
        open_project(foreign)
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "project.db").write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        open_project(garbage)
