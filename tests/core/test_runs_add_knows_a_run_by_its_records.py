"""`runs --add` knows a run by what makes it that run (its description and its pages' own records in `_run/`), not
by where its folder lies: a stopped run's folder moved and resumed brings the stored run up to date, a copy is said
stored already, and a prediction file deleted or edited by hand is said so (never "--restart") and is no new run.
`score --project P --run ID` says the page a stopped run stopped on part way as `score --pred FOLDER` does, and
`runs` tells apart two runs from folders of one name. Against the loopback fake in tests/fake_gemini.py, and mdr."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from recordlens.core.runs.run_files import RunSummary, record_failure
from recordlens.core.store.project import open_project
from recordlens.core.store.run_matching import earlier_digests, record_digests
from tests.core.cli_runs import DEMO, EXTRACT, demo_project, run
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-records"
ANSWER = '[["/body[1]/div[1]"]]'
# page 2's warning, of the folder and of the stored run alike (pages 3 and 4: "the run stopped before it")
STOPPED_ON = re.compile(r"page 2: no prediction in [^\n]*: not extracted \(no N\.json\): the run stopped on it, "
                        r"part way")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    return demo_project(capsys, tmp_path / "p")


def _gemini(capsys: pytest.CaptureFixture[str], out: Path, server: FakeGemini, *more: str) -> int:
    return run(capsys, "extract", "--method", "gemini", "--pages", str(DEMO / "html"), "--out", str(out),
               "--base-url", server.url, "-q", *more)[0]


def _add(capsys: pytest.CaptureFixture[str], project: Path, folder: Path) -> str:
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(folder))
    assert code == 0, err
    return err


def _runs(capsys: pytest.CaptureFixture[str], project: Path) -> list[dict]:
    code, listing, _ = run(capsys, "runs", "--project", str(project), "--json")
    assert code == 0
    return json.loads(listing)


def test_a_stopped_run_moved_and_resumed_brings_the_stored_run_up_to_date_and_a_copy_is_stored_already(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, moved, copy = tmp_path / "run", tmp_path / "moved" / "run", tmp_path / "copy"
    with FakeGemini(default=answer(ANSWER)) as server:
        assert _gemini(capsys, first, server, "--max-requests", "2") == 3
        assert f"stored {first} as run 1" in _add(capsys, project, first)
        moved.parent.mkdir()
        first.rename(moved)
        assert _gemini(capsys, moved, server) == 0
    err = _add(capsys, project, moved)
    assert (f"{moved} holds run 1, stored from {first.resolve()} when its extract had stopped (2 pages); the extract "
            "went on since: run 1 now holds what the folder holds") in err, err
    shutil.copytree(moved, copy)
    err = _add(capsys, project, copy)
    # the run names the folder it was brought up to date from: the first one is gone (moved)
    assert (f"{copy} is stored already, as run 1 (added from {moved.resolve()}, the same run by its pages' records in "
            "_run/: same method, parameters and predictions); nothing stored") in err, err
    (stored,) = _runs(capsys, project)
    assert (stored["id"], stored["status"], stored["pages_with_records"]) == (1, "finished", 4)
    assert "page_records" not in stored["cost"]  # what tells the run's folder is no figure of the run


def test_two_runs_made_apart_are_two_runs_told_apart_in_the_list(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for where in ("a", "b"):  # the same method and pages, the same predictions: two runs made, in two folders
        assert run(capsys, *EXTRACT, str(tmp_path / where / "run"), "-q")[0] == 0
        assert f"as run {' ab'.index(where)}" in _add(capsys, project, tmp_path / where / "run")
    code, listing, _ = run(capsys, "runs", "--project", str(project))
    assert code == 0 and "    from a/run; " in listing and "    from b/run; " in listing, listing


def test_a_prediction_file_deleted_or_edited_by_hand_is_said_so_and_is_no_new_run(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    _add(capsys, project, out)
    made = (out / "4.json").read_bytes()
    (out / "3.json").unlink()
    err = _add(capsys, project, out)
    assert (f"warning: {out} holds run 1, stored before; since then the prediction file of page 3 was deleted (by "
            "hand: its record in _run/ is still the one run 1 was stored with, so no extract changed it): run 1 "
            "keeps the prediction its method made, and the folder is not taken for another run for it") in err, err
    assert f"{out} is stored already, as run 1 (its prediction file changed by hand aside" in err, err
    assert "--restart" not in err, err
    (out / "4.json").write_text('[["/body[1]/p[1]"]]', encoding="utf-8")
    err = _add(capsys, project, out)
    assert ("since then the prediction file of page 3 was deleted and that of page 4 was edited (by hand: their "
            "records in _run/ are still the ones run 1 was stored with") in err, err
    assert "--restart" not in err and "stored already, as run 1" in err, err
    (stored,) = _runs(capsys, project)
    assert stored["pages_with_records"] == 4
    # the run keeps its method's predictions: the folder as it was scores as the stored run does
    (out / "4.json").write_bytes(made)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(out))
    assert code == 0 and "stored already, as run 1" in err and "page 4" not in err, err


def test_a_page_extracted_again_is_said_so_rather_than_restart(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    _add(capsys, project, out)
    (out / "1.json").write_text("[]", encoding="utf-8")  # page 1 made again, into other records
    record = json.loads((out / "_run" / "1.json").read_text(encoding="utf-8"))
    (out / "_run" / "1.json").write_text(json.dumps({**record, "seconds": 9.5}), encoding="utf-8")
    err = _add(capsys, project, out)
    assert f"stored {out} as run 2" in err, err
    assert ("as the folder holds page 1 of run 1 otherwise (extracted again since: its record in _run/ is a new "
            "one)") in err, err


def test_the_page_a_stopped_run_stopped_on_is_said_alike_of_the_folder_and_of_the_stored_run(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    # page 1 answered, page 2 unreadable: its retry is past the budget, the run stops on it part way
    with FakeGemini([answer(ANSWER), answer("no records here, sorry")], default=answer(ANSWER)) as server:
        assert _gemini(capsys, out, server, "--max-requests", "2") == 3
    _add(capsys, project, out)
    _, _, folder = run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"))
    _, _, stored = run(capsys, "score", "--project", str(project), "--run", "1")
    assert STOPPED_ON.search(folder), folder
    assert STOPPED_ON.search(stored), stored
    # its deleted copy, stored again, keeps it too
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0, err
    (kept,) = (project / "removed" / "runs").iterdir()
    assert "as run 2" in _add(capsys, project, kept)
    _, _, again = run(capsys, "score", "--project", str(project), "--run", "2")
    assert STOPPED_ON.search(again), again


def test_a_run_stored_by_an_earlier_recordlens_keeps_what_tells_it_once_its_folder_is_added_again(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, moved = tmp_path / "run", tmp_path / "moved"
    with FakeGemini([answer(ANSWER), answer("no records here, sorry")], default=answer(ANSWER)) as server:
        assert _gemini(capsys, out, server, "--max-requests", "2") == 3
        _add(capsys, project, out)
        with open_project(project) as opened:  # as an earlier RecordLens stored it: neither key in its cost
            cost = opened.runs.get(1).cost
            opened.runs.keep_cost(1, {key: value for key, value in cost.items()
                                      if key not in ("page_records", "stopped_on")})
        assert "stored already, as run 1" in _add(capsys, project, out)
        _, _, stored = run(capsys, "score", "--project", str(project), "--run", "1")
        assert STOPPED_ON.search(stored), stored
        out.rename(moved)  # now known wherever it lies
        assert _gemini(capsys, moved, server) == 0
    assert f"{moved} holds run 1, stored from {out.resolve()}" in _add(capsys, project, moved)
    assert len(_runs(capsys, project)) == 1


def test_a_stopped_run_whose_pages_all_failed_resumed_brings_the_stored_run_up_to_date(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an endpoint that answers nothing readable: the first pages fail and the budget stops the run; resumed once it
    # answers, every page the stored run holds gets a new record, its old one kept under "earlier"
    out = tmp_path / "run"
    with FakeGemini(default=answer("no records here, sorry")) as server:
        assert _gemini(capsys, out, server, "--max-requests", "6") == 3
        assert f"stored {out} as run 1" in _add(capsys, project, out)
        (stored,) = _runs(capsys, project)
        assert stored["status"] == "stopped" and stored["pages_with_records"] == 0, stored
        server.default = answer(ANSWER)
        assert _gemini(capsys, out, server) == 0
    err = _add(capsys, project, out)
    assert "went on since: run 1 now holds what the folder holds" in err, err
    assert "kept apart" not in err and "extracted again" not in err, err
    (stored,) = _runs(capsys, project)
    assert (stored["id"], stored["status"], stored["pages_with_records"]) == (1, "finished", 4)


def test_a_folder_written_again_with_restart_is_a_run_of_its_own_said_so(
        project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    _add(capsys, project, out)
    assert run(capsys, *EXTRACT, str(out), "-q", "--restart")[0] == 0
    err = _add(capsys, project, out)
    assert f"stored {out} as run 2" in err, err
    assert ("as none of the records in _run/ it was stored with is in the folder now, as a page's record or kept "
            'under "earlier" by a resume (its pages extracted again since, as --restart does)') in err, err


def test_each_record_kept_under_earlier_is_known_as_it_was_written(tmp_path: Path) -> None:
    # a page failed three times over three sessions: each record it had, the digest a run stored then kept
    summary, held = RunSummary(tmp_path), []
    (tmp_path / "_run").mkdir()
    for attempt in range(3):
        record_failure(tmp_path, "1", f"unreadable answer {attempt}", {"tokens": {"total": attempt}}, summary)
        held += record_digests(tmp_path, ["1"]).values()
    assert earlier_digests(tmp_path, ["1", "2"]) == {"1": held[:2]}
    assert record_digests(tmp_path, ["1"]) == {"1": held[2]}
