"""Seconds per page for MDR and the offline extractors ("repeats", "selector"): on the largest page of the folder
(printed with its dataset's name: the default folder is nexteval-synth-dev's), over all its pages, and how each
grows with page size (the same pages' bodies repeated 1x, 2x, 4x). Parsing is timed apart, and on the largest page
each work is also shown against a bare lxml.html parse of the same page, the two timed in turn round after round
(`--repeat` rounds, at least BASELINE_RUNS: one parse takes milliseconds), each ratio the median of the rounds'
ratios. The target, <= 1 s for the offline default with its model's load and the parse, is printed on the line it
applies to.

Usage: python bench/extract.py [PAGES_DIR] [--repeat N]"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

import lxml.html
from dev_data import DEV, require
from timing import BASELINE_RUNS, best_time, interleaved_times, median_ratio

from recordlens.core.extract import create
from recordlens.core.extract.base import Extractor
from recordlens.core.page.dom import Page, parse_html

DEFAULT_PAGES = DEV / "html"
METHODS = ("mdr", "repeats", "selector")
LXML, COLD = "lxml parse", "selector, incl. model load and parse"


def grown(html: str, factor: int) -> str:
    """The page with its body's content repeated `factor` times: same structure, `factor` times the size."""
    start, end = html.find("<body"), html.rfind("</body>")
    if start < 0 or end < 0:
        return html * factor
    open_end = html.index(">", start) + 1
    return html[:open_end] + html[open_end:end] * factor + html[end:]


def largest_page_works(text: str, page: Page, extractors: dict[str, Extractor]
                       ) -> dict[str, Callable[[], object]]:
    """The works timed on the largest page, the bare lxml parse first: the baseline every other is shown against."""
    from recordlens.core.extract.selector import DEFAULT_MODEL, SelectorExtractor
    from recordlens.core.extract.selector_model import SelectorModel

    def cold_selector() -> None:  # the model read from its file each time, then the page parsed and extracted
        SelectorExtractor(SelectorModel.load(DEFAULT_MODEL)).extract(parse_html(text))

    return {LXML: lambda: lxml.html.document_fromstring(text), "core parse": lambda: parse_html(text),
            **{name: (lambda extractor=extractor: extractor.extract(page)) for name, extractor in extractors.items()},
            COLD: cold_selector}


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
    require(Path(args.pages))
    files = sorted(Path(args.pages).glob("*.html"), key=lambda f: f.stat().st_size)
    if not files:
        print(f"no pages in {args.pages}", file=sys.stderr)
        return 1
    extractors = {name: create(name) for name in METHODS}
    texts = {f.stem: f.read_text(encoding="utf-8") for f in files}

    largest = files[-1].stem
    rounds = max(args.repeat, BASELINE_RUNS)  # the baseline's parse takes milliseconds: it needs the runs
    print(f"largest page: {page_name(files[-1])} ({files[-1].stat().st_size / 1e6:.2f} MB); {rounds} rounds, each "
          "work and the lxml parse timed in turn: the best seconds of each, the median of the rounds' ratios")
    page = parse_html(texts[largest])
    on_largest = interleaved_times(rounds, largest_page_works(texts[largest], page, extractors))
    print(f"{'work':<12} {'seconds':>8} {'x lxml parse':>13}")
    for name, seconds in on_largest.items():
        note = "   (target for the offline default, model load + parse + extract: <= 1 s)" if name == COLD else ""
        print(f"{name:<12} {min(seconds):8.3f} {median_ratio(seconds, on_largest[LXML]):13.1f}{note}")

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
