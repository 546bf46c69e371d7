"""What score, runs and import say of a run's own records, and the locks an extract or a training holds:

- a page a run's `_run/N.json` records done whose `N.json` is gone is said missing, with extract again as the mend
  (not "not among the run's pages"), folder and stored run alike;
- `runs` gives no figures for a run whose predictions changed since it was scored (a run brought up to date: a mean
  of the scores left would be one it never had), saying so apart from label changes;
- a finished run whose folder holds more pages since (extracted again) is brought up to date by `runs --add`, said;
- `score --project` of a stopped run says the pages it never reached in one warning, not one a page;
- an extract with --seeds holds its folder's lock from the first seed to the last, and `runs --add` sees it;
- the import counts a page once when its labels file cannot be read;
- the chrome policy line claims no majority when no page holds records;
- `train` says when it takes over the lock of a killed training, as extract does."""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest

from recordlens.core import owner_files
from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.records.hygiene import PageCheck, summarise
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import runner
from recordlens.core.runs.evaluate import FILE_MISSING, NOT_GIVEN
from recordlens.core.runs.runner import LOCK_FILE, check_not_extracting
from recordlens.core.store.db import Provenance
from recordlens.core.store.learnt_model import TRAINING_LOCK, training_the_project
from recordlens.core.store.project import open_project
from tests.core.cli_runs import run
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")
EXTRACT = ("extract", "--method", "mdr", "--out")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


def _pages(tmp_path: Path, names: tuple[str, ...], folder: str = "pages") -> Path:
    pages = tmp_path / folder
    pages.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(DEMO / "html" / f"{name}.html", pages)
    return pages


def _runs(capsys: pytest.CaptureFixture[str], project: Path) -> list[dict]:
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0
    return json.loads(listing)


# 1 ------------------------------------------------------------------------------------------------------------


def test_a_prediction_file_deleted_from_a_finished_run_is_said_missing_and_extract_again_advised(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "--pages", str(DEMO / "html"), "-q")[0] == 0
    (out / "2.json").unlink()  # by hand: its _run/2.json still says done
    assert json.loads((out / "_run" / "2.json").read_text(encoding="utf-8"))["status"] == "done"
    score = ("score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q")
    code, table, err = run(capsys, *score)
    assert code == 0, err
    assert NOT_GIVEN not in table and "not among the run's pages" not in table + err, table
    assert f"  2: {FILE_MISSING}" in table, table
    assert ("pages without a prediction (1 whose prediction file is missing; counted above as empty predictions; "
            "extract again brings back the missing prediction file):") in table, table
    assert ("1 scored page (2) is recorded done by the run, but its prediction file is missing: scored as an empty "
            "prediction, and the figures without it are given apart; extract again brings it back") in err, err
    report = json.loads(run(capsys, *score, "--json")[1])
    assert report["failed_pages"] == {"2": FILE_MISSING}

    # stored so, the run keeps which pages those are, and its score says the same
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "1 of them recorded done by the run but without their prediction file" in err, err
    code, table, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0 and f"  2: {FILE_MISSING}" in table and NOT_GIVEN not in table, table
    assert "is recorded done by run 1's folder, but its prediction file is missing" in err, err

    # extract again brings it back, and `runs --add` brings the stored run up to date
    code, printed, err = run(capsys, *EXTRACT, str(out), "--pages", str(DEMO / "html"), "-q")
    assert code == 0 and "1 extracted, 3 already there" in printed, err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"{out} was stored as run 1 when it held 3 pages" in err, err
    (stored,) = _runs(capsys, project)
    assert stored["pages_with_records"] == 4 and "prediction_files_missing" not in stored["cost"]


def test_a_finished_run_not_given_a_page_still_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "--pages", str(_pages(tmp_path, ("1", "2", "3"))), "-q")[0] == 0
    code, table, _ = run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"), "-q")
    assert code == 0 and f"  4: {NOT_GIVEN}" in table and FILE_MISSING not in table, table


# 2, 3, 4 ------------------------------------------------------------------------------------------------------


def _stopped_run_of_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, dict, dict]:
    """A run folder as an extract stopped after its first two pages leaves it (pages 3 and 4: neither N.json nor
    _run/N.json), with what it takes to finish it: the two pages' files and its run.json as finished."""
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "--pages", str(DEMO / "html"), "-q")[0] == 0
    finished = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
    held = {}
    for name in ("3", "4"):
        held[name] = ((out / f"{name}.json").read_bytes(), (out / "_run" / f"{name}.json").read_bytes())
        (out / f"{name}.json").unlink()
        (out / "_run" / f"{name}.json").unlink()
    (out / "_run" / "run.json").write_text(json.dumps({**finished, "stopped": "the budget ran out"}), encoding="utf-8")
    return out, held, finished


