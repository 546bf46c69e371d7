"""Taking a page out of a project: everything the project held about it is written to removed/ first, then the
page and its rows go in one transaction; the other pages, and the snapshot file, stay as they were."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import Provenance, StoreError, import_paths, init_project, open_project, remove_page

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"
MDR = Provenance.extractor("mdr", "0.3", "html")


def test_a_removed_page_is_kept_whole_in_removed_and_gone_from_the_project(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        labels = project.labels("2")
        project.accept(project.add_record("2", ["/body[1]/h1[1]"], MDR).record.id, Provenance.person("ana"))
        run = project.runs.add("handmade")
        project.runs.add_predictions(run, {"2": [["/body[1]"]], "3": [["/body[1]"]]})
        snapshot = project.snapshot_file("2")
        removed = remove_page(project, "2")
        assert [p.name for p in project.pages()] == ["1", "3", "4"]
        assert project.runs.predictions(run) == {"3": [["/body[1]"]]}
        assert snapshot.is_file()  # the stored snapshot stays (content-addressed)
    kept = json.loads(removed.kept.read_text(encoding="utf-8"))
    assert removed.kept.parent == tmp_path / "p" / "removed"
    assert kept["page"]["name"] == "2" and len(kept["records"]) == len(labels) + 1
    assert kept["snapshot"][0]["hash"] == kept["page"]["snapshot"] and kept["schema_version"] > 0
    origins = {row["origin_id"] for row in kept["records"]}
    assert origins <= {row["id"] for row in kept["provenances"]}  # who made them, without the database
    assert len(kept["label_history"]) == 3 and len(kept["predictions"]) == 1
    assert removed.rows["records"] == len(labels) + 1
    with sqlite3.connect(tmp_path / "p" / "project.db") as db:  # nothing of the page left behind
        for table in ("records", "label_history", "predictions", "label_checks"):
            assert db.execute(f"SELECT COUNT(*) FROM {table} WHERE page_id = {kept['page']['id']}").fetchone() == (0,)
    with open_project(tmp_path / "p") as project:
        assert len(project.labels("1")) > 0  # the other pages as they were
        with pytest.raises(StoreError, match="no page named '2'"):
            remove_page(project, "2")


def test_the_command_checks_every_page_before_it_removes_any(tmp_path: Path, capsys) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        project.agent.add_site_page(project.agent.site_id("shop"), "https://shop.example/", "4")
    assert main(["project", "remove-page", "1", "nine", "--project", str(tmp_path / "p")]) == 2
    assert "no page named 'nine'" in capsys.readouterr().err
    assert main(["project", "remove-page", "1", "4", "--project", str(tmp_path / "p")]) == 2
    assert "belongs to the agent site 'shop'" in capsys.readouterr().err
    assert main(["project", "remove-page", "1", "--project", str(tmp_path / "p")]) == 0
    said = capsys.readouterr().out
    assert said.startswith("removed page 1 (") and "labels" in said and f"kept in {tmp_path / 'p' / 'removed'}" in said
    with open_project(tmp_path / "p") as project:
        assert [p.name for p in project.pages()] == ["2", "3", "4"]
    # The same list again, after a removal stopped part way: what is gone already is said, the rest removed
    assert main(["project", "remove-page", "1", "2", "--project", str(tmp_path / "p")]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"page 1 was removed already; kept in {tmp_path / 'p' / 'removed'}")
    assert said[1].startswith("removed page 2 (")
    assert main(["project", "remove-page", "nine", "--project", str(tmp_path / "p")]) == 2  # never there: refused


def test_a_page_of_an_agent_site_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        site = project.agent.site_id("shop")
        project.agent.add_site_page(site, "https://shop.example/", "1")
        with pytest.raises(StoreError, match="belongs to the agent site 'shop'"):
            remove_page(project, "1")
        assert [p.name for p in project.pages()][0] == "1" and project.labels("1")
    assert not (tmp_path / "p" / "removed").exists()


def test_a_copy_that_cannot_be_written_leaves_the_page_where_it_was(tmp_path: Path, monkeypatch) -> None:
    import os

    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        before = project.labels("3")

        def disk_full(*_args: object) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "fsync", disk_full)
        with pytest.raises(StoreError, match="page 3 not removed: its copy could not be written .*No space left"):
            remove_page(project, "3")
        monkeypatch.undo()
        assert project.labels("3") == before and project.has_page("3")
        assert not list((tmp_path / "p" / "removed").glob("*.json"))  # no copy cut short left behind
        first, second = remove_page(project, "3"), remove_page(project, "4")
        assert first.kept != second.kept and first.kept.is_file() and second.kept.is_file()


def test_a_removed_page_comes_back_whole_from_its_copy_and_only_once(tmp_path: Path, capsys) -> None:
    from recordlens.core.store.page_removal import restore_page

    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        project.accept(project.add_record("2", ["/body[1]/h1[1]"], MDR).record.id, Provenance.person("ana"))
        project.annotators.set_page("bea", "2", [["/body[1]"]])
        kept_run, gone_run = project.runs.add("handmade"), project.runs.add("other")
        project.runs.add_predictions(kept_run, {"2": [["/body[1]"]]})
        project.runs.add_predictions(gone_run, {"2": [["/body[1]/h1[1]"]]})
        before = (project.page("2"), project.labels("2"), project.history("2"), project.annotators.records("bea", "2"))
        removed = remove_page(project, "2")
        with project.writing() as db:  # a run gone since
            db.execute("DELETE FROM predictions WHERE run_id = ?", (gone_run,))
            db.execute("DELETE FROM runs WHERE id = ?", (gone_run,))
    assert main(["project", "restore-page", str(removed.kept), "--project", str(tmp_path / "p")]) == 0
    said = capsys.readouterr().out
    assert said.startswith("restored page 2 (") and "1 prediction(s) and score(s) of runs no longer" in said
    with open_project(tmp_path / "p") as project:
        assert [p.name for p in project.pages()] == ["1", "2", "3", "4"]
        page, labels, history, bea = before
        assert project.page("2") == page and project.labels("2") == labels  # the same ids, statuses, positions
        assert project.history("2") == history and project.annotators.records("bea", "2") == bea
        assert project.runs.predictions(kept_run) == {"2": [["/body[1]"]]}
        assert project.restore("2", history[0].id, Provenance.person("ana")).id is not None  # its history works
        # The copy moved to removed/restored/: the same file cannot bring the page back twice
        assert not removed.kept.exists() and (tmp_path / "p" / "removed" / "restored" / removed.kept.name).is_file()
        with pytest.raises(StoreError, match="not a readable copy"):
            restore_page(project, removed.kept)
        again = remove_page(project, "2")
        project.snapshot_file("1")  # another page's snapshot, untouched
        (tmp_path / "p" / "snapshots" / page.snapshot[:2] / f"{page.snapshot}{page.suffix}").unlink()
        with pytest.raises(StoreError, match="gone from snapshots/: the page cannot be put back") as refused:
            restore_page(project, again.kept)
        assert str(refused.value).startswith("page '2': its saved copy (")  # not "page 2's saved copy"
        assert again.kept.is_file() and not project.has_page("2")  # refused: nothing written, the copy kept


def test_a_page_put_back_under_a_new_id_keeps_its_history_on_itself(tmp_path: Path) -> None:
    from recordlens.core.store.page_removal import restore_page

    ana = Provenance.person("ana")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO / "html" / "1.html", DEMO / "html" / "2.html"])
        first = project.add_record("2", ["/body[1]/h1[1]"], ana)
        project.edit(first.record.id, ["/body[1]"], ana)
        history = project.history("2")
        removed = remove_page(project, "2")  # the last page imported: its id is free again...
        import_paths(project, [DEMO / "html" / "3.html"])  # ...and page 3 takes it
        restore_page(project, removed.kept)
        assert project.labels("3") == [] and len(project.labels("2")) == 1
        project.restore("2", history[0].id, ana)  # back before the edit: on page 2, not on the page with its old id
        assert [label.xpaths for label in project.labels("2")] == [("/body[1]/h1[1]",)]
        assert project.labels("3") == []
        project.restore("2", None, ana)
        assert project.labels("2") == [] and project.labels("3") == []
        project.restore("2", project.history("2")[-2].id, ana)  # and forward again: no id clash
        assert len(project.labels("2")) == 1


def test_a_copy_whose_ids_the_project_gave_to_others_is_refused(tmp_path: Path) -> None:
    from recordlens.core.store.page_removal import restore_page

    for folder in ("p", "q"):  # two projects of the same pages: the same provenances, the same snapshot
        with init_project(tmp_path / folder) as project:
            import_paths(project, [DEMO])
    with open_project(tmp_path / "q") as other:
        other.add_record("2", ["/body[1]"], Provenance.person("ana"))  # its next record id, on page 2 there...
        removed = remove_page(other, "2")
    with open_project(tmp_path / "p") as project:
        remove_page(project, "2")
        project.add_record("1", ["/body[1]"], Provenance.person("ana"))  # ...and on page 1 here
        with pytest.raises(StoreError, match="comes from another project"):
            restore_page(project, removed.kept)
        assert not project.has_page("2") and removed.kept.is_file()


def test_a_page_removed_and_put_back_twice_at_the_same_time_keeps_both_copies(tmp_path: Path, monkeypatch) -> None:
    """A clock that repeats a millisecond (a coarse one, or one stepped back) names both copies alike: the second
    put back replaced the first one's copy in removed/restored/."""
    from recordlens.core.store import page_removal
    from recordlens.core.store.page_removal import restore_page

    monkeypatch.setattr(page_removal, "now", lambda: "2026-12-05T11:00:00.000Z")
    with init_project(tmp_path / "p") as project:
        import_paths(project, [DEMO])
        first = remove_page(project, "2")
        restore_page(project, first.kept)
        project.accept(project.add_record("2", ["/body[1]/h1[1]"], MDR).record.id, Provenance.person("ana"))
        second = remove_page(project, "2")
        assert second.kept.name == first.kept.name  # the same name in removed/ once the first had moved on
        put_back = restore_page(project, second.kept)
    restored = tmp_path / "p" / "removed" / "restored"
    assert {path.name for path in restored.iterdir()} == {first.kept.name, put_back.moved_to.name}
    assert put_back.moved_to.name != first.kept.name
    records = [len(json.loads(path.read_text(encoding="utf-8")).get("records") or [])
               for path in (restored / first.kept.name, put_back.moved_to)]
    assert records[1] == records[0] + 1  # the record accepted in between: two copies, both kept


def test_what_a_removed_page_held_is_counted_in_words_that_agree_with_the_count() -> None:
    from recordlens.core.cli.project import _held

    assert _held({"records": 1, "label_history": 1, "annotator_labels": 2, "scores": 3}) == (
        "1 label, 1 history entry, 2 records in other annotators' labels, 3 run scores")
    assert _held({}) == "no labels, history or runs"
