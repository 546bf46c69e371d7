"""A run folder whose `_run/run.json` was deleted is resumed as one whose run.json was emptied is: its pages' own
records (`_run/N.json`) say the method, parameters and endpoint that made them, so `extract` with those resumes it,
says so and writes its run.json again, and one with another method is refused naming both, with what to do. Before,
a deleted run.json made the folder "someone's other files", refused with no word of --restart or of recovery. A
folder of labels (no `_run/`) is still refused as before (tests/core/test_cli_bad_arguments.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, EXTRACT, folder_files, run


@pytest.fixture
def deleted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A finished mdr run of the demo's pages whose run.json was deleted, and page 3 with it (to extract again)."""
    out = tmp_path / "run"
    assert run(capsys, *EXTRACT, str(out), "-q")[0] == 0
    for gone in ("_run/run.json", "3.json", "_run/3.json"):
        (out / gone).unlink()
    return out


def test_a_run_whose_run_json_was_deleted_resumes_as_its_pages_records_say(
        deleted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *EXTRACT, str(deleted), "-q")
    assert code == 0, err
    assert (f"{deleted}/_run/run.json is gone (deleted); its pages' own records (_run/N.json) say they were made by "
            "mdr with the parameters given now: resumed, and its run.json written again") in err, err
    assert "1 extracted, 3 already there, 0 failed" in out, out
    described = json.loads((deleted / "_run" / "run.json").read_text(encoding="utf-8"))
    assert described["method"] == "mdr" and "stopped" not in described


def test_a_run_whose_run_json_was_deleted_is_refused_to_another_method_saying_what_to_do(
        deleted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = folder_files(deleted)
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(deleted),
                       "-q")
    assert code == 2
    assert (f"{deleted} holds a run of mdr, not repeats (as its pages' own records say: {deleted}/_run/run.json is "
            "gone (deleted)): resuming it with repeats would mix two methods' records: choose another --out, or give "
            "--method mdr to resume it, or --restart") in err, err
    assert folder_files(deleted) == before  # nothing touched
