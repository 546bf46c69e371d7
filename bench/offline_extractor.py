"""Honest figures for the offline extractors on the 80 development pages (nexteval-synth-dev + -more).

The report is `recordlens bench --cv K` on the two shared datasets (core/runs/cross_validation.py says what each
row measures): `selector` (trained) by page-grouped K-fold cross-validation (K = 5, fixed seed), each page
extracted by a model fitted on the other folds only, over 3 fold splits by default (their mean is the
headline); `repeats` (hand rules tuned on nexteval-synth-dev), honest on nexteval-synth-more; the
best-candidate oracle (also kept out of page chrome) and the ground-truth ceiling. This script adds the timing
of the largest page extracted with the shipped model, including the model's load, in a fresh process as one
`extract` command runs it: not inside this one, whose state after a long cross-validation is not a user's.

A change to how regions are *chosen* (`selector.select`), not to what is learnt, is measured without fitting the
folds again: `--save-probabilities FILE` keeps every split's out-of-fold probabilities, and `--from-probabilities
FILE` scores today's choice on them (refused when the candidates, labels or folds differ: core/runs/saved_folds.py;
read with a warning line under the report when scikit-learn's or numpy's version differs from the file's).

Usage: python bench/offline_extractor.py [--folds K] [--seed S] [--splits R] [--per-page] [--json FILE]
                                         [--save-probabilities FILE | --from-probabilities FILE]
       python bench/offline_extractor.py --time-page FILE   (the timing line alone)"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import lxml.html
from dev_data import DATA, development_sets
from timing import BASELINE_RUNS, best_time

from recordlens.core.atomic import write_text
from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.page.dom import parse_html
from recordlens.core.runs.cross_validation import PageResult, cross_validate_sets, format_report
from recordlens.core.runs.saved_folds import versions_warning


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--splits", type=int, default=3, help="fold splits to average over (seeds S..S+R-1)")
    parser.add_argument("--per-page", action="store_true", help="print every page's figures")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON to FILE")
    parser.add_argument("--time-page", metavar="FILE", help="only time the extraction of this page file")
    saved = parser.add_mutually_exclusive_group()
    saved.add_argument("--save-probabilities", metavar="FILE", help="keep the out-of-fold probabilities in FILE")
    saved.add_argument("--from-probabilities", metavar="FILE",
                       help="score today's choice of regions on the probabilities kept in FILE, fitting nothing")
    args = parser.parse_args()
    if args.time_page:
        print(time_extraction(Path(args.time_page)))
        return 0
    cv = cross_validate_sets(development_sets(), args.folds, args.seed, splits=args.splits,
                             save_probabilities=args.save_probabilities, from_probabilities=args.from_probabilities)
    print(f"{len(cv.pages)} pages: candidates {cv.seconds['prepare']:.1f} s, cross-validation "
          f"{cv.seconds['cross_validation']:.1f} s", file=sys.stderr)
    print(format_report(cv, per_page=args.per_page))
    if args.from_probabilities and (warning := versions_warning(args.from_probabilities)) is not None:
        print(warning)
    if args.json:
        import json

        write_text(args.json, json.dumps(cv.as_dict(), indent=2) + "\n")
    _timing(cv.pages)
    return 0


def _timing(pages: Sequence[PageResult]) -> None:
    """The largest page's timing line, from a fresh process."""
    def file_of(p: PageResult) -> Path:
        return DATA / p.dataset / "html" / f"{p.page}.html"

    largest = max(pages, key=lambda p: file_of(p).stat().st_size)
    timed = subprocess.run([sys.executable, __file__, "--time-page", str(file_of(largest))], check=True,
                           capture_output=True, text=True)
    print(f"largest page {largest.dataset}/{largest.page} " + timed.stdout.strip())


def time_extraction(file: Path) -> str:
    """`(size MB): model load + parse + extract = total`, timed once in this process, and the total's ratio to a
    bare lxml.html parse of the page timed after it in the same process: the load of the machine moves both."""
    html = file.read_text(encoding="utf-8")
    start = time.perf_counter()
    model = SelectorModel.load(DEFAULT_MODEL)  # a fresh read, not the extractor's cache
    loaded = time.perf_counter()
    page = parse_html(html)
    parsed = time.perf_counter()
    SelectorExtractor(model).extract(page)
    done = time.perf_counter()
    baseline = best_time(BASELINE_RUNS, lambda: lxml.html.document_fromstring(html))
    return (f"({len(html) / 1e6:.2f} MB): model load {loaded - start:.3f} s + parse {parsed - loaded:.3f} s + "
            f"extract {done - parsed:.3f} s = {done - start:.3f} s = {(done - start) / baseline:.1f}x a bare "
            f"lxml.html parse of the page in the same process ({baseline:.3f} s, best of {BASELINE_RUNS})")


if __name__ == "__main__":
    sys.exit(main())
