"""Seconds per page for MDR and the offline extractors ("repeats", "selector"): on the largest page of the folder
(printed with its dataset's name: the default folder is nexteval-synth-dev's), over all its pages, and how each
grows with page size (the same pages' bodies repeated 1x, 2x, 4x). Parsing is timed apart, and each extractor's
time is also shown against a bare lxml.html parse of the same page, measured in the same run. The target, <= 1 s
for the offline default with its model's load and the parse, is printed on the line it applies to.

Usage: python bench/extract.py [PAGES_DIR] [--repeat N]"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import lxml.html
from dev_data import DEV
from timing import best_time

from recordlens.core.extract import create
from recordlens.core.page.dom import parse_html

DEFAULT_PAGES = DEV / "html"
METHODS = ("mdr", "repeats", "selector")


def grown(html: str, factor: int) -> str:
    """The page with its body's content repeated `factor` times: same structure, `factor` times the size."""
    start, end = html.find("<body"), html.rfind("</body>")
    if start < 0 or end < 0:
        return html * factor
    open_end = html.index(">", start) + 1
    return html[:open_end] + html[open_end:end] * factor + html[end:]


def page_name(file: Path) -> str:
    """The page with its folder, as `DATASET/NAME.html` (`nexteval-synth-more/30.html`): which of the development
    sets a figure was measured on is part of the figure."""
    folder = file.resolve().parent
    dataset = folder.parent if folder.name == "html" else folder
    return f"{dataset.name}/{file.name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pages", nargs="?", default=str(DEFAULT_PAGES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = sorted(Path(args.pages).glob("*.html"), key=lambda f: f.stat().st_size)
    if not files:
        print(f"no pages in {args.pages}", file=sys.stderr)
        return 1
    extractors = {name: create(name) for name in METHODS}
    texts = {f.stem: f.read_text(encoding="utf-8") for f in files}

    largest = files[-1].stem
    print(f"largest page: {page_name(files[-1])} ({files[-1].stat().st_size / 1e6:.2f} MB); best of {args.repeat}")
    page = parse_html(texts[largest])
    lxml_time = best_time(args.repeat, lambda: lxml.html.document_fromstring(texts[largest]))
    print(f"{'work':<12} {'seconds':>8} {'x lxml parse':>13}")
    print(f"{'lxml parse':<12} {lxml_time:8.3f} {1.0:13.1f}")
    parse_time = best_time(args.repeat, lambda: parse_html(texts[largest]))
    print(f"{'core parse':<12} {parse_time:8.3f} {parse_time / lxml_time:13.1f}")
    for name, extractor in extractors.items():
        seconds = best_time(args.repeat, lambda extractor=extractor: extractor.extract(page))
        print(f"{name:<12} {seconds:8.3f} {seconds / lxml_time:13.1f}")
    from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
    from recordlens.core.extract.selector_model import SelectorModel

    def cold_selector() -> None:  # the model read from its file each time, then the page parsed and extracted
        SelectorExtractor(SelectorModel.load(DEFAULT_MODEL)).extract(parse_html(texts[largest]))

    seconds = best_time(args.repeat, cold_selector)
    print(f"{'selector, incl. model load and parse':<12} {seconds:8.3f} {seconds / lxml_time:6.1f}   "
          "(target for the offline default, model load + parse + extract: <= 1 s)")

    print(f"\nall {len(files)} pages (extraction only, parse excluded): seconds per page")
    pages = {name: parse_html(text) for name, text in texts.items()}
    for name, extractor in extractors.items():
        times = [best_time(1, lambda p=p, extractor=extractor: extractor.extract(p)) for p in pages.values()]
        print(f"{name:<12} mean {statistics.fmean(times):.3f}  median {statistics.median(times):.3f}  "
              f"max {max(times):.3f}  total {sum(times):.2f}")

    print("\ngrowth with page size (the 5 largest pages, bodies repeated): seconds, and ratio to 1x")
    print(f"{'method':<12} {'1x':>8} {'2x':>8} {'4x':>8} {'2x/1x':>6} {'4x/1x':>6}")
    sample = [f.stem for f in files[-5:]]
    for name, extractor in extractors.items():
        row = []
        for factor in (1, 2, 4):
            grown_pages = [parse_html(grown(texts[s], factor)) for s in sample]
            row.append(sum(best_time(args.repeat, lambda p=p, extractor=extractor: extractor.extract(p))
                           for p in grown_pages))
        print(f"{name:<12} {row[0]:8.3f} {row[1]:8.3f} {row[2]:8.3f} {row[1] / row[0]:6.1f} {row[2] / row[0]:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
