"""Seconds from opening a page to its records drawn, and peak memory, for the two heaviest dev pages.

The pages: the largest dev page by file size, and the one with the most ground-truth records. Each is opened
into one `PageView` (as the app does) with its ground truth shown, several times; the first open of the process
(renderer start-up included) is reported on its own. Two end points are timed: "drawn" is when the page reports
the frame with the boxes produced (`overlays_drawn`), "on screen" is when the widget's picture has stopped
changing. Targets: 1.5 s, 600 MB.

Memory is read from /proc (no psutil): the RSS of this process plus every descendant (QtWebEngineProcess, its
zygote and renderers), sampled every 25 ms while pages open; shared pages count once per process there, so the
proportional set size (PSS, /proc/PID/smaps_rollup) at the end of each page is printed beside it. The baseline,
printed first, is the same view with a one-line page open: the app and QtWebEngine's processes started, no heavy
page yet; what the heavy pages add is the difference.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from qt_bench import DEV, PeakRss, process_tree, pss_mb, rss_mb, running_app

RUNS = 3
TARGET_SECONDS = 1.5
TARGET_MB = 600


def heaviest_pages(dev: Path) -> list[tuple[str, Path, list]]:
    pages = sorted((dev / "html").glob("*.html"), key=lambda p: int(p.stem))
    largest = max(pages, key=lambda p: p.stat().st_size)
    gt = {p.stem: json.loads((dev / "gt" / f"{p.stem}.json").read_text(encoding="utf-8")) for p in pages}
    most = max(pages, key=lambda p: len(gt[p.stem]))
    return [
        (f"largest ({largest.stat().st_size / 1e6:.1f} MB)", largest, gt[largest.stem]),
        (f"most records ({len(gt[most.stem])})", most, gt[most.stem]),
    ]


def baseline_memory(view: Any) -> tuple[float, float]:
    """Summed RSS and PSS (MB) with a one-line page open in `view`: the memory the heavy pages are measured over."""
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "baseline.html"
        page.write_text("<html><body><p>baseline</p></body></html>", encoding="utf-8")
        view.open(page)
        if not view.wait_until_loaded(60_000):
            raise RuntimeError("the one-line baseline page did not load")
    return rss_mb(), pss_mb()


def main() -> int:
    with running_app("bench/app.py") as started:
        return 0 if started is None else measure(*started)


def measure(app: Any, peak: PeakRss) -> int:  # noqa: ARG001 (the app must live while this measures)
    from recordlens.annotator.labelling.page_view import PageView

    view = PageView()
    view.resize(1280, 900)
    view.show()

    def open_and_draw(path: Path, gt: list) -> tuple[float, float, int]:
        start = time.perf_counter()
        view.open(path)
        view.show_records([{"xpaths": record, "colour_index": i} for i, record in enumerate(gt)])
        if not view.wait_until_loaded(60_000):
            raise RuntimeError(f"{path} did not load")
        summary = view.wait_until_drawn(60_000)
        drawn = time.perf_counter() - start
        view.settled_image(10_000, interval_ms=30)
        return drawn, time.perf_counter() - start, summary.boxes

    try:
        base_rss, base_pss = baseline_memory(view)
        print(f"baseline, the view with a one-line page open: summed RSS {base_rss:.0f} MB over "
              f"{len(process_tree(os.getpid()))} processes, PSS {base_pss:.0f} MB")
        pages = heaviest_pages(DEV)
        print(f"{'page':<28} {'first open':>10} {'drawn s':>8} {'max':>6} {'on screen s':>11} {'boxes':>6} "
              f"{'peak RSS MB':>11} {'PSS MB':>7}")
        first = True
        worst = 0.0
        for label, path, gt in pages:
            times = [open_and_draw(path, gt) for _ in range(RUNS + (1 if first else 0))]
            cold = f"{times.pop(0)[0]:10.2f}" if first else f"{'':>10}"
            first = False
            drawn = [t[0] for t in times]
            worst = max(worst, *drawn)
            screen = [t[1] for t in times]
            peak.sample()
            print(f"{label + ' ' + path.name:<28} {cold} {statistics.median(drawn):8.2f} {max(drawn):6.2f} "
                  f"{statistics.median(screen):11.2f} {times[-1][2]:6d} {peak.mb:11.0f} {pss_mb():7.0f}")
        def verdict(ok: bool) -> str:
            return "met" if ok else "NOT met"

        final_pss = pss_mb()
        print(f"time target (drawn <= {TARGET_SECONDS} s): {verdict(worst <= TARGET_SECONDS)}, worst {worst:.2f} s")
        print(f"memory target ({TARGET_MB} MB): peak RSS summed over {len(process_tree(os.getpid()))} processes "
              f"{peak.mb:.0f} MB, {verdict(peak.mb <= TARGET_MB)} (shared libraries counted once per process); "
              f"PSS at the end {final_pss:.0f} MB, {verdict(final_pss <= TARGET_MB)}; over the baseline: "
              f"peak RSS +{peak.mb - base_rss:.0f} MB, PSS +{final_pss - base_pss:.0f} MB")
        return 0
    finally:
        view.dispose()


if __name__ == "__main__":
    sys.exit(main())