def _finish(out: Path, held: dict, finished: dict) -> None:
    for name, (records, cost) in held.items():
        (out / f"{name}.json").write_bytes(records)
        (out / "_run" / f"{name}.json").write_bytes(cost)
    (out / "_run" / "run.json").write_text(json.dumps(finished), encoding="utf-8")


def test_a_stopped_run_s_missing_pages_are_said_in_one_warning(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _, _ = _stopped_run_of_two(tmp_path, capsys)
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    code, table, err = run(capsys, "score", "--project", str(project), "--run", "1", "-q")
    assert code == 0 and "(2 not extracted; counted above as empty predictions; run extract again" in table, table
    assert "page 3: no prediction" not in err and "page 4: no prediction" not in err, err
    said = [line for line in err.splitlines() if "no prediction in run 1" in line]
    assert said == ["warning: 2 scored pages with no prediction in run 1 (mdr) (3, 4; why, for each: not extracted "
                    "(no N.json): the run stopped before it: the budget ran out): scored as empty predictions"], err


def test_a_run_brought_up_to_date_is_out_of_date_by_its_predictions_not_its_labels(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, held, finished = _stopped_run_of_two(tmp_path, capsys)
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    _finish(out, held, finished)  # the extract went on: runs --add brings run 1 up to date
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0
    # no figure of the scores left (those of pages 1 and 2): one the run never had
    assert listing.splitlines()[1].split()[-3:] == ["-", "-", "-"], listing
    assert ("(run 1's figures: none until it is scored again: the run's predictions of 2 pages changed since it was "
            "scored (3, 4), and a mean of the scores it still holds would be a figure it never had; "
            ) in listing, listing
    assert "labelled, changed or unmarked" not in listing and "out of date" not in listing, listing

    with open_project(project) as opened:  # a label change too: said apart
        opened.set_status("1", "proposed", Provenance.person("ana"))
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    assert ("none until it is scored again: the run's predictions of 2 pages changed since it was scored (3, 4); 1 "
            "page labelled, changed or unmarked since it was scored (1), and a mean") in listing, listing


def test_a_finished_run_whose_folder_grew_is_brought_up_to_date(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = _pages(tmp_path, ("1", "2"))
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "--pages", str(pages), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    assert run(capsys, "score", "--project", str(project), "--run", "1", "-q")[0] == 0
    with open_project(project) as opened:
        before = {s.page: s.f1 for s in opened.runs.scores(1)}
    _pages(tmp_path, ("3", "4"))  # the pages folder grew, and the same extract ran again
    code, printed, err = run(capsys, *EXTRACT, str(out), "--pages", str(pages), "-q")
    assert code == 0 and "2 extracted, 2 already there" in printed, err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0, err
    assert (f"{out} was stored as run 1 when it held 2 pages; it holds more since (extracted again), those "
            "unchanged: run 1 now holds what the folder holds, not a second run beside it (its unchanged pages "
            "keep their scores)") in err, err
    (stored,) = _runs(capsys, project)
    assert stored["id"] == 1 and stored["status"] == "finished" and stored["pages_with_records"] == 4
    with open_project(project) as opened:
        assert {s.page: s.f1 for s in opened.runs.scores(1)} == {name: before[name] for name in ("1", "2")}
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    assert "the run's predictions of 2 pages changed since it was scored (3, 4)" in listing, listing


def test_a_finished_run_whose_records_changed_stays_a_run_of_its_own(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages = _pages(tmp_path, ("1", "2"))
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "--pages", str(pages), "-q")[0] == 0
    assert run(capsys, "runs", "--project", str(project), "--add", str(out))[0] == 0
    _pages(tmp_path, ("3",))
    assert run(capsys, *EXTRACT, str(out), "--pages", str(pages), "-q")[0] == 0
    # page 1 held otherwise, extracted again (its record in _run/ a new one): not the run stored, grown (an N.json
    # changed while its record is the one stored is a hand edit, which the run keeps its own prediction over)
    (out / "1.json").write_text("[]", encoding="utf-8")
    record = json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))
    (out / "_run" / "1.json").write_text(json.dumps({**record, "seconds": 9.5}), encoding="utf-8")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and f"stored {out} as run 2" in err and "was stored as run 1" not in err, err
    assert [r["pages_with_records"] for r in _runs(capsys, project)] == [2, 3]


# 5 ------------------------------------------------------------------------------------------------------------


def test_a_seed_folder_is_refused_while_the_seeds_folder_is_locked(tmp_path: Path) -> None:
    seeds = tmp_path / "run"
    (seeds / "seed-0").mkdir(parents=True)
    lock = owner_files.take(seeds / LOCK_FILE)  # an extract --seeds between two seeds: no seed-S/ locked
    try:
        busy = f"{seeds} is being extracted into (or added to a project) by process "
        with pytest.raises(RecordLensError, match=re.escape(busy)):
            check_not_extracting(seeds / "seed-0", "add it again")
        check_not_extracting(tmp_path, "add it again")  # the folder above: not a seed's, not refused
    finally:
        owner_files.release(lock)
    check_not_extracting(seeds / "seed-0", "add it again")


def test_an_extract_with_seeds_holds_its_folder_between_seeds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real-seeds-lock")
    out = tmp_path / "run"
    refused: list[str] = []
    real = runner.run_extractor

    def then_add(*args: object, **kwargs: object):  # noqa: ANN202 - as a `runs --add` right after a seed ends
        summary = real(*args, **kwargs)
        try:
            check_not_extracting(summary.out_dir, "add it again")
        except RecordLensError as error:
            refused.append(str(error))
        return summary

    monkeypatch.setattr(runner, "run_extractor", then_add)
    with FakeGemini(default=answer("[]")) as server:
        code, _, err = run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
                           "--seeds", "2", "--base-url", server.url, "-q")
    assert code == 0, err
    busy = f"{out} is being extracted into (or added to a project) by process "
    assert len(refused) == 2 and all(busy in said for said in refused)
    assert not (out / LOCK_FILE).exists()  # released once the last seed is done
    check_not_extracting(out / "seed-1", "add it again")


