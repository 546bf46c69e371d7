"""`runs --add` and `runs --compare` read a run a page at a time (a run of MDR's over many pages weighs hundreds of
megabytes once parsed; bench/runs_memory.py measures their peak memory): the prediction files are read one after the
other, lazily, and what they store and print is what reading the whole run at once stored and printed, byte for
byte (the figures below were taken from RecordLens before it streamed, on the same folders)."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.errors import RecordLensError
from recordlens.core.records.model import RecordsFile
from recordlens.core.runs import run_files
from tests.core.cli_runs import DEMO, run


def test_the_prediction_files_are_read_one_at_a_time_and_a_cut_file_is_named_when_reached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.runs.run_files import page_predictions

    (tmp_path / "1.json").write_text('[["/body[1]/p[1]"], ["/body[1]/p[2]"]]', encoding="utf-8")
    (tmp_path / "2.json").write_text('[["/body[1]/p[1]"],\n ["/body[1]/p', encoding="utf-8")  # cut short
    (tmp_path / "3.json").write_text("[]", encoding="utf-8")
    opened: list[str] = []
    real = run_files.load_records
    monkeypatch.setattr(run_files, "load_records", lambda path: opened.append(Path(path).name) or real(path))
    pages = page_predictions({name: tmp_path / f"{name}.json" for name in ("1", "2", "3")})
    assert opened == []  # nothing read before a page is asked for
    name, first = next(pages)
    assert (name, opened) == ("1", ["1.json"])  # the first page's records, the cut file not read yet
    assert isinstance(first, RecordsFile) and first.records == [["/body[1]/p[1]"], ["/body[1]/p[2]"]]
    name, second = next(pages)
    assert name == "2" and isinstance(second, RecordLensError) and opened == ["1.json", "2.json"]
    said = str(second)  # the file named, and where JSON stops in it
    assert str(tmp_path / "2.json") in said and "not valid JSON" in said and "line 2" in said
    assert next(pages)[0] == "3" and next(pages, None) is None


def test_page_records_read_to_be_asked_about_keep_their_calls_and_digests_without_their_bulk(tmp_path: Path) -> None:
    from recordlens.core.runs.run_files import read_page_costs

    call = {"attempts": 2, "tokens": {"total": 30}}
    record = {"status": "done", "method": "gemini", "seconds": 1.5, "tokens": {"total": 30},
              "raw": {"calls": [call], "regions": {"/body[1]": [[1, 0, 3]] * 50}},
              "earlier": [{"status": "failed", "reason": "refused", "raw": {"calls": [call], "answer": "x" * 500}}]}
    (tmp_path / "_run").mkdir()
    (tmp_path / "_run" / "1.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    whole, slim = read_page_costs(tmp_path)["1"], read_page_costs(tmp_path, slim=True)["1"]
    assert whole == record
    assert slim["raw"] == {"calls": [call]} and slim["earlier"][0]["raw"] == {"calls": [call]}
    assert slim["earlier"][0]["reason"] == "refused" and slim["tokens"] == {"total": 30}
    # what a run is told by and what it cost are those of the whole record
    assert run_files.record_digest(slim) == run_files.record_digest(whole)
    assert run_files.earlier_record_digests(slim) == run_files.earlier_record_digests(whole)
    assert run_files.summed_cost([slim]) == run_files.summed_cost([whole])


RECORDS_OF = {  # page -> records written as its N.json ("gt": its true records; None: no N.json)
    "1": "gt", "2": [["/body[1]/div[1]/main[1]/div[2]/div[1]"], "/body[1]/div[1]/main[1]/div[2]/div[2]"],
    "3": "cut", "4": None, "9": [],
}


def run_folder(folder: Path, method: str, records_of: dict[str, object], *, regions: int) -> Path:
    """A run folder as an extract writes one, its files' contents fixed: N.json per page (a page "cut" holds a
    file cut short), `_run/N.json` for each page of the project with a record of bulk regions (`regions` of
    them), and `_run/run.json` naming the method."""
    (folder / "_run").mkdir(parents=True)
    (folder / "_run" / "run.json").write_text(json.dumps({"method": method, "parameters": {"k": 1}}), "utf-8")
    for name, records in records_of.items():
        if records == "gt":
            (folder / f"{name}.json").write_text((DEMO / "gt" / f"{name}.json").read_text("utf-8"), "utf-8")
        elif records == "cut":
            (folder / f"{name}.json").write_text('[["/body[1]/div[1]"],\n ["/body', "utf-8")
        elif records is not None:
            (folder / f"{name}.json").write_text(json.dumps(records, indent=1), "utf-8")
        if name != "9":
            record = {"status": "done", "method": method, "version": "1", "parameters": {"k": 1}, "seconds": 0.25,
                      "raw": {"regions": {f"/body[1]/div[{n}]": [[1, n, 2]] for n in range(regions)}}}
            (folder / "_run" / f"{name}.json").write_text(json.dumps(record, indent=1), "utf-8")
    return folder


def said(text: str, tmp_path: Path) -> str:
    """Printed output with the test's folder and the clock's times taken out."""
    return re.sub(r"\d{4}-\d\d-\d\dT[0-9:.]+Z", "<time>", text.replace(str(tmp_path), "<tmp>"))


def stored(project: Path, tmp_path: Path) -> str:
    """The runs, predictions and scores the project holds, times and the test's folder aside, as one digest."""
    with sqlite3.connect(project / "project.db") as db:
        rows = [db.execute("SELECT id, method, parameters, status, cost FROM runs ORDER BY id").fetchall(),
                db.execute("SELECT d.run_id, p.name, d.records, d.error, d.score_dropped_seen, d.rowid FROM "
                           "predictions d JOIN pages p ON p.id = d.page_id ORDER BY d.run_id, p.name").fetchall(),
                db.execute("SELECT s.run_id, p.name, s.precision, s.recall, s.f1, s.predicted_records, s.true_records, "
                           "s.hallucinated_records, s.warnings, s.page_reader, s.changes_seen, s.copy_hash FROM scores "
                           "s JOIN "
                           "pages p ON p.id = s.page_id ORDER BY s.run_id, p.name").fetchall()]
    return hashlib.sha256(said(json.dumps(rows), tmp_path).encode()).hexdigest()


