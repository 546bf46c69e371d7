"""`bench --json FILE` writes over a report RecordLens wrote before, and over nothing else: a run's run.json, a
model or the app's settings are JSON objects too, and a mistyped path must not destroy them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
BENCH = ["bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "repeats", "--no-chart",
         "-q", "--json"]


def test_bench_json_refuses_other_json_objects_and_names_what_they_look_like(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["extract", "--method", "repeats", "--pages", str(DEMO / "html"), "--out", str(tmp_path / "r"),
                 "-q"]) == 0
    settings = tmp_path / "annotator.json"
    settings.write_text(json.dumps({"model": "m", "gemini_format": "flat", "last_pages": "{}"}), encoding="utf-8")
    for path, looks_like in ((tmp_path / "r" / "_run" / "run.json", "a run's description, _run/run.json"),
                             (tmp_path / "r" / "_run" / "1.json", "a page's record of a run, _run/N.json"),
                             (settings, "a JSON object with keys model, gemini_format, last_pages")):
        before = path.read_bytes()
        code, _, err = run(capsys, *BENCH, str(path))
        assert code == 2 and "exists and is not a report, so it is not replaced" in err, err
        assert f"it looks like {looks_like}" in err, err
        assert path.read_bytes() == before


def test_bench_json_replaces_a_report_written_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "bench.json"
    code, _, _ = run(capsys, *BENCH, str(report))
    assert code == 0 and json.loads(report.read_text(encoding="utf-8"))["report"] == "recordlens bench"
    code, _, err = run(capsys, *BENCH, str(report))
    assert code == 0, err
    # a report written before reports carried their command is known by its tables
    report.write_text(json.dumps({"table1": [], "table2": [], "warnings": []}), encoding="utf-8")
    code, _, err = run(capsys, *BENCH, str(report))
    assert code == 0, err
    assert json.loads(report.read_text(encoding="utf-8"))["report"] == "recordlens bench"


def test_a_cross_validation_report_of_before_the_marker_is_a_report(tmp_path: Path) -> None:
    from recordlens.core.output_paths import is_json_report

    old = tmp_path / "cv.json"
    old.write_text(json.dumps({"method": "selector", "folds": 5, "seed": 0, "rows": [], "held_out": []}),
                   encoding="utf-8")
    assert is_json_report(old)
    described = tmp_path / "run.json"
    described.write_text(json.dumps({"method": "selector", "version": "1", "parameters": {}}), encoding="utf-8")
    assert not is_json_report(described)
