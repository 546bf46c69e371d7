"""Conformance and speed of our MDR against NEXT-EVAL's reference (Rust MDR at HEAD, K=10, T=0.3).

1. Agreement: on the 17 samples with a kept reference output (`mdr-expected/sampleN.json`), our records are
   scored as predictions against the reference's as truth (core's score_page on the page's text map).
2. Quality: MDR against the ground truth on the 40 dev pages and on the 20 samples (published: 0.167 Rust,
   0.166 paper TS, NEXT-EVAL-NOTES §7).
3. Speed: seconds per page (parse, slim, re-parse, MDR), the best of `--repeat` runs (default 3) of each page, the
   largest page singled out; beside each time, its ratio to a bare lxml.html parse of the same page(s) in the same
   run (the best of at least ten runs: one page's parse takes milliseconds), which the machine's load moves alike.

    .venv/bin/python bench/mdr_vs_reference.py [--data ../shared/data] [--similarity levenshtein|lcs] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import lxml.html
from dev_data import DATA, require
from timing import BASELINE_RUNS, best_time

from recordlens.core.extract.mdr import MdrExtractor
from recordlens.core.page.dom import Page, parse_html
from recordlens.core.records.model import TextKeyIndex, load_records
from recordlens.core.records.score import DatasetScore, PageScore, score_page


def timed_extraction(extractor: MdrExtractor, text: str, repeat: int) -> tuple[Page, list[list[str]], float]:
    """The page parsed, MDR's records on it, and the best of `repeat` runs' seconds of parse + slim + re-parse +
    MDR (MDR is deterministic: every run predicts the same records)."""
    made: list[tuple[Page, list[list[str]]]] = []

    def parse_and_extract() -> None:
        page = parse_html(text)
        made.append((page, extractor.extract(page).records))

    seconds = best_time(repeat, parse_and_extract)
    return (*made[-1], seconds)


def lxml_parse_time(file: Path, repeat: int) -> float:
    """The best of `repeat` (at least BASELINE_RUNS) bare lxml.html parses of the page: the baseline its MDR time
    is shown against."""
    text = file.read_text(encoding="utf-8")
    return best_time(max(repeat, BASELINE_RUNS), lambda: lxml.html.document_fromstring(text))


def agreement(ours: list[list[str]], theirs: list[list[str]], keys: TextKeyIndex) -> tuple[float, bool]:
    """Our records scored against the reference's as truth, and whether they are the reference's XPaths to the
    letter once its leading /html[1] is dropped (ours start at /body[1]). The score needs no such stripping: it
    normalises every XPath as the reference does (`normalise_xpath`), /html[1] dropped."""
    theirs_stripped = [[x.removeprefix("/html[1]") for x in r] for r in theirs]
    return score_page(ours, theirs, keys).f1, ours == theirs_stripped


def against_lxml(seconds: float, baseline: float) -> str:
    return f"{seconds:.2f} s = {seconds / baseline:.1f}x a bare lxml.html parse ({baseline:.3f} s)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--similarity", choices=["levenshtein", "lcs"], default="levenshtein")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    samples, dev = args.data / "nexteval-samples", args.data / "nexteval-synth-dev"
    require(samples / "index.json", samples / "mdr-expected", dev / "html", dev / "gt")
    index: dict[str, int] = json.loads((samples / "index.json").read_text())
    extractor = MdrExtractor(similarity=args.similarity)

    # Every dev page: predictions, ground-truth scores, and the best of --repeat timings.
    runs: dict[int, tuple[list[list[str]], float, PageScore, TextKeyIndex]] = {}
    for path in sorted((dev / "html").glob("*.html"), key=lambda p: int(p.stem)):
        page, records, seconds = timed_extraction(extractor, path.read_text(encoding="utf-8"), args.repeat)
        keys = TextKeyIndex(page.text_map)
        truth = load_records(dev / "gt" / f"{path.stem}.json").records
        runs[int(path.stem)] = (records, seconds, score_page(records, truth, keys, path.stem), keys)

    print(f"Agreement with the reference's MDR ({args.similarity}; reference: Rust, Levenshtein)")
    print(f"{'sample':>8} {'page':>5} {'ours':>5} {'theirs':>6} {'F1':>6}  identical")
    f1s = []
    for expected in sorted((samples / "mdr-expected").glob("sample*.json"), key=lambda p: int(p.stem[6:])):
        number = index[expected.stem]
        theirs = json.loads(expected.read_text())["xpaths"]
        ours, _, _, keys = runs[number]
        f1, identical = agreement(ours, theirs, keys)
        f1s.append(f1)
        print(f"{expected.stem:>8} {number:>5} {len(ours):>5} {len(theirs):>6} {f1:6.3f}  {identical}")
    print(f"{'mean':>8} {'':>5} {'':>5} {'':>6} {sum(f1s) / len(f1s):6.3f}")

    print("\nAgainst the ground truth (means of per-page figures)")
    sample_pages = [runs[index[f"sample{n}"]][2] for n in range(1, 21)]
    for label, pages in (("40 dev pages", [r[2] for r in runs.values()]), ("20 samples", sample_pages)):
        score = DatasetScore(pages)
        print(f"  {label:<13} P {score.precision:.4f}  R {score.recall:.4f}  F1 {score.f1:.4f}  "
              f"pages with hallucination {score.hallucination_rate:.3f}")

    print(f"\nSeconds per page (parse + slim + re-parse + MDR; best of {args.repeat})")
    sizes = {n: (dev / "html" / f"{n}.html").stat().st_size for n in runs}
    largest = max(sizes, key=lambda n: sizes[n])
    total = sum(r[1] for r in runs.values())
    lxml_times = {n: lxml_parse_time(dev / "html" / f"{n}.html", args.repeat) for n in runs}
    print(f"  largest page {largest}.html ({sizes[largest] / 1e6:.2f} MB): "
          f"{against_lxml(runs[largest][1], lxml_times[largest])}")
    slowest = max(runs, key=lambda n: runs[n][1])
    print(f"  slowest page {slowest}.html: {against_lxml(runs[slowest][1], lxml_times[slowest])}")
    print(f"  all {len(runs)} pages: {against_lxml(total, sum(lxml_times.values()))}, mean {total / len(runs):.3f} s")


if __name__ == "__main__":
    main()
