"""What `score --pred FOLDER` says of the pages a run folder holds no prediction for, as `score --project --run`
says them: the pages a stopped run never reached in one warning (not a line a page), the page it stopped on part
way as stopped *on* (not before), and a page whose own record `_run/N.json` cannot be read as such (not as a page
the run was never given)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs.evaluate import NOT_GIVEN
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
STOP = "the budget ran out"


def _run_without(tmp_path: Path, capsys: pytest.CaptureFixture[str], *names: str, stopped: str | None = STOP) -> Path:
    """An mdr run of the demo pages as an extract stopped before `names` leaves it (neither N.json nor _run/N.json);
    `stopped=None`: a finished run."""
    out = tmp_path / "run"
    assert run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out), "-q")[0] == 0
    for name in names:
        (out / f"{name}.json").unlink()
        (out / "_run" / f"{name}.json").unlink()
    if stopped is not None:
        described = json.loads((out / "_run" / "run.json").read_text(encoding="utf-8"))
        (out / "_run" / "run.json").write_text(json.dumps({**described, "stopped": stopped}), encoding="utf-8")
    return out


def score(capsys: pytest.CaptureFixture[str], out: Path) -> tuple[int, str, str]:
    return run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"), "-q")


def test_the_pages_a_stopped_run_never_reached_are_said_in_one_warning(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_without(tmp_path, capsys, "3", "4")
    code, table, err = score(capsys, out)
    assert code == 0 and "(2 not extracted; counted above as empty predictions; run extract again" in table, table
    assert "page 3: no prediction" not in err and "page 4: no prediction" not in err, err
    said = [line for line in err.splitlines() if "no prediction in" in line]
    assert said == [f"warning: 2 scored pages with no prediction in {out} (3, 4; why, for each: not extracted (no "
                    f"N.json): the run stopped before it: {STOP}): scored as empty predictions"], err


def test_the_page_a_run_stopped_on_part_way_is_said_as_stopped_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_without(tmp_path, capsys, "3", "4", stopped="it did not finish (interrupted or killed)")
    (out / "_run" / "3.json").write_text(json.dumps({"status": "not finished", "reason": "interrupted part way",
                                                     "raw": {"calls": []}}), encoding="utf-8")
    code, table, err = score(capsys, out)
    assert code == 0
    assert ("  3: not extracted (no N.json): the run stopped on it, part way (the calls it paid for are kept in "
            "_run/): it did not finish (interrupted or killed)") in table, table
    assert "  4: not extracted (no N.json): the run stopped before it: it did not finish" in table, table
    assert "(2 not extracted;" in table
    assert f"page 3: no prediction in {out}: not extracted (no N.json): the run stopped on it, part way" in err, err


def test_a_page_whose_record_cannot_be_read_is_not_said_as_not_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _run_without(tmp_path, capsys, stopped=None)  # finished
    record = out / "_run" / "2.json"
    record.write_text(record.read_text(encoding="utf-8")[:40], encoding="utf-8")  # cut short
    (out / "2.json").unlink()
    code, table, err = score(capsys, out)
    assert code == 0
    assert NOT_GIVEN not in table + err and "not among the run's pages" not in table + err, table
    assert ("pages without a prediction (1 whose run record cannot be read; counted above as empty predictions; "
            "run extract again to retry or finish them):") in table, table
    line = next(line for line in table.splitlines() if line.startswith("  2: "))
    assert line.startswith("  2: no N.json, and the run's record of the page cannot be read (") and str(record) in line
    assert f"page 2: no prediction in {out}: no N.json, and the run's record of the page cannot be read" in err
