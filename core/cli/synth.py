"""`recordlens synth`: synthetic variants of labelled pages, written as a dataset whose labels follow the records.

`core/cli/command.py` owns the parser and calls `register(subparsers)`. The handler returns an exit code and raises
RecordLensError for anything a user must fix, like every other command.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import RecordLensError
from ..runs.progress import progress
from ..synth.pipeline import (
    CONTENT,
    FORMATS,
    TRANSFORM_NAMES,
    SynthOptions,
    dataset_sources,
    project_sources,
    synthesise_dataset,
)
from ..synth.transforms import describe
from ..wording import counted, listed

DESCRIPTION = (
    "Write K synthetic variants of every labelled page: OUT/html/N_vK.html, OUT/mhtml/N_vK.mhtml and "
    "OUT/gt/N_vK.json, with OUT/synth.json recording what was done to each page. Each variant draws every selected "
    "structural transformation with probability RATE, then replaces every text by one of the same kind (unless "
    "--no-content). The labels follow the records: every output XPath resolves in the output page; input XPaths "
    "that resolve to nothing are dropped and reported. The same seed gives byte-identical files."
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="make a synthetic dataset from labelled pages (transformed DOM and content)",
                       description=DESCRIPTION)
    source = p.add_argument_group("input (a dataset or a project)")
    source.add_argument("--pages", metavar="DIR", help="folder of N.html / N.mhtml")
    source.add_argument("--gt", metavar="DIR", help="folder of ground-truth N.json")
    source.add_argument("--project", metavar="DIR", help="a project: its pages with accepted labels")
    p.add_argument("--out", "-o", metavar="DIR", help="the dataset to write (new, empty, or an earlier synth output)")
    p.add_argument("--variants", "-k", type=int, default=2, metavar="K", help="variants per page (default 2)")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S", help="the seed (default 0)")
    p.add_argument("--transforms", "-t", default="all", metavar="LIST",
                   help="comma-separated transformations, 'all' (default) or 'none'; see --list")
    p.add_argument("--rate", type=float, default=0.5,
                   help="chance that each selected transformation is applied to a variant (default 0.5; 1: all)")
    p.add_argument("--no-content", action="store_true", help="keep the texts (structural changes only)")
    p.add_argument("--formats", default=",".join(FORMATS), help="html, mhtml or both (default html,mhtml)")
    p.add_argument("--list", action="store_true", help="list the transformations and exit")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_synth)


def parse_transforms(text: str) -> tuple[str, ...]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if items == ["all"]:
        return TRANSFORM_NAMES
    if items == ["none"]:
        return ()
    return tuple(items)


def cmd_synth(args: argparse.Namespace) -> int:
    if args.list:
        for name in TRANSFORM_NAMES:
            print(f"{name:<17} {describe(name)}")
        print(f"{CONTENT:<17} every text replaced by one of the same kind (switch off with --no-content)")
        return 0
    if not args.out:
        raise RecordLensError("synth needs --out DIR")
    if args.project and (args.pages or args.gt):
        raise RecordLensError("give either --project DIR or --pages DIR --gt DIR, not both")
    if not args.project and not (args.pages and args.gt):
        raise RecordLensError("synth needs --pages DIR and --gt DIR, or --project DIR")
    options = SynthOptions(variants=args.variants, seed=args.seed, transforms=parse_transforms(args.transforms),
                           rate=args.rate, content=not args.no_content,
                           formats=tuple(f.strip() for f in args.formats.split(",") if f.strip()))
    sources = project_sources(args.project) if args.project else dataset_sources(args.pages, args.gt)
    report = synthesise_dataset(sources, args.out, options,
                                progress=lambda n: progress(n, label="synth", enabled=not args.quiet))
    if report.replaced:
        print(f"{report.out}: replaced an earlier synthetic dataset ({report.replaced} file(s))", file=sys.stderr)
    for problem in report.problems:
        print(f"warning: {problem}", file=sys.stderr)
    for page in report.pages:
        if page.dropped_xpaths:
            print(f"warning: page {page.source}: {len(page.dropped_xpaths)} XPath(s) resolve to nothing and were "
                  f"dropped (first: {page.dropped_xpaths[0]})", file=sys.stderr)
        for message in page.warnings:
            print(f"warning: page {page.name}: {message}", file=sys.stderr)
    # A variant whose every labelled XPath was dropped has an answer key of no record: any prediction on it
    # would score as nothing but false positives.
    empty = [page.name for page in report.pages if not page.records]
    if empty:
        print(f"warning: {counted(len(empty), 'page')} of the dataset {'holds' if len(empty) == 1 else 'hold'} no "
              f"record after the labels' XPaths were dropped ({listed(empty, total=True)}): leave "
              f"{'it' if len(empty) == 1 else 'them'} out of scoring or fix the labels",
              file=sys.stderr)
    summary = {
        "out": str(report.out), "pages": len(report.pages), "sources": sources.count,
        "records": sum(len(p.records) for p in report.pages), "dropped_xpaths": report.dropped_xpaths,
        "dropped_records": sum(len(p.dropped_records) for p in report.pages),
        "seconds": round(report.seconds, 3), "pages_per_second": round(report.pages_per_second, 2),
        "replaced_files": report.replaced,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"{report.out}: {summary['pages']} pages ({options.variants} variant(s) of {sources.count}), "
              f"{summary['records']} records, {summary['dropped_xpaths']} XPath(s) dropped, "
              f"{report.seconds:.1f} s ({report.pages_per_second:.1f} pages/s)", file=sys.stderr)
    return 1 if report.problems or empty else 0  # as import: a command that did part of its work says so
