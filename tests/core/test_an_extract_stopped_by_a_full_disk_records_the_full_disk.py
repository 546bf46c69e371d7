"""An extract stopped by a full disk said so ("the disk that holds OUT is full") but its `_run/run.json` kept the
stop written as it began, "it did not finish (interrupted or killed)", which `score` then repeated. It now records
the full disk where the disk still takes run.json; where it does not, run.json says what it said."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from recordlens.core import atomic
from recordlens.core.resource_files import resource_path
from recordlens.core.runs import run_files
from recordlens.core.runs.run_files import UNFINISHED
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
NO_SPACE = "No space left on device"


def stopped_by_a_full_disk(out: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """Run an extract into `out` whose disk fills at its second page; the command's error line."""
    written = run_files.save_records

    def full_at_the_second_page(path: Path, records: object) -> Path:
        if len(list(out.glob("*.json"))) >= 1:
            raise OSError(errno.ENOSPC, NO_SPACE)
        return written(path, records)

    monkeypatch.setattr(run_files, "save_records", full_at_the_second_page)
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(out),
                       "-q")
    assert code == 2, err
    return err


def stop_recorded(out: Path) -> object:
    return json.loads((out / "_run" / "run.json").read_text(encoding="utf-8")).get("stopped")


def test_run_json_says_the_full_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "small" / "run"
    err = stopped_by_a_full_disk(out, capsys, monkeypatch)
    assert f"the disk that holds {out} is full" in err
    assert stop_recorded(out) == (f"the disk that holds {out} is full ({NO_SPACE}); free space and run it again to "
                                  "resume")
    monkeypatch.undo()
    code, out_text, err = run(capsys, "score", "--pred", str(out), "--gt", str(DEMO / "gt"), "--pages",
                              str(DEMO / "html"), "-q")
    assert "interrupted or killed" not in out_text + err
    assert "is full" in out_text + err


def test_where_the_disk_takes_no_run_json_it_says_what_it_said(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "small" / "run"
    real_write = atomic.write_text
    begun: list[Path] = []

    def full_after_the_first_run_json(path: str | Path, text: str, **kwargs: object) -> Path:
        if Path(path).name == "run.json":
            if begun:
                raise OSError(errno.ENOSPC, NO_SPACE)
            begun.append(Path(path))
        return real_write(path, text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic, "write_text", full_after_the_first_run_json)
    err = stopped_by_a_full_disk(out, capsys, monkeypatch)
    assert f"the disk that holds {out} is full" in err and "Traceback" not in err
    assert stop_recorded(out) == UNFINISHED
