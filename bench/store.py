"""Project store timings: importing the 40 dev pages (snapshots stored, ground truth checked and labelled), then,
with the project grown to 12,000 records, reading one page's labels for display and applying one label edit;
last, a page of 10,000 proposals judged at once (Ctrl+A, then A: one step of one change per record, as the app's
`edit_each` makes it) and that page's history read and numbered as Ctrl+H shows it. The import is also shown
against a bare lxml.html parse of the same pages in the same run.
Usage: python bench/store.py [DATASET_DIR] [--records N] [--repeat N] [--judged N]"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import lxml.html
from dev_data import DEV
from timing import BASELINE_RUNS, best_time

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, history_numbers, init_project

DEFAULT_DATASET = DEV
ANNOTATOR = Provenance.person("bench")
EXTRACTOR = Provenance.extractor("bench", "1", "flat")


def median_ms(repeat: int, work) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def lxml_parse_time(html_folder: Path) -> float:
    """The best of BASELINE_RUNS bare lxml.html parses of the folder's pages: the baseline the import is shown
    against, so that its figure can be compared across days of different load."""
    texts = [f.read_text(encoding="utf-8") for f in sorted(html_folder.glob("*.html"))]

    def parse_each() -> None:  # each tree let go before the next, as bench/represent.py's baseline
        for text in texts:
            lxml.html.document_fromstring(text)

    return best_time(BASELINE_RUNS, parse_each)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--records", type=int, default=12_000, help="records in the project for the read timing")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--judged", type=int, default=10_000, help="proposals of one page accepted at once")
    args = parser.parse_args()
    if not (Path(args.dataset) / "html").is_dir():
        print(f"no dataset (html/ + gt/) at {args.dataset}", file=sys.stderr)
        return 1
    baseline = lxml_parse_time(Path(args.dataset) / "html")
    with tempfile.TemporaryDirectory() as tmp, init_project(Path(tmp) / "bench") as project:
        start = time.perf_counter()
        report = import_paths(project, [args.dataset])
        import_seconds = time.perf_counter() - start
        if report.problems:
            print(*report.problems, sep="\n", file=sys.stderr)
            return 1
        pages = project.pages()
        count = project.one("SELECT COUNT(*) FROM records")[0]
        # Grow the project as an extractor would: batches of proposals spread over the pages, one change each.
        missing, k = args.records - count, 0
        while missing > 0:
            batch = min(100, missing)
            project.add_records(pages[k % len(pages)].name, [[f"/body[1]/p[{i}]"] for i in range(batch)], EXTRACTOR)
            missing, k = missing - batch, k + 1
        total = project.one("SELECT COUNT(*) FROM records")[0]
        busiest = max(project.pages(), key=lambda p: p.true_labels + p.proposed)
        shown = len(project.labels(busiest.name))
        read_ms = median_ms(args.repeat, lambda: project.labels(busiest.name))
        list_ms = median_ms(max(args.repeat // 10, 5), project.pages)
        target = project.labels(busiest.name)[0]
        flip = iter(range(10**9))
        edit_ms = median_ms(args.repeat, lambda: (project.accept if next(flip) % 2 else project.reject)(
            target.id, ANNOTATOR))
        judge_s, history_s, changes = judge_a_page(project, pages[-1].name, args.judged)
    megabytes = sum(f.stat().st_size for f in (Path(args.dataset) / "html").iterdir()) / 1e6
    print(f"import {len(report.imported)} pages ({megabytes:.1f} MB, {report.labels} labels): "
          f"{import_seconds:.2f} s = {import_seconds / baseline:.1f}x a bare lxml.html parse of the same pages "
          f"({baseline:.3f} s, best of {BASELINE_RUNS}, same run)")
    print(f"project with {total:,} records, median of {args.repeat}:")
    print(f"  labels of one page for display ({shown} records, page {busiest.name}): {read_ms:.2f} ms")
    print(f"  page list with label counts ({len(pages)} pages): {list_ms:.2f} ms")
    print(f"  one label edit (accept/reject, with its history entry, committed): {edit_ms:.2f} ms")
    print(f"  {args.judged:,} proposals of one page accepted as one step (Ctrl+A, A): {judge_s:.2f} s")
    print(f"  that page's history read and numbered ({changes:,} changes, Ctrl+H): {history_s:.2f} s")
    return 0


def judge_a_page(project, page: str, count: int) -> tuple[float, float, int]:  # noqa: ANN001 - a Project
    """Seconds to accept `count` new proposals of `page` as the app's one step does (the page's newest change read
    before each change, as each undo command reads it), and to read and number the page's history for Ctrl+H."""
    project.add_records(page, [[f"/body[1]/ol[1]/li[{k}]"] for k in range(1, count + 1)], EXTRACTOR)
    proposed = [label.id for label in project.labels(page, ["proposed"])]
    start = time.perf_counter()
    with project.one_step("accept record"):
        for record in proposed:
            project.last_change_id(page)
            project.accept(record, ANNOTATOR)
    judged = time.perf_counter() - start
    start = time.perf_counter()
    history = project.history(page)
    history_numbers(history)
    return judged, time.perf_counter() - start, len(history)


if __name__ == "__main__":
    sys.exit(main())
