"""Seconds from `MainWindow.open_page(name)` to `wait_until_drawn()` for the two heaviest dev pages, in the app.

bench/app.py times a bare PageView; this times what an annotator waits for on PgDn: the window opens the page,
reads its labels from the project, fills the record panel and draws every record. The pages are the same two
(the largest by file size, the one with the most ground-truth records), imported with their ground truth into a
project in a temporary folder. The window opens its first page while it is built (renderer start-up included):
that is reported on its own, then the two pages are opened in turn, RUNS times each, so every open is a page
change as in use. Two end points: "drawn" is the page's last `overlays_drawn` (the frame with the boxes
produced), "returned" is when the window's `wait_until_drawn()` returns (the picture has also stopped
changing). Target: "returned" <= 1.5 s. Last, on the page with most records, the time from R or A to its records
redrawn: what a reviewer waits for between two keys (`--keys-only`: that line alone, over 48 keys).

Cold start (target <= 2 s) is measured first, in fresh processes: from starting `python` to the window showing
the project's first page with its records drawn, as a user waits for after launching the app; each run also
prints where the time went (interpreter and imports, QApplication with Chromium's flags, building the window,
loading and drawing the page). Page-open times then cover the five largest dev pages and the one with most
records.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from app import RUNS, TARGET_SECONDS, heaviest_pages
from qt_bench import DEV, PeakRss, pss_mb, running_app


def make_project(folder: Path, pages: list[Path]):  # noqa: ANN201 - a Project
    """A project holding just these dev pages and their ground truth, imported as the CLI imports a dataset."""
    from recordlens.core.store.importer import import_paths
    from recordlens.core.store.project import init_project

    dataset = folder / "dataset"
    (dataset / "html").mkdir(parents=True)
    (dataset / "gt").mkdir()
    for page in pages:
        shutil.copy(page, dataset / "html" / page.name)
        shutil.copy(DEV / "gt" / f"{page.stem}.json", dataset / "gt" / f"{page.stem}.json")
    project = init_project(folder / "project")
    report = import_paths(project, [dataset])
    if report.problems or sorted(report.imported) != sorted(p.stem for p in pages):
        raise RuntimeError(f"import failed: {[str(p) for p in report.problems]}")
    return project


COLD_RUNS = 3
COLD_TARGET_SECONDS = 2.0
# What a fresh process runs: the app's own start-up path (app.main without its argument parsing and event loop).
_COLD_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from recordlens.annotator.qt import env as qt_env
app = qt_env.create_application(["recordlens-cold"])
t1 = time.perf_counter()
from recordlens.annotator.labelling.main_window import MainWindow
from recordlens.annotator.settings import SessionKeyStore, Settings
from recordlens.core.store import open_project
t2 = time.perf_counter()
window = MainWindow(open_project(sys.argv[1]), settings=Settings(annotator="bench"), settings_file=None,
                    key_store=SessionKeyStore())
window.resize(1530, 920)
window.show()
t3 = time.perf_counter()
window.wait_until_drawn(60_000)
t4 = time.perf_counter()
print(json.dumps({"app": t1 - t0, "imports": t2 - t1, "window": t3 - t2, "drawn": t4 - t3,
                  "page": window.page_name}), flush=True)
window.shutdown()
"""


def cold_start(project_dir: Path, settings_dir: Path) -> list[dict[str, float]]:
    """Fresh processes: seconds from spawning python to the first page drawn, and the child's own split."""
    env = dict(os.environ)
    if not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["XDG_CONFIG_HOME"] = str(settings_dir)  # no user settings are read or written
    results = []
    for _ in range(COLD_RUNS):
        begin = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", _COLD_CHILD, str(project_dir)], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, env=env, text=True)
        line = child.stdout.readline() if child.stdout else ""
        total = time.perf_counter() - begin
        child.wait(60)
        split = json.loads(line) if line.strip() else {}
        split["total"] = total
        split["python"] = total - sum(float(split.get(k, 0.0)) for k in ("app", "imports", "window", "drawn"))
        results.append(split)
    return results


JUDGED_KEYS = 12


def judge_times(window: Any, page: str, keys: int = JUDGED_KEYS) -> dict[str, list[float]]:
    """Seconds from R or A (as the window runs them) to the page's records drawn again, alternating on one
    record of the page with the most records, as a reviewer goes through proposals one key per record; by key."""
    window.open_page(page)
    window.wait_until_drawn(60_000)
    record = window.labels[min(10, len(window.labels) - 1)].id
    times: dict[str, list[float]] = {"R": [], "A": []}
    for k in range(keys):
        window.select_records([record])
        window.wait_until_drawn(60_000)
        begin = time.perf_counter()
        (window.record_actions.do_reject if k % 2 == 0 else window.record_actions.do_accept)()
        window.page_view.wait_until_drawn(60_000)
        times["R" if k % 2 == 0 else "A"].append(time.perf_counter() - begin)
    return times


def judge_line(page: str, records: int, judged: dict[str, list[float]]) -> str:
    every = judged["R"] + judged["A"]
    return (f"one key per record on page {page} ({records} records): reject or accept to the records redrawn, "
            f"median {statistics.median(every):.2f} s (R {statistics.median(judged['R']):.2f}, A "
            f"{statistics.median(judged['A']):.2f}), max {max(every):.2f} s over {len(every)} keys (the Python "
            f"part: the store, the record list; the rest is the page's drawing)")


