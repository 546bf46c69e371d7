"""Saved out-of-fold probabilities record the scikit-learn and numpy versions they were fitted with. Read with
other versions (or none recorded), they are read all the same, with a warning line under the report: the fits may
give other numbers with another library, though their settings and inputs are the same; they used to be read
without a word."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from recordlens.core.extract.training import FitConfig
from recordlens.core.runs.saved_folds import library_versions, read_fold_results, save_fold_results, versions_warning
from tests.script_modules import script_module

BENCH = Path(__file__).resolve().parents[2] / "bench"
K, SEED = 3, 0


def saved(tmp_path: Path, versions: object = None) -> Path:
    """A file of one (empty) split, its recorded versions replaced by `versions` when given (None: dropped)."""
    path = save_fold_results(tmp_path / "oof.json", [[]], K, SEED, FitConfig())
    document = json.loads(path.read_text())
    if versions is None:
        del document["versions"]
    else:
        document["versions"] = versions
    path.write_text(json.dumps(document))
    return path


def test_the_versions_fitted_with_are_recorded_and_today_s_read_silently(tmp_path: Path) -> None:
    path = save_fold_results(tmp_path / "oof.json", [[]], K, SEED, FitConfig())
    versions = json.loads(path.read_text())["versions"]
    assert set(versions) == {"scikit-learn", "numpy"} and versions == library_versions()
    assert versions_warning(path) is None


@pytest.mark.parametrize("versions", [{"scikit-learn": "0.1.0", "numpy": "0.2.0"}, None], ids=["other", "unrecorded"])
def test_other_library_versions_are_read_with_a_warning_not_refused(tmp_path: Path, versions: object) -> None:
    path = saved(tmp_path, versions)
    assert read_fold_results(path, [], K, SEED, FitConfig(), 1) == [[]]  # not refused
    warning = versions_warning(path)
    today = library_versions()
    then = "scikit-learn 0.1.0, numpy 0.2.0" if versions else "unrecorded versions"
    assert warning is not None and warning.startswith(f"warning: {path} was saved with {then}, not today's "
                                                      f"scikit-learn {today['scikit-learn']}, numpy {today['numpy']}")


def test_the_benchmark_prints_the_warning_under_its_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.syspath_prepend(str(BENCH))  # as `python bench/NAME.py` runs
    script = script_module(BENCH / "offline_extractor.py", "recordlens_bench_offline_extractor")
    path = saved(tmp_path, {"scikit-learn": "0.1.0", "numpy": "0.2.0"})
    monkeypatch.setattr(script, "development_sets", lambda: [])
    monkeypatch.setattr(script, "cross_validate_sets", lambda *args, **kwargs: SimpleNamespace(
        pages=[], seconds={"prepare": 0.0, "cross_validation": 0.0}))
    monkeypatch.setattr(script, "format_report", lambda cv, per_page: "THE REPORT")
    monkeypatch.setattr(script, "_timing", lambda pages: None)
    monkeypatch.setattr(sys, "argv", ["offline_extractor.py", "--from-probabilities", str(path)])
    assert script.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "THE REPORT" and lines[1].startswith(f"warning: {path} was saved with scikit-learn 0.1.0")
