"""Seconds to train the selector on labelled dev pages in one process against worker processes (one per core by
default), in the same run, and whether both give the same model file (they must: each fit depends on its own
inputs only). Candidates and features are prepared once, before either is timed.

Usage: python bench/training.py [--pages N] [--workers W] [--seed S]"""

from __future__ import annotations

import argparse
import hashlib
import time

from dev_data import development_sets

from recordlens.core.extract.fit_pool import fit_workers
from recordlens.core.extract.training import dataset_pages, fit, prepare


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=40, help="how many of the 80 dev pages (default 40)")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    pages = [lp for html, gt in development_sets() for lp in dataset_pages(html, gt)][:args.pages]
    started = time.perf_counter()
    examples = prepare(pages)
    print(f"{len(examples)} pages, {sum(len(e.features) for e in examples)} candidate regions, prepared in "
          f"{time.perf_counter() - started:.1f} s")
    workers = fit_workers(args.workers)
    seconds, digests = {}, {}
    for count in (1, workers):
        started = time.perf_counter()
        model = fit(examples, seed=args.seed, workers=count).to_json()
        seconds[count] = time.perf_counter() - started
        digests[count] = hashlib.sha256(model.encode()).hexdigest()[:16]
        print(f"fit in {count} process(es): {seconds[count]:.1f} s, model {digests[count]}", flush=True)
    print(f"{workers} workers against one process: {seconds[workers] / seconds[1]:.2f} of the time; "
          f"same model file: {'yes' if digests[1] == digests[workers] else 'NO'}")
    return 0 if digests[1] == digests[workers] else 1


if __name__ == "__main__":
    raise SystemExit(main())