# 6, 7 ---------------------------------------------------------------------------------------------------------


def test_an_unreadable_labels_file_of_a_page_held_counts_the_page_once(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "again"
    shutil.copytree(DEMO / "html", data / "html")
    (data / "gt").mkdir()
    (data / "gt" / "1.json").write_text("{bad", encoding="utf-8")
    for name in ("2", "3", "4"):
        shutil.copy(DEMO / "gt" / f"{name}.json", data / "gt")
    code, out, err = run(capsys, "import", str(data), "--project", str(project), "-q")
    assert code == 1, err
    assert "imported 0 page(s) with 0 label(s); 3 already in the project; 1 not imported" in out, out
    assert "page 1 is already in the project; its labels there are left as they were" in out + err


def test_no_majority_is_claimed_when_no_page_holds_records() -> None:
    empty = [PageCheck(name, 0) for name in ("1", "2", "3")]
    report = summarise(empty)
    assert report.summary() == ("3 pages: 0 with label problems (no page has a chrome policy: none holds records); "
                                "proposing each distinct true record with text once scores a mean F1 of 1.0000")
    assert "majority" not in summarise([PageCheck("4", 0)], empty).summary()
    voting = summarise([PageCheck("1", 2), PageCheck("2", 0)])
    assert "0 whose policy differs from the majority (majority does not label page chrome)" in voting.summary()


def test_the_import_of_empty_labels_claims_no_majority(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    shutil.copytree(DEMO / "html", data / "html")
    (data / "gt").mkdir()
    for name in ("1", "2", "3"):
        (data / "gt" / f"{name}.json").write_text("[]", encoding="utf-8")
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    code, out, _ = run(capsys, "import", str(data), "--project", str(tmp_path / "p"), "-q")
    assert code == 0 and "(no page has a chrome policy: none holds records)" in out, out
    assert "majority" not in out, out
    code, out, err = run(capsys, "labels", "check", "--project", str(tmp_path / "p"))
    said = out + err
    assert "(no page has a chrome policy: none holds records)" in said and "majority" not in said, said


# 8 ------------------------------------------------------------------------------------------------------------


def test_the_lock_of_a_killed_training_is_taken_over_and_said(tmp_path: Path) -> None:
    (tmp_path / TRAINING_LOCK).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / TRAINING_LOCK).write_text(f"{socket.gethostname()} 999999999\n", encoding="utf-8")  # killed
    with training_the_project(tmp_path) as notes:
        assert notes == [f"a training of the project {tmp_path} by process 999999999 ended without releasing its "
                         "lock (it was killed); the lock is taken over"]
    assert not (tmp_path / TRAINING_LOCK).exists()
    with training_the_project(tmp_path) as notes:  # released as it should: nothing to say
        assert notes == []
