"""Memory of parsed pages at scale, and what it costs to read an element's parent.

1. Parsing: every dev page parsed in turn, each one let go before the next, without any gc.collect() (the cyclic
   collector left to run when it will, as in `train`, `score` or `extract` over many pages). The traced peak is
   shown against the largest page held alone, measured in the same run: about 1x when a page is freed as soon as
   it is let go; more when pages wait for the cyclic collector. Then the same with the cyclic collector off.
   Also the seconds to parse every page, and to read every element's `parent` (the extractor's hot loops).
2. Training: the peak resident memory of `recordlens train --pages DEV --gt DEV --pages MORE --gt MORE --workers 1`
   over the 80 dev pages (`--project P` with --project P), its fits of 10 trees (what is held is measured, not how
   long fitting takes), in a process of its own, shown against a process that only parses the largest page.

Usage: python bench/parse_memory.py [--rounds N] [--no-train | --no-parse] [--project P]"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from dev_data import development_sets
from timing import best_time

from recordlens.core.page.dom import parse_html

# A child process that runs one piece of Python and says its peak resident memory (kB) on its last line. VmHWM,
# not ru_maxrss: Linux carries ru_maxrss over from the parent through fork and exec.
PEAK = ("import sys; exec(sys.argv[1]); "
        "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')))")
# The fits of few trees: what training holds is measured, not how long fitting takes (the same pages are held).
QUICK_FITS = ("import dataclasses; from recordlens.core.extract import training; real = training.fit; "
              "training.fit = lambda examples, seed=0, config=None, **o: real(examples, seed, "
              "dataclasses.replace(config or training.FitConfig(), trees=10), **o); ")


def dev_texts() -> list[str]:
    return [f.read_text(encoding="utf-8") for html, _ in development_sets() for f in sorted(html.glob("*.html"))]


def traced_peak(work) -> int:  # noqa: ANN001 - a callable
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def parse_each(texts: list[str]) -> None:
    for text in texts:
        page = parse_html(text)
        del page


def read_parents(pages: list) -> int:  # noqa: ANN001 - parsed pages
    count = 0
    for page in pages:
        for element in page.elements:
            if element.parent is not None:
                count += 1
    return count


def parsing(rounds: int) -> None:
    texts = dev_texts()
    largest = max(texts, key=len)
    gc.collect()
    alone = traced_peak(lambda: parse_html(largest))
    print(f"{len(texts)} dev pages, the largest {len(largest) / 1e6:.2f} MB of HTML; parsed alone it peaks at "
          f"{alone / 1e6:.1f} MB (traced)")
    for label, collector in (("cyclic collector on", True), ("cyclic collector off", False)):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            peak = traced_peak(lambda: [parse_each(texts) for _ in range(rounds)])
        finally:
            gc.enable()
        print(f"parsing every page {rounds}x, each let go, {label}: peak {peak / 1e6:.1f} MB, "
              f"{peak / alone:.1f}x the largest page alone")
    gc.collect()
    seconds = best_time(3, lambda: parse_each(texts))
    pages = [parse_html(text) for text in texts]
    elements = sum(len(p.elements) for p in pages)
    read = best_time(5, lambda: read_parents(pages))
    print(f"parse of all {len(texts)} pages: {seconds:.2f} s (best of 3); reading `parent` of all {elements} "
          f"elements: {read * 1e9 / elements:.1f} ns each (best of 5)")


def peak_rss(code: str) -> tuple[int, float]:
    """Peak resident kB of a fresh process running `code`, and its seconds."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, code], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the child failed:\n{done.stderr[-2000:]}")
    return int(done.stdout.strip().splitlines()[-1]), time.perf_counter() - started


def training(project: str | None) -> None:
    sets = development_sets()
    largest = max((f for html, _ in sets for f in html.glob("*.html")), key=lambda f: f.stat().st_size)
    floor, _ = peak_rss(f"from recordlens.core.page.dom import parse_html; "
                        f"parse_html(open({str(largest)!r}, encoding='utf-8').read())")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "model.json"
        if project:
            argv = ["train", "--project", project, "--out", str(out)]
        else:
            argv = ["train", *[a for html, gt in sets for a in ("--pages", str(html), "--gt", str(gt))], "--out",
                    str(out)]
        argv += ["--workers", "1", "--quiet"]
        peak, seconds = peak_rss(QUICK_FITS + f"from recordlens.core.cli.command import main; main({argv!r})")
        digest = __import__("hashlib").sha256(out.read_bytes()).hexdigest()[:16]
    print(f"train over {'the project ' + project if project else 'the 80 dev pages'}: peak RSS {peak / 1e3:.0f} MB, "
          f"{peak / floor:.1f}x a process that parses the largest page alone ({floor / 1e3:.0f} MB); "
          f"{seconds:.0f} s; model {digest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="times every page is parsed (default 3)")
    parser.add_argument("--no-train", action="store_true", help="the parsing figures only")
    parser.add_argument("--no-parse", action="store_true", help="the training figures only")
    parser.add_argument("--project", help="train on this project's labelled pages instead of the dev datasets")
    args = parser.parse_args()
    if not args.no_parse:
        parsing(args.rounds)
    if not args.no_train:
        training(args.project)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
