"""Synthetic datasets on the dev pages: how fast they are made, and how robust the extractors are to them.

1. Speed: one variant of every dev page with every transformation and the content changes, written as HTML,
   MHTML and ground truth (the whole `recordlens synth` pipeline), in pages per second.
2. Robustness: mean F1 of MDR and of the offline extractors ("repeats", and "selector", the default) on the
   original pages, then on variants:
   written back without any change, made with one transformation at a time (structure only, texts kept), with the
   content changes alone, and with everything at once. "pages changed" counts the pages a transformation applied
   to; the others are scored as they come out, so every row averages over the same pages. Each row's variants are
   the pages `recordlens synth --pages D/html --gt D/gt --out OUT --variants K --seed S --rate 1 -t NAME
   --no-content` writes (`-t none` for "written back" and, without --no-content, "content only"; `-t all` without
   --no-content for "all"), so that another extractor can be scored on them.
   On the dev pages both offline rows are in-sample: `repeats`' rules were tuned on them by hand, and the shipped
   selector model was trained on them (and on nexteval-synth-more), so its row's level says nothing about unseen
   pages; read the deltas: how a change of structure moves an extractor on pages it knows.

Usage: python bench/synth.py [DATASET_DIR] [--seed S] [--variants K] [--limit N]"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dev_data import DEV

from recordlens.core.extract import create
from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.score import score_page
from recordlens.core.synth.pipeline import (
    TRANSFORM_NAMES,
    Source,
    SynthOptions,
    dataset_sources,
    synthesise_dataset,
    synthesise_page,
)

DEFAULT_DATASET = DEV
METHODS = ("mdr", "repeats", "selector")
COLUMN = {"mdr": "MDR", "repeats": "repeats", "selector": "selector"}
# Said under the table, not only in this docstring: on the dev pages a reader would otherwise take the offline
# columns' levels for measures of unseen pages.
IN_SAMPLE_NOTE = ("\n(repeats' rules were tuned on nexteval-synth-dev, and the shipped selector model was trained on "
                  "the 80 development pages,\n nexteval-synth-dev and -more: on those pages and their variants both "
                  "columns are in-sample; read their deltas)")


def f1_scores(html: str, truth: list[list[str]], name: str, extractors: dict) -> dict[str, float]:
    page = parse_html(html)
    keys = TextKeyIndex(page.text_map)
    return {method: score_page(extractor.extract(page).records, truth, keys, name).f1
            for method, extractor in extractors.items()}


def measure_speed(dataset: Path, names: list[str], seed: int) -> None:
    with tempfile.TemporaryDirectory() as out:
        sources = dataset_sources(dataset / "html", dataset / "gt", names=names)
        report = synthesise_dataset(sources, out, SynthOptions(variants=1, seed=seed, rate=1.0))
        size = sum(p.stat().st_size for p in (Path(out) / "html").glob("*.html"))
    print(f"speed: {len(report.pages)} pages (every transformation + content, HTML + MHTML + gt written) in "
          f"{report.seconds:.2f} s = {report.pages_per_second:.1f} pages/s ({size / 1e6:.1f} MB of HTML)")


def robustness_rows(sources: list[Source], seed: int, variants: int) -> list[tuple[str, int, dict[str, float]]]:
    extractors = {method: create(method) for method in METHODS}
    rows = []
    original = [f1_scores(s.html, s.records, s.name, extractors) for s in sources]
    rows.append(("original", 0, {m: statistics.fmean(r[m] for r in original) for m in METHODS}))
    # Written back unchanged: what re-serialising alone does (text nodes split by comments are merged, scripts go).
    settings = [("written back, unchanged", [], False)]
    settings += [(name, [name], False) for name in TRANSFORM_NAMES]
    settings += [("content only", [], True), ("all (rate 1) + content", list(TRANSFORM_NAMES), True)]
    for label, chosen, content in settings:
        # the variants `recordlens synth --rate 1 -t NAME [--no-content]` writes (`-t none` for no transformation)
        options = SynthOptions(seed=seed, transforms=tuple(chosen), rate=1.0, content=content)
        scores: list[dict[str, float]] = []
        changed = 0
        for source in sources:
            for variant in range(1, variants + 1):
                result = synthesise_page(source, variant, options)
                changed += bool(any(t["count"] for t in result.transforms) or content)
                scores.append(f1_scores(result.html, result.records, result.name, extractors))
        rows.append((label, changed, {m: statistics.fmean(s[m] for s in scores) for m in METHODS}))
        print(f"  {label} done", file=sys.stderr)
    return rows


def format_table(rows: list[tuple[str, int, dict[str, float]]], pages: int) -> str:
    """The robustness table: each method's F1 and its change from the original pages, row by row."""
    base = rows[0][2]
    head = "".join(f" {COLUMN[m]} F1 | Δ {COLUMN[m]} |" for m in METHODS)
    lines = [f"| variants | pages changed |{head}", "|---|---:|" + "---:|---:|" * len(METHODS)]
    for label, changed, scores in rows:
        original = label == "original"
        shown = "—" if original else f"{changed}/{pages}"
        cells = "".join(f" {scores[m]:.3f} | {'' if original else f'{scores[m] - base[m]:+.3f}'} |" for m in METHODS)
        lines.append(f"| {label} | {shown} |{cells}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", nargs="?", default=str(DEFAULT_DATASET))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", type=int, default=1, help="variants per page and row (default 1)")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    args = parser.parse_args()
    dataset = Path(args.dataset)
    if not (dataset / "gt").is_dir():
        print(f"no dataset at {dataset}", file=sys.stderr)
        return 1
    sources = dataset_sources(dataset / "html", dataset / "gt").read_all()[: args.limit]
    names = [s.name for s in sources]
    measure_speed(dataset, names, args.seed)
    started = time.perf_counter()
    rows = robustness_rows(sources, args.seed, args.variants)
    print(f"\nrobustness on {len(sources)} pages, seed {args.seed}, {args.variants} variant(s) per page and row "
          f"({time.perf_counter() - started:.0f} s):\n")
    print(format_table(rows, len(sources) * args.variants))
    print(IN_SAMPLE_NOTE)
    return 0


if __name__ == "__main__":
    sys.exit(main())
