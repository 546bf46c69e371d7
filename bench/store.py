"""Project store timings: importing the 40 dev pages (snapshots stored, ground truth checked and labelled), then,
with the project grown to 12,000 records, reading one page's labels for display and applying one label edit;
last, a page of 10,000 proposals judged at once (Ctrl+A, then A: one step of one change per record, as the app's
`edit_each` makes it) and that page's history read and numbered as Ctrl+H shows it. The import is also shown
against a bare lxml.html parse of the same pages, the two timed in turn over BASELINE_RUNS (10) rounds (each import
into a fresh project).
Usage: python bench/store.py [DATASET_DIR] [--records N] [--repeat N] [--judged N]"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import lxml.html
from dev_data import DEV, require
from timing import BASELINE_RUNS, interleaved_times, median_ratio

from recordlens.core.store.importer import ImportReport, import_paths
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


def lxml_parse(html_folder: Path) -> Callable[[], None]:
    """A bare lxml.html parse of the folder's pages: the baseline the import is shown against, timed in turn with it,
    so that its ratio can be compared across days of different load."""
    texts = [f.read_text(encoding="utf-8") for f in sorted(html_folder.glob("*.html"))]

    def parse_each() -> None:  # each tree let go before the next, as bench/represent.py's baseline
        for text in texts:
            lxml.html.document_fromstring(text)

    return parse_each


def timed_imports(dataset: str, folder: Path, rounds: int) -> tuple[dict[str, list[float]], ImportReport]:
    """Each round's seconds of the dataset imported into a fresh project of its own and of the baseline's parse,
    the two in turn; and the last import's report. The fresh project's making and removal (milliseconds, against
    the import's most of a second) are timed with its import."""
    reports: list[ImportReport] = []

    def import_fresh() -> None:
        with tempfile.TemporaryDirectory() as tmp, init_project(Path(tmp) / "bench") as project:
            reports.append(import_paths(project, [dataset]))

    return interleaved_times(rounds, {"lxml": lxml_parse(folder), "import": import_fresh}), reports[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--records", type=int, default=12_000, help="records in the project for the read timing")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--judged", type=int, default=10_000, help="proposals of one page accepted at once")
    args = parser.parse_args()
    require(Path(args.dataset) / "html", Path(args.dataset) / "gt")
    imports, report = timed_imports(args.dataset, Path(args.dataset) / "html", BASELINE_RUNS)
    if report.problems:
        print(*report.problems, sep="\n", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp, init_project(Path(tmp) / "bench") as project:
        import_paths(project, [args.dataset])  # the project the reads and edits below are timed on
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
          f"{min(imports['import']):.2f} s = {median_ratio(imports['import'], imports['lxml']):.1f}x a bare "
          f"lxml.html parse of the same pages ({min(imports['lxml']):.3f} s); {BASELINE_RUNS} rounds, each into a "
          "fresh project, the import and the parse timed in turn: the best seconds of each, the median of the "
          "rounds' ratios")
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
