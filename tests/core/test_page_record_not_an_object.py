"""A page's own record `_run/N.json` that holds valid JSON but no object (`[]`, a number: a hand edit) is a record
that cannot be read, as one cut short is: `score` of the folder says so for the page, with no traceback; and a page
whose prediction is there is scored as any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import done_without_a_file, failed_pages, read_page_costs, unreadable_page_records
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


def _finished_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "run"
    assert run(capsys, "extract", "--method", "mdr", "--pages", str(DEMO / "html"), "--out", str(out), "-q")[0] == 0
    return out


def test_score_says_a_record_holding_a_list_cannot_be_read(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = _finished_run(tmp_path, capsys)
    record = out / "_run" / "2.json"
    record.write_text("[]", encoding="utf-8")
    (out / "2.json").unlink()
    code, table, err = run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages",
                           str(DEMO / "html"))
    assert code == 0, err
    assert "Traceback" not in err
    line = next(line for line in table.splitlines() if line.startswith("  2: "))
    assert line.startswith("  2: no N.json, and the run's record of the page cannot be read (") and str(record) in line
    assert "holds a list, not a page's record" in line, line


def test_a_record_holding_no_object_is_passed_over_by_the_readers_of_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _finished_run(tmp_path, capsys)
    (out / "_run" / "2.json").write_text("[]", encoding="utf-8")
    (out / "_run" / "3.json").write_text("7", encoding="utf-8")
    (out / "3.json").unlink()
    assert set(read_page_costs(out)) == {"1", "4"}
    assert failed_pages(out) == {} and done_without_a_file(out) == []
    assert set(unreadable_page_records(out)) == {"2", "3"}