def largest_pages(dev: Path, count: int = 5) -> list[Path]:
    return sorted((dev / "html").glob("*.html"), key=lambda p: p.stat().st_size, reverse=True)[:count]


def main() -> int:
    keys_only = "--keys-only" in sys.argv[1:]
    with running_app("bench/app_window.py") as started:
        if started is None:
            return 0
        return measure_keys() if keys_only else measure(*started)


def measure_keys(keys: int = 4 * JUDGED_KEYS) -> int:
    """`--keys-only`: the R/A line alone, over more keys (quick, for comparing two versions of the code)."""
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.annotator.settings import SessionKeyStore, Settings

    _, path, _ = heaviest_pages(DEV)[1]
    with tempfile.TemporaryDirectory(prefix="recordlens-bench-") as tmp:
        project = make_project(Path(tmp), [path])
        window = MainWindow(project, settings=Settings(annotator="bench"), settings_file=Path(tmp) / "settings.json",
                            key_store=SessionKeyStore())
        try:
            window.resize(1530, 920)
            window.show()
            window.wait_until_drawn(60_000)
            judged = judge_times(window, path.stem, keys)
            print(judge_line(path.stem, len(window.labels), judged))
        finally:
            window.shutdown()
    return 0


def measure(app: Any, peak: PeakRss) -> int:  # noqa: ARG001 (the app must live while this measures)
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.annotator.settings import SessionKeyStore, Settings

    pages = heaviest_pages(DEV)
    known = {path for _, path, _ in pages}
    pages += [(f"large ({p.stat().st_size / 1e6:.1f} MB)", p, []) for p in largest_pages(DEV) if p not in known]
    with tempfile.TemporaryDirectory(prefix="recordlens-bench-") as tmp:
        project = make_project(Path(tmp), [path for _, path, _ in pages])
        project.close()
        colds = cold_start(Path(tmp) / "project", Path(tmp) / "config")
        from recordlens.core.store import open_project

        project = open_project(Path(tmp) / "project")
        drawn_at = [0.0]
        start = time.perf_counter()
        window = MainWindow(project, settings=Settings(annotator="bench"), settings_file=Path(tmp) / "settings.json",
                            key_store=SessionKeyStore())
        window.page_view.overlays_drawn.connect(lambda _boxes: drawn_at.__setitem__(0, time.perf_counter()))
        try:
            window.resize(1530, 920)
            window.show()
            first_page = window.page_name
            window.wait_until_drawn(60_000)
            cold = time.perf_counter() - start

            def open_and_draw(name: str) -> tuple[float, float, int, int]:
                drawn_at[0] = 0.0
                begin = time.perf_counter()
                window.open_page(name)
                window.wait_until_drawn(60_000)
                returned = time.perf_counter() - begin
                summary = window.page_view.last_summary
                assert summary is not None and window.page_name == name
                drawn = (drawn_at[0] or time.perf_counter()) - begin
                return drawn, returned, summary.records, summary.boxes

            times: dict[str, list[tuple[float, float, int, int]]] = {path.stem: [] for _, path, _ in pages}
            for _ in range(RUNS):
                for _, path, _ in pages:
                    times[path.stem].append(open_and_draw(path.stem))
            peak.sample()
            judged = judge_times(window, pages[1][1].stem)
            totals = [c["total"] for c in colds]
            print(f"cold start, fresh process to page {colds[0].get('page')} drawn with its records: median "
                  f"{statistics.median(totals):.2f} s, max {max(totals):.2f} s over {len(colds)} starts "
                  f"(target <= {COLD_TARGET_SECONDS} s: {'met' if max(totals) <= COLD_TARGET_SECONDS else 'NOT met'})")
            for name in ("python", "app", "imports", "window", "drawn"):
                values = [float(c.get(name, 0.0)) for c in colds]
                print(f"  {name:<8} median {statistics.median(values):.2f} s")
            print("  (python: interpreter start and the first imports; app: QApplication and Chromium's set-up; "
                  "imports: the window's modules and the core; window: building it with its first page queued; "
                  "drawn: the page loaded and its records on screen)")
            print(f"in this process, window built with page {first_page} on show, renderer start-up included: "
                  f"{cold:.2f} s")
            print(f"{'page':<28} {'drawn s':>8} {'max':>6} {'returned s':>10} {'max':>6} {'records':>7} "
                  f"{'boxes':>6}")
            worst = 0.0
            for label, path, _ in pages:
                runs = times[path.stem]
                drawn = [t[0] for t in runs]
                returned = [t[1] for t in runs]
                worst = max(worst, *returned)
                print(f"{label + ' ' + path.name:<28} {statistics.median(drawn):8.2f} {max(drawn):6.2f} "
                      f"{statistics.median(returned):10.2f} {max(returned):6.2f} {runs[-1][2]:7d} {runs[-1][3]:6d}")
            verdict = "met" if worst <= TARGET_SECONDS else "NOT met"
            print(f"time target (open_page to wait_until_drawn() <= {TARGET_SECONDS} s): {verdict}, worst "
                  f"{worst:.2f} s over {RUNS} opens of each page")
            print(judge_line(pages[1][1].stem, len(window.labels), judged))
            print(f"memory: peak RSS summed over the process tree {peak.mb:.0f} MB, PSS at the end {pss_mb():.0f} MB")
            return 0
        finally:
            window.shutdown()


if __name__ == "__main__":
    sys.exit(main())
