"""What training keeps of each labelled page while it fits, as the app's Learn and `recordlens train` keep it, and
what letting go of it all costs at the end: measured against the way an earlier release kept pages (each region
copied with its records' elements detached, their attributes and XPaths kept; `kept_as_before` below), in the same
run.

Pages are read and prepared one at a time (`training.for_training`), the garbage of each parse collected and the
kept pages moved out of the collector's sight as Learn does (`examples_kept_apart`). Said per page, and against the
bytes of the pages' feature matrices (what the fits read, which any way must keep):

- traced: the bytes Python allocated that are still held once N pages are prepared (tracemalloc);
- resident: the growth of a fresh process's resident memory over the second N of 2N pages (each way in processes
  of its own, the ways in turn: in one process, the second way would reuse memory the first's pages gave back; over
  the first N the allocator reaches the high-water mark of the largest parses, which does not grow with the pages);
- let go: in the same processes, the seconds to free the 2N kept pages at the end as Learn does it (the last
  reference dropped, then `given_back`: a full collection and the C allocator trimmed), each in one block of the
  interpreter;
- the same model: both ways' examples of N pages fitted (10 trees, one process) give the same model file.

Usage: python bench/learn_memory.py [--pages N] [--rounds R] [--no-fit]   (N: default 80, the dev pages, read in
turn and again past the 80th; R: fresh processes per way, the least of their figures said)"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import hashlib
import itertools
import json
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

from dev_data import development_sets

from recordlens.core.extract import examples_kept_apart, given_back, training
from recordlens.core.extract.candidates import Candidate, PageCandidates
from recordlens.core.extract.context import _layout as context_layout
from recordlens.core.page.dom import Element

WAYS = ("before", "now")


def kept_as_before(example: training.Example) -> training.Example:
    """The example as training kept it before: its regions copied, their elements detached (no tree)."""
    pc = example.candidates
    context_layout(pc)

    def detached(element: Element) -> Element:
        return Element(element.tag, element.attrs, None, element.xpath, element.order, None)

    candidates = [Candidate(dataclasses.replace(c.region, parent=detached(c.region.parent),
                                                records=[[detached(e) for e in r] for r in c.region.records]),
                            c.features) for c in pc.candidates]
    copy = PageCandidates(None, None, candidates, [], pc.inner, pc.outer, pc.same, pc.cache)  # type: ignore[arg-type]
    return dataclasses.replace(example, candidates=copy)


def labelled_pages(count: int) -> Iterator[training.LabelledPage]:
    """`count` dev pages read one at a time, the 80 in turn (a page again is read and prepared again)."""
    sets = development_sets()
    return itertools.islice(itertools.chain.from_iterable(
        itertools.chain.from_iterable(training.dataset_pages_to_read(html, gt) for html, gt in sets)
        for _ in itertools.count()), count)


def prepared(way: str, count: int, settle: Callable[[], None]) -> list[training.TrainingPage]:
    """The pages as training keeps them, this way."""
    real = training.without_page
    if way == "before":
        training.without_page = kept_as_before  # what `for_training` calls
    try:
        kept = []
        for page in training.for_training(labelled_pages(count)):
            kept.append(page)
            settle()
        return kept
    finally:
        training.without_page = real


def resident_kb() -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        return int(next(line.split()[1] for line in status if line.startswith("VmRSS")))


def traced(way: str, count: int) -> tuple[int, int]:
    """Bytes still allocated once the pages are prepared (a page prepared first, so that the imports it makes are
    not counted), and the bytes of their feature matrices."""
    prepared(way, 1, gc.collect)
    gc.collect()
    tracemalloc.start()
    try:
        kept = prepared(way, count, gc.collect)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        return held, sum(page.example.features.nbytes for page in kept)
    finally:
        tracemalloc.stop()


def as_learn_does(way: str, count: int) -> dict[str, float]:
    """In this process (a fresh one), `count` pages kept this way, then `count` more: the kB its resident memory
    grows by over the second `count` (the allocator's high-water mark of the largest parses is reached in the first:
    what grows after is what each page keeps), then the seconds to drop the last reference to all of them and to
    give their memory back (`given_back`), as Learn lets go of them."""
    with examples_kept_apart() as settle:
        kept = prepared(way, count, settle)
        gc.collect()
        before = resident_kb()
        kept += prepared(way, count, settle)
        gc.collect()
        grown = resident_kb() - before
        started = time.perf_counter()
        del kept
        dropped = time.perf_counter() - started
    started = time.perf_counter()
    given_back()
    return {"resident": grown, "dropped": dropped, "given_back": time.perf_counter() - started}


def in_fresh_process(way: str, count: int) -> dict[str, float]:
    code = (f"import sys, json; sys.path.insert(0, {str(Path(__file__).parent)!r}); import learn_memory; "
            f"print(json.dumps(learn_memory.as_learn_does({way!r}, {count})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"the child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def model_digest(way: str, count: int) -> str:
    examples = [page.example for page in prepared(way, count, lambda: None)]
    config = training.FitConfig(trees=10)
    return hashlib.sha256(training.fit(examples, seed=0, config=config, workers=1).to_json().encode()
                          ).hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=80, help="pages prepared (default 80: the dev pages once)")
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes per way, in turn (default 2; the "
                        "least resident growth and time to let go are said)")
    parser.add_argument("--no-fit", action="store_true", help="skip fitting both ways (the same model?)")
    args = parser.parse_args()
    n = args.pages
    figures: dict[str, dict[str, float]] = {way: {} for way in WAYS}
    for way in WAYS:
        figures[way]["traced"], figures[way]["features"] = (value / n for value in traced(way, n))
    for _ in range(args.rounds):
        for way in WAYS:
            for key, value in in_fresh_process(way, n).items():
                figures[way][key] = min(figures[way].get(key, value), value)
    for way in WAYS:
        f = figures[way]
        f["let_go"] = f["dropped"] + f["given_back"]
        print(f"{way:>6}: per page kept {f['traced'] / 1e3:7.1f} kB traced ({f['traced'] / f['features']:4.1f}x its "
              f"feature matrix, {f['features'] / 1e3:.1f} kB), resident +{f['resident'] / n:7.1f} kB; let go of "
              f"{2 * n} pages: {f['dropped']:.3f} s dropped + {f['given_back']:.3f} s given back", flush=True)
    before, now = figures["before"], figures["now"]
    print(f"now against before: {now['traced'] / before['traced']:.2f} of the traced bytes per page, "
          f"{now['resident'] / before['resident']:.2f} of the resident growth, {now['let_go'] / before['let_go']:.2f} "
          f"of the time to let go; at 1,000 pages about {now['resident'] / n:.0f} MB more resident (before "
          f"{before['resident'] / n:.0f} MB) and {now['let_go'] * 500 / n:.2f} s to let go (before "
          f"{before['let_go'] * 500 / n:.2f} s)")
    if args.no_fit:
        return 0
    digests = {way: model_digest(way, n) for way in WAYS}
    same = len(set(digests.values())) == 1
    print(f"the same model both ways: {'yes' if same else 'NO'} ({json.dumps(digests)})")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
