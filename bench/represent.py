"""Time to produce every LLM input format for the 40 dev pages, against a bare lxml.html parse of the same
pages in the same run (target ratio <= 2), and the median size of each format (target: outline <= 40% of
Flat JSON). The baseline and the work are timed in turn, round after round (`--rounds`, default 5); each
ratio printed is the median of the rounds' ratios, with their range.

Usage: python bench/represent.py [PAGES_DIR] [--rounds N]"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import lxml.html
from dev_data import DEV
from timing import interleaved_times, median_ratio, round_ratios

from recordlens.core.page import formats as represent
from recordlens.core.page.dom import parse_html

DEFAULT_PAGES = DEV / "html"


def ratio_row(label: str, work: list[float], baseline: list[float]) -> str:
    """One row: the work's median seconds, the median of its rounds' ratios to the baseline, and their range."""
    ratios = round_ratios(work, baseline)
    return (f"{label:<40} {statistics.median(work):8.3f} {median_ratio(work, baseline):7.2f} "
            f" {min(ratios):.2f}-{max(ratios):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pages", nargs="?", default=str(DEFAULT_PAGES))
    parser.add_argument("--rounds", type=int, default=5, help="rounds of baseline and work timed in turn")
    args = parser.parse_args()
    files = sorted(Path(args.pages).glob("*.html"))
    if not files:
        print(f"no pages in {args.pages}", file=sys.stderr)
        return 1
    texts = [f.read_text(encoding="utf-8") for f in files]
    megabytes = sum(len(f.read_bytes()) for f in files) / 1e6

    def lxml_parse() -> None:
        for text in texts:
            lxml.html.document_fromstring(text)

    def parse_only() -> None:
        for text in texts:
            parse_html(text)

    def all_formats() -> None:
        for text in texts:
            page = parse_html(text)
            for fmt in represent.FORMATS:
                represent.represent(page, fmt)

    times = interleaved_times(args.rounds, {"lxml": lxml_parse, "parse": parse_only, "formats": all_formats})
    print(f"{len(files)} pages, {megabytes:.1f} MB; {args.rounds} rounds, baseline and work timed in turn: "
          "median seconds, median of the rounds' ratios")
    print(f"{'work':<40} {'seconds':>8} {'x lxml':>7}  rounds' range")
    print(f"{'lxml.html parse (baseline)':<40} {statistics.median(times['lxml']):8.3f} {1.0:7.2f}")
    formats_label = f"... + all {len(represent.FORMATS)} formats"
    for key, label, note in (("parse", "parse + clean + XPaths + text map", ""),
                             ("formats", formats_label, "   (target <= 2)")):
        print(ratio_row(label, times[key], times["lxml"]) + note)

    sizes: dict[str, list[int]] = {fmt: [] for fmt in represent.FORMATS}
    ratios = []
    for text in texts:
        page = parse_html(text)
        row = {s.format: s.characters for s in represent.format_sizes(page)}
        for fmt, chars in row.items():
            sizes[fmt].append(chars)
        ratios.append(row["outline"] / row["flat"])
    print(f"\n{'format':<10} {'median chars':>13} {'vs flat':>8}")
    flat_median = statistics.median(sizes["flat"])
    for fmt, values in sizes.items():
        median = statistics.median(values)
        print(f"{fmt:<10} {median:13,.0f} {median / flat_median:8.2f}")
    print(f"outline / flat per page: median {statistics.median(ratios):.2f}, max {max(ratios):.2f} (target <= 0.40)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
