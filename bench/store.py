"""Project store timings: importing the 40 dev pages (snapshots stored, ground truth checked and labelled), then,
with the project grown to 12,000 records, reading one page's labels for display and applying one label edit.
Usage: python bench/store.py [DATASET_DIR] [--records N] [--repeat N]"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dev_data import DEV

from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, init_project

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--records", type=int, default=12_000, help="records in the project for the read timing")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    if not (Path(args.dataset) / "html").is_dir():
        print(f"no dataset (html/ + gt/) at {args.dataset}", file=sys.stderr)
        return 1
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
    megabytes = sum(f.stat().st_size for f in (Path(args.dataset) / "html").iterdir()) / 1e6
    print(f"import {len(report.imported)} pages ({megabytes:.1f} MB, {report.labels} labels): "
          f"{import_seconds:.2f} s")
    print(f"project with {total:,} records, median of {args.repeat}:")
    print(f"  labels of one page for display ({shown} records, page {busiest.name}): {read_ms:.2f} ms")
    print(f"  page list with label counts ({len(pages)} pages): {list_ms:.2f} ms")
    print(f"  one label edit (accept/reject, with its history entry, committed): {edit_ms:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