def test_a_run_added_and_compared_stores_and_prints_what_the_whole_run_read_at_once_did(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(DEMO), "--project", str(project), "-q"]) == 0
    whole = run_folder(tmp_path / "whole", "mine", RECORDS_OF, regions=40)
    other = run_folder(tmp_path / "other", "theirs", {"1": [], "2": "gt", "3": "gt", "4": "gt"}, regions=3)
    capsys.readouterr()
    outputs = []
    for argv in (["--add", str(whole)], ["--add", str(other)], ["--add", str(whole)], ["--compare", "1", "2"],
                 ["--compare", "2", "1", "--json"]):
        code, out, err = run(capsys, "runs", "--project", str(project), *argv)
        outputs.append([code, said(out, tmp_path), said(err, tmp_path)])
    # the page its _run/ record says was stored with its records, edited by hand since: the run keeps its own
    (whole / "1.json").write_text("[]", encoding="utf-8")
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(whole))
    outputs.append([code, said(out, tmp_path), said(err, tmp_path)])
    # its page done without a prediction file given one since: the run brought up to date, its page 1 kept as stored
    (whole / "4.json").write_text((DEMO / "gt" / "4.json").read_text("utf-8"), "utf-8")
    code, out, err = run(capsys, "runs", "--project", str(project), "--add", str(whole), "--json")
    outputs.append([code, said(out, tmp_path), said(err, tmp_path)])
    assert outputs[0][0] == 1 and "3.json: not valid JSON" in outputs[0][2]
    assert "stored as a page the run failed on" in outputs[0][2] and "is stored already" in outputs[2][2]
    assert outputs[3][1].splitlines()[2] == "1             1.0000  0.0000 -1.0000"
    assert "the prediction file of page 1 was edited" in outputs[5][2]
    assert "run 1 now holds what the folder holds" in outputs[6][2]
    # what RecordLens printed and stored before it streamed, on these folders (its outputs and rows, digested)
    printed = hashlib.sha256(json.dumps(outputs).encode()).hexdigest()
    assert printed == "576717695cdce87e29c901e3779d05e28195cc2319216438b1ad82d299ee08c8", json.dumps(outputs, indent=1)
    assert stored(project, tmp_path) == "de6674efec203d397e05b64c8615c9ce6fe54b7dc6caf8d545a9a2d2ce798770"


def test_a_prediction_file_changed_while_the_run_is_stored_stores_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each page's records are read again as they are stored: a file edited between its first read and its store
    (by hand: an extract is kept out by the folder's lock) stops the store, said, and the run is not stored in part."""
    from recordlens.core.store.runs import Runs

    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(DEMO), "--project", str(project), "-q"]) == 0
    whole = run_folder(tmp_path / "whole", "mine", {"1": "gt", "2": "gt", "3": "gt", "4": "gt"}, regions=2)
    real = Runs.add_predictions

    def edited_meanwhile(self, run_id, predictions, errors=None):  # noqa: ANN001, ANN202 - as Runs'
        (whole / "3.json").write_text("[]", encoding="utf-8")
        return real(self, run_id, predictions, errors)

    monkeypatch.setattr(Runs, "add_predictions", edited_meanwhile)
    capsys.readouterr()
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(whole))
    assert code == 2 and "the records of page 3 (" in err and "3.json) changed while the run was stored" in err
    assert "nothing of this folder stored" in err
    with sqlite3.connect(project / "project.db") as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
        assert db.execute("SELECT COUNT(*) FROM predictions").fetchone()[0] == 0
    monkeypatch.setattr(Runs, "add_predictions", real)
    assert run(capsys, "runs", "--project", str(project), "--add", str(whole))[0] == 0  # as it is now: stored
