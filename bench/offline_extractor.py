"""The offline extractor ("repeats") on the dev pages: per-page P/R/F1, the means, the hallucination rate, and
timings (parse and extraction, the largest page and all pages). The dev pages are split in two halves (even and
odd positions in page-number order) to show that the figures do not hinge on one half.

Usage: python bench/offline_extractor.py [DATASET_DIR] [--repeat N]"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from timing import best_time

from recordlens.core.extract.repeats import RepeatsExtractor
from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import TextKeyIndex, load_records
from recordlens.core.records.score import PageScore, score_page

DEFAULT_DATASET = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "nexteval-synth-dev"


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def summary(label: str, scores: list[PageScore]) -> str:
    hallucinating = sum(1 for s in scores if s.hallucinated)
    return (f"{label:<14} pages {len(scores):3d}  P {mean([s.precision for s in scores]):.4f}  "
            f"R {mean([s.recall for s in scores]):.4f}  F1 {mean([s.f1 for s in scores]):.4f}  "
            f"HR {hallucinating / len(scores) if scores else 0.0:.4f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--repeat", type=int, default=3, help="timing runs per page (the best is kept)")
    args = parser.parse_args()
    dataset = Path(args.dataset)
    files = sorted((dataset / "html").glob("*.html"), key=lambda f: int(f.stem) if f.stem.isdigit() else 0)
    if not files:
        print(f"no pages in {dataset / 'html'}", file=sys.stderr)
        return 1
    extractor = RepeatsExtractor()
    scores: list[PageScore] = []
    timings: list[tuple[float, float, str, int]] = []
    print(f"{'page':>6} {'bytes':>9} {'pred':>5} {'true':>5}  {'P':>6} {'R':>6} {'F1':>6}  "
          f"{'parse s':>8} {'extract s':>9}")
    for file in files:
        html = file.read_text(encoding="utf-8")
        page = parse_html(html)
        truth = load_records(dataset / "gt" / f"{file.stem}.json").records
        extraction = extractor.extract(page)
        score = score_page(extraction.records, truth, TextKeyIndex(page.text_map), file.stem)
        scores.append(score)
        parse_seconds = best_time(args.repeat, lambda h=html: parse_html(h))
        extract_seconds = best_time(args.repeat, lambda p=page: extractor.extract(p))
        size = file.stat().st_size
        timings.append((parse_seconds, extract_seconds, file.stem, size))
        print(f"{file.stem:>6} {size:>9} {score.predicted_records:>5} {score.true_records:>5}  "
              f"{score.precision:6.3f} {score.recall:6.3f} {score.f1:6.3f}  "
              f"{parse_seconds:8.3f} {extract_seconds:9.3f}")
    print()
    print(summary("all", scores))
    print(summary("half A (even)", scores[0::2]))
    print(summary("half B (odd)", scores[1::2]))
    records = sum(s.predicted_records for s in scores)
    empty = sum(s.hallucinated_records for s in scores)
    print(f"hallucinated records: {empty} of {records}")
    parse_seconds, extract_seconds, name, size = max(timings, key=lambda t: t[3])
    print(f"largest page {name} ({size / 1e6:.2f} MB): parse {parse_seconds:.3f} s + extract {extract_seconds:.3f} s "
          f"= {parse_seconds + extract_seconds:.3f} s")
    slowest = max(timings, key=lambda t: t[1])
    print(f"slowest extraction: page {slowest[2]} {slowest[1]:.3f} s")
    print(f"all {len(timings)} pages: parse {sum(t[0] for t in timings):.3f} s + extract "
          f"{sum(t[1] for t in timings):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
