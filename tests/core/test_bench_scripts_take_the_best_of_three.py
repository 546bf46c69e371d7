"""bench/mdr_vs_reference.py times the best of three runs (`--repeat`, as bench/extract.py), as the README's
Benchmarks section says of every time it gives unless said otherwise: one run moves with the machine's load.
(bench/snapshot.py times its reader and its baseline in turn: tests/core/test_bench_baselines_timed_in_turn.py.)"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.script_modules import script_module

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_script(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # as `python bench/NAME.py` runs
    return script_module(BENCH / f"{name}.py", f"recordlens_bench_{name}")


class CountingExtractor:
    """An extractor that predicts one record and counts its runs."""

    def __init__(self) -> None:
        self.runs = 0

    def extract(self, page: object) -> object:
        self.runs += 1
        return type("Extraction", (), {"records": [["/body[1]/p[1]"]]})()


def test_mdr_vs_reference_times_each_page_as_the_best_of_its_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    script = bench_script(monkeypatch, "mdr_vs_reference")
    extractor = CountingExtractor()
    page, records, seconds = script.timed_extraction(extractor, "<html><body><p>a text</p></body></html>", 3)
    assert extractor.runs == 3  # each run timed, the best kept: no run beside them
    assert records == [["/body[1]/p[1]"]] and "/body[1]/p[1]" in page.text_map and seconds >= 0.0
