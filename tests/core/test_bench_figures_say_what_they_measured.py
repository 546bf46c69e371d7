"""The benchmark scripts print what they measured and on what: a speed ratio timed in turn with its baseline
(bench/represent.py), the page and its dataset (bench/extract.py), a target only on the line it applies to, the
default extractor in the robustness table (bench/synth.py), and a same-process baseline beside absolute times
(bench/snapshot.py, bench/mdr_vs_reference.py, bench/store.py, bench/offline_extractor.py, bench/app.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from recordlens.core.resource_files import resource_path
from tests.script_modules import script_module

BENCH = Path(__file__).resolve().parents[2] / "bench"
DEMO = resource_path("demo", "dataset")  # the demo's four pages and their labels
PAGE = "<html><body><ul>" + "".join(f"<li><b>item {i}</b> <i>{i} €</i></li>" for i in range(6)) + "</ul></body></html>"


def bench_script(monkeypatch: pytest.MonkeyPatch, name: str) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # as `python bench/NAME.py` runs
    return script_module(BENCH / f"{name}.py", f"recordlens_bench_{name}")


def pages_folder(tmp_path: Path, dataset: str) -> Path:
    folder = tmp_path / dataset / "html"
    folder.mkdir(parents=True)
    for number, copies in ((1, 1), (2, 3)):
        (folder / f"{number}.html").write_text(PAGE.replace("<ul>", "<ul>" * copies), encoding="utf-8")
    return folder


def run_main(monkeypatch: pytest.MonkeyPatch, script: ModuleType, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", [f"{script.__name__}.py", *args])
    script.main()


def test_interleaved_rounds_run_every_work_in_turn_and_report_the_median_ratio(
        monkeypatch: pytest.MonkeyPatch) -> None:
    timing = bench_script(monkeypatch, "timing")
    order: list[str] = []
    times = timing.interleaved_times(3, {"base": lambda: order.append("base"), "work": lambda: order.append("work")})
    assert order == ["base", "work"] * 3  # alternated, not one block after the other
    assert [len(t) for t in times.values()] == [3, 3]
    # a busy spell in round 2 slows both alike: the ratio stays 10, where a best-of over blocks could not say
    assert timing.median_ratio([1.0, 5.0, 1.2], [0.1, 0.5, 0.1]) == pytest.approx(10.0)


def test_represent_prints_the_median_of_interleaved_rounds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "represent")
    run_main(monkeypatch, script, str(pages_folder(tmp_path, "pages")), "--rounds", "3")
    out = capsys.readouterr().out
    assert "3 rounds, baseline and work timed in turn" in out
    formats_row = next(line for line in out.splitlines() if "all 5 formats" in line)
    assert "-" in formats_row and "(target <= 2)" in formats_row  # median ratio, the rounds' range, the target


def test_extract_names_the_page_with_its_dataset_and_the_target_only_where_it_applies(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "extract")
    run_main(monkeypatch, script, str(pages_folder(tmp_path, "nexteval-synth-more")), "--repeat", "1")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("largest page: nexteval-synth-more/2.html")  # not "largest dev page" whatever folder
    with_target = [line for line in lines if "target" in line]
    assert len(with_target) == 1 and with_target[0].startswith("selector, incl. model load and parse")


def test_the_robustness_table_has_the_default_extractor(monkeypatch: pytest.MonkeyPatch) -> None:
    script = bench_script(monkeypatch, "synth")
    assert "selector" in script.METHODS
    rows = [("original", 0, {"mdr": 0.1, "repeats": 0.9, "selector": 0.95}),
            ("insert_chrome", 2, {"mdr": 0.05, "repeats": 0.8, "selector": 0.9})]
    table = script.format_table(rows, 2).splitlines()
    assert "selector F1 | Δ selector |" in table[0] and table[1].count("---:") == 1 + 2 * len(script.METHODS)
    assert table[-1] == "| insert_chrome | 2/2 | 0.050 | -0.050 | 0.800 | -0.100 | 0.900 | -0.050 |"


def test_the_robustness_bench_says_under_its_table_that_the_offline_columns_are_in_sample(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "synth")
    run_main(monkeypatch, script, str(DEMO), "--limit", "1")
    out = capsys.readouterr().out
    assert "| selector F1 | Δ selector |" in out
    assert out.rstrip().endswith("both columns are in-sample; read their deltas)")


def test_snapshot_reads_against_a_baseline_of_its_own_size(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    script = bench_script(monkeypatch, "snapshot")
    monkeypatch.setattr(script, "mhtml_bytes", lambda html, resources: b"archive")  # not the 60 MB one
    monkeypatch.setattr(script, "read_snapshot", lambda data: None)
    parsed: list[bytes] = []
    monkeypatch.setattr(script.email, "message_from_bytes", parsed.append)
    run_main(monkeypatch, script, "--rounds", "1")
    assert parsed == [b"archive", b"archive"]  # Python's MIME parser on each archive, not a decode of its HTML
    assert "email s" in capsys.readouterr().out


def test_mdr_and_store_times_come_with_a_bare_parse_of_the_same_pages(monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    mdr = bench_script(monkeypatch, "mdr_vs_reference")
    assert mdr.against_lxml(0.5, 0.05) == "0.50 s = 10.0x a bare lxml.html parse (0.050 s)"
    store = bench_script(monkeypatch, "store")
    run_main(monkeypatch, store, str(DEMO), "--records", "200", "--repeat", "2", "--judged", "20")
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("import 4 pages") and "x a bare lxml.html parse of the same pages" in first


def test_the_timing_line_has_a_baseline_from_its_own_process(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    script = bench_script(monkeypatch, "offline_extractor")
    page = tmp_path / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    line = script.time_extraction(page)
    assert "model load" in line and "x a bare lxml.html parse of the page in the same process" in line


def test_app_memory_is_printed_over_a_baseline_of_the_same_view(monkeypatch: pytest.MonkeyPatch) -> None:
    script = bench_script(monkeypatch, "app")

    class View:  # stands in for PageView: the baseline is read once a page is open in it
        opened: list[str] = []

        def open(self, path: Path) -> None:
            self.opened.append(path.read_text(encoding="utf-8"))

        def wait_until_loaded(self, timeout_ms: int) -> bool:
            return True

    monkeypatch.setattr(script, "rss_mb", lambda: 300.0)
    monkeypatch.setattr(script, "pss_mb", lambda: 200.0)
    view = View()
    assert script.baseline_memory(view) == (300.0, 200.0)
    assert view.opened == ["<html><body><p>baseline</p></body></html>"]
