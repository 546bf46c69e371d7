"""bench/snapshot.py, bench/extract.py and bench/store.py time the work a ratio is given for and its baseline in
turn, round after round (timing.interleaved_times), not each in a block of its own: a busy spell of the machine then
falls on both alike. A verifier saw snapshot.py's ratios move from 0.51 to 0.87 over five runs with the blocks;
extract.py took its lxml baseline as the best of 3, not of BASELINE_RUNS; store.py compared one import against a
best-of-10 baseline timed before it."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import lxml.html
import pytest

from recordlens.core.resource_files import resource_path
from tests.script_modules import script_module

BENCH = Path(__file__).resolve().parents[2] / "bench"
DEMO = resource_path("demo", "dataset")  # 4 pages in html/, their labels in gt/


def bench_script(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # as `python bench/NAME.py` runs
    return script_module(BENCH / f"{name}.py", f"recordlens_bench_{name}")


def collapsed(calls: list[str]) -> list[str]:
    """The calls with each run of one name said once: [a, a, b, a] -> [a, b, a]."""
    return [name for name, _ in itertools.groupby(calls)]


def logging_lxml(calls: list[str]) -> SimpleNamespace:
    """A stand-in for the script's `lxml` that notes each bare parse, then parses."""
    def document_fromstring(text: str) -> object:
        calls.append("lxml")
        return lxml.html.document_fromstring(text)

    return SimpleNamespace(html=SimpleNamespace(document_fromstring=document_fromstring))


def test_snapshot_times_the_reader_and_the_parser_in_turn(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "snapshot")
    calls: list[str] = []
    monkeypatch.setattr(script, "mhtml_bytes", lambda html, resources: b"archive")  # not the 60 MB one
    monkeypatch.setattr(script, "read_snapshot", lambda data: calls.append("read"))
    monkeypatch.setattr(script, "email", SimpleNamespace(message_from_bytes=lambda data: calls.append("email")))
    monkeypatch.setattr(sys, "argv", ["snapshot.py", "--repeat", "3"])  # the old option, --rounds' alias
    script.main()
    assert calls == ["read", "email"] * 6  # 3 rounds for each of the two archives
    out = capsys.readouterr().out
    assert "3 rounds, the reader and the parser timed in turn" in out, out


def test_extract_times_its_lxml_baseline_in_turn_with_the_work_as_often_as_the_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "extract")
    calls: list[str] = []

    class Logging:
        def __init__(self, name: str) -> None:
            self.name = name

        def extract(self, page: object) -> None:
            calls.append(self.name)

    monkeypatch.setattr(script, "create", Logging)
    monkeypatch.setattr(script, "lxml", logging_lxml(calls))
    for name in ("1", "2"):
        (tmp_path / f"{name}.html").write_text(f"<html><body><p>page {name}</p></body></html>", encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["extract.py", str(tmp_path)])
    assert script.main() == 0
    timing = script.BASELINE_RUNS
    assert calls.count("lxml") == timing  # the baseline only on the largest page, as often as BASELINE_RUNS
    assert calls[:4 * timing] == ["lxml", "mdr", "repeats", "selector"] * timing
    assert f"{timing} rounds, each work and the lxml parse timed in turn" in capsys.readouterr().out


def test_store_times_the_import_in_turn_with_its_baseline(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "store")
    calls: list[str] = []
    real_import = script.import_paths

    def import_paths(project: object, paths: list[str]) -> object:
        calls.append("import")
        return real_import(project, paths)

    monkeypatch.setattr(script, "import_paths", import_paths)
    monkeypatch.setattr(script, "lxml", logging_lxml(calls))
    monkeypatch.setattr(sys, "argv", ["store.py", str(DEMO), "--records", "60", "--repeat", "2", "--judged", "5"])
    assert script.main() == 0
    # Every round a parse of the pages and an import, in turn; then the project the reads are timed on.
    assert collapsed(calls) == ["lxml", "import"] * script.BASELINE_RUNS
    assert calls.count("import") == script.BASELINE_RUNS + 1
    assert "the import and the parse timed in turn" in capsys.readouterr().out
