"""`runs --add` of a run folder, mended after a review: a stopped run whose failed page was done since (with no
records) is brought up to date, not taken for the run stored; a page whose N.json the folder held when the project
lacked it is said so (not "not given", not "extracted again"), and its score gone with the prediction brought in is
said to be the run's doing; the folder's lock is held for the whole import; scoring a folder and scoring it stored
judge "ran to its end" alike."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.cli.command import main
from recordlens.core.page.dataset import PAGE_READER_VERSION
from recordlens.core.runs import runner
from recordlens.core.runs.evaluate import NOT_IN_THE_PROJECT
from recordlens.core.runs.runner import LOCK_FILE
from recordlens.core.store import importer
from recordlens.core.store.db import Provenance
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run
from tests.core.run_folder_helpers import (
    DEMO,
    EXTRACT,
    added_while_page_4_was_lacking,
    dataset,
    project_of,
)


def _edit_json(path: Path, **changes: object) -> None:
    held = json.loads(path.read_text(encoding="utf-8"))
    for key, value in changes.items():
        if value is None:
            held.pop(key, None)
        else:
            held[key] = value
    path.write_text(json.dumps(held), encoding="utf-8")


# 1 -------------------------------------------------------------------------------------------------------------


def test_a_stopped_run_whose_failed_page_was_done_with_no_records_since_is_brought_up_to_date(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_of(tmp_path, DEMO)
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0
    # page 3 failed and the endpoint stopped the run
    (out / "3.json").unlink()
    (out / "_run" / "3.json").write_text(json.dumps({"status": "failed", "reason": "endpoint 503"}), encoding="utf-8")
    _edit_json(out / "_run" / "run.json", stopped="the endpoint failed, then run again to resume")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 1" in err, err
    with open_project(project) as held:
        assert held.runs.get(1).outcome == "stopped" and held.runs.errors(1) == {"3": "endpoint 503"}
    # resumed: page 3 done this time, with no records, and the stop gone
    (out / "3.json").write_text("[]", encoding="utf-8")
    (out / "_run" / "3.json").write_text(json.dumps({"status": "done", "seconds": 0.1}), encoding="utf-8")
    _edit_json(out / "_run" / "run.json", stopped=None)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert "stored already" not in err and "nothing stored" not in err, err
    assert f"{out} was stored as run 1 when its extract had stopped (4 pages); the extract went on since" in err, err
    with open_project(project) as held:
        (stored,) = held.runs.all()
        assert stored.outcome == "finished" and held.runs.errors(1) == {} and held.runs.predictions(1)["3"] == []
    # the same folder once more: stored already, this time
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"{out} is stored already, as run 1" in err, err


# 2, 3 ----------------------------------------------------------------------------------------------------------


def test_a_page_the_project_lacked_when_the_run_was_added_is_said_so_and_brought_in(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = project_of(tmp_path, dataset(tmp_path, ("1", "2", "3"), "ds3"))
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0  # pages 1 to 4
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 1 and "4.json" in err and "no page of that name in the project" in err, err
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    assert main(["import", str(dataset(tmp_path, ("4",), "ds4")), "--project", str(project), "-q"]) == 0
    _, _, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert NOT_IN_THE_PROJECT in err and "page 4" in err, err
    assert "not among the pages run 1 was given" not in err, err
    # the run's latest score is of page 4 alone: the one `runs --add` drops as it brings its prediction in
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert "extracted again" not in err, err
    assert (f"{out} was stored as run 1 when the project lacked page 4 of it; the project holds it since: run 1 now "
            "holds its prediction too") in err, err
    with open_project(project) as held:
        assert held.runs.stale_pages(1) == ["4"]
        assert held.runs.why_stale(1) == "the run's predictions of 1 page changed since it was scored (4)"
        assert "4" in held.runs.predictions(1)


def test_a_page_labelled_since_its_score_went_with_its_prediction_is_said_labelled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project, out = added_while_page_4_was_lacking(tmp_path, capsys)
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    with open_project(project) as held:
        first = next(label for label in held.labels("4") if label.is_true)
        held.reject(first.id, Provenance.person("ana"))  # a change after the score that went
        assert held.runs.why_stale(1) == "1 page labelled, changed or unmarked since it was scored (4)"


# 4 -------------------------------------------------------------------------------------------------------------


def test_an_extract_started_while_runs_add_stores_the_folder_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = project_of(tmp_path, DEMO)
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0
    started: list[int] = []
    real = importer._same_run

    def an_extract_meanwhile(*args: object, **kwargs: object) -> int | None:
        assert (out / LOCK_FILE).exists()  # held from the first file read to the run stored
        started.append(main([*EXTRACT, str(out), "--restart"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(importer, "_same_run", an_extract_meanwhile)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert started == [2], err
    assert f"{out} is being extracted into (or added to a project) by process " in err, err
    assert code == 0 and f"stored {out} as run 1" in err, err
    assert not (out / LOCK_FILE).exists()  # released once stored


def test_runs_add_on_a_file_system_without_locks_says_an_extract_meanwhile_is_not_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = project_of(tmp_path, DEMO)
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0
    real = owner_files.take

    def no_locks(path: Path, **kwargs: object) -> owner_files.Lock:
        if path.name == LOCK_FILE:
            raise OSError(errno.ENOLCK, "No locks available")
        return real(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(runner.owner_files, "take", no_locks)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 1" in err, err
    assert (f"{out}: its lock cannot be taken (No locks available): an extract started into it while it is being "
            "added would not be refused") in err, err


# 5 -------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [False, True])
def test_scoring_a_folder_and_scoring_it_stored_judge_its_end_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], version: bool) -> None:
    project = project_of(tmp_path, DEMO)
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out))[0] == 0
    (out / "4.json").unlink()  # a run of pages 1 to 3, say
    (out / "_run" / "4.json").unlink()
    if not version:  # a run.json that names its method only (written by hand): cut short, for all it says
        _edit_json(out / "_run" / "run.json", version=None)
    _, _, folder = run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"))
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    _, _, stored = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    not_given = ["1 scored page was not among the pages" in said for said in (folder, stored)]
    assert not_given == [version, version], (folder, stored)


def test_a_schema_9_project_takes_the_column_and_says_a_score_dropped_since(tmp_path: Path) -> None:
    from tests.core.old_projects import OLD_HASH, old_project

    folder = old_project(
        tmp_path / "v9", 9, f"INSERT INTO snapshots VALUES ('{OLD_HASH}', '.html', 1, 't')",
        "INSERT INTO pages (name, snapshot, status, imported_at, updated_at) "
        f"VALUES ('7', '{OLD_HASH}', 'labelled', 't', 't')",
        "INSERT INTO runs (method, started_at, status, ended_at) VALUES ('mdr', 't', 'finished', 't')",
        "INSERT INTO pages (name, snapshot, status, imported_at, updated_at) "
        f"VALUES ('8', '{OLD_HASH}', 'labelled', 't', 't')",
        "INSERT INTO predictions (run_id, page_id, records, error) VALUES (1, 1, '[]', NULL), (1, 2, '[]', NULL)",
        "INSERT INTO scores (run_id, page_id, precision, recall, f1, predicted_records, true_records, "
        "hallucinated_records, scored_at, page_reader, changes_seen) "
        f"VALUES (1, 1, 0, 0, 0, 0, 0, 0, 'u', {PAGE_READER_VERSION}, 0), "
        f"(1, 2, 0, 0, 0, 0, 0, 0, 'u', {PAGE_READER_VERSION}, 0)")
    with open_project(folder) as project:
        assert project.schema_version() == 12
        assert project.runs.why_stale(1) == ""
        project.runs.add_predictions(1, {"7": [["/html/body"]]})  # its score goes with the prediction it scored
        assert project.runs.why_stale(1) == "the run's predictions of 1 page changed since it was scored (7)"
