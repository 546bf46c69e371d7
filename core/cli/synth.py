"""`recordlens synth`: synthetic variants of labelled pages, written as a dataset whose labels follow the records.

`core/cli/command.py` owns the parser and calls `register(subparsers)`. The handler returns an exit code and raises
RecordLensError for anything a user must fix, like every other command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..command_hints import hint_path
from ..errors import RecordLensError
from ..runs.progress import progress
from ..synth.pipeline import (
    CONTENT,
    FORMATS,
    MANIFEST,
    MAX_VARIANTS,
    TRANSFORM_NAMES,
    SynthOptions,
    SynthReport,
    WrittenPage,
    dataset_sources,
    project_sources,
    synthesise_dataset,
    variant_prefix,
)
from ..synth.transforms import describe
from ..wording import counted, listed
from .output import COMMAND_STOPS, print_json, refuse_a_project_with_a_dataset

DESCRIPTION = (
    "Write K synthetic variants of every labelled page: OUT/html/N_vK.html, OUT/mhtml/N_vK.mhtml and "
    "OUT/gt/N_vK.json (N_sS_vK at a seed S other than 0, so that datasets of two seeds can go into one project; "
    "with --project, K continues past the variants the project holds), with OUT/synth.json recording what was "
    "done to each page. Each variant draws every selected "
    "structural transformation with probability RATE (at 0, none; at 1, all: the robustness bench's variants), then "
    "replaces every text by one of the same "
    "kind (unless --no-content). A variant keeps its page's style sheets (inline ones, and linked ones saved with "
    "the page), inlined in its <head>; images, fonts and scripts are left out. The labels follow the records: every "
    "output XPath resolves in the output page; input XPaths that resolve to nothing are dropped and reported. The "
    "same seed gives byte-identical files."
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="make a synthetic dataset from labelled pages (transformed DOM and content)",
                       description=DESCRIPTION)
    source = p.add_argument_group("input (a dataset or a project)")
    source.add_argument("--pages", metavar="DIR", help="folder of N.html / N.mhtml")
    source.add_argument("--gt", metavar="DIR", help="folder of ground-truth N.json")
    source.add_argument("--project", metavar="DIR", help="a project: its pages marked labelled or reviewed")
    p.add_argument("--out", "-o", metavar="DIR", help="the dataset to write (new, empty, or an earlier synth output)")
    p.add_argument("--variants", "-k", type=int, default=2, metavar="K",
                   help=f"variants per page (default 2, at most {MAX_VARIANTS:,})")
    p.add_argument("--seed", "-s", type=int, default=0, metavar="S",
                   help="the seed (default 0; another one is in the page names, N_sS_vK)")
    p.add_argument("--transforms", "-t", default="all", metavar="LIST",
                   help="comma-separated transformations, 'all' (default) or 'none'; see --list")
    p.add_argument("--rate", type=float, default=0.5,
                   help="chance that each selected transformation is applied to a variant (default 0.5; 1: all; 0: "
                        "none, the content changes alone)")
    p.add_argument("--at-least-one", action="store_true",
                   help="a variant that drew no transformation, or none that applies to its page (no table to "
                        "turn, say), gets another at random that applies, so that its structure changes; a page to "
                        "which none applies is said (then --rate is no longer each transformation's chance alone)")
    p.add_argument("--no-content", action="store_true", help="keep the texts (structural changes only)")
    p.add_argument("--formats", default=",".join(FORMATS), help="html, mhtml or both (default html,mhtml)")
    p.add_argument("--list", action="store_true", help="list the transformations and exit")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_synth, only_reads=True)


def parse_transforms(text: str) -> tuple[str, ...]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:  # `-t ''` (an unset variable in a script, say) would otherwise read as "none"
        raise RecordLensError("--transforms is empty: give a comma-separated list of transformations (see --list), "
                              "'all' or 'none'")
    if items == ["all"]:
        return TRANSFORM_NAMES
    if items == ["none"]:
        return ()
    if CONTENT in items:  # listed by --list beside the transformations, but switched by its own option
        raise RecordLensError(f"--transforms: '{CONTENT}' is not a transformation: every variant's texts are "
                              "replaced unless --no-content; for the content changes alone, give -t none")
    alone = [item for item in items if item in ("all", "none")]
    if alone:  # valid words, only not inside a list: said so, rather than called unknown
        raise RecordLensError(f"--transforms: '{alone[0]}' stands alone, not in a list; give '{alone[0]}', or a "
                              "comma-separated list of transformations (see --list)")
    return tuple(items)


def transformation_list() -> dict[str, str]:
    """What --list shows: each transformation and the content change, with what it does."""
    return {**{name: describe(name) for name in TRANSFORM_NAMES},
            CONTENT: "every text replaced by one of the same kind; not one of --transforms: made in every variant "
                     "unless --no-content"}


def cmd_synth(args: argparse.Namespace) -> int:
    if args.list:
        if args.json:
            print_json(transformation_list())
            return 0
        for name, what in transformation_list().items():
            if name == CONTENT:
                print()  # set apart: not a name --transforms takes
            print(f"{name:<17} {what}")
        return 0
    if not args.out:
        raise RecordLensError("synth needs --out DIR")
    refuse_a_project_with_a_dataset(args)
    if not args.project and not (args.pages and args.gt):
        raise RecordLensError("synth needs --pages DIR and --gt DIR, or --project DIR")
    options = SynthOptions(variants=args.variants, seed=args.seed, transforms=parse_transforms(args.transforms),
                           rate=args.rate, content=not args.no_content, at_least_one=args.at_least_one,
                           formats=tuple(f.strip() for f in args.formats.split(",") if f.strip()))
    sources = project_sources(args.project) if args.project else dataset_sources(args.pages, args.gt)
    report = SynthReport(Path(args.out))
    try:
        synthesise_dataset(sources, args.out, options, report=report,
                           progress=lambda n: progress(n, label="synth", enabled=not args.quiet))
    except COMMAND_STOPS:  # Ctrl+C, SIGTERM, stdout gone: what the folder holds now, and what to do
        print(stopped_line(report), file=sys.stderr)
        raise
    if report.replaced:
        print(f"{hint_path(report.out)}: replaced an earlier synthetic dataset ({report.replaced} file(s))",
              file=sys.stderr)
    empty = [page.name for page in report.pages if page.records_in and not page.records_out]
    # Every warning, said on stderr and listed in --json's `problems` alike: the pages left out, what each source
    # page's labels lack and each variant's own, and the variants left without a record.
    warnings = [*report.problems, *page_warnings(report.pages), *([without_records_line(empty)] if empty else [])]
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for line in without_labelled_records_lines(report.pages):
        print(line, file=sys.stderr)
    if report.renumbered:  # said, not a fault: the names the user may expect are taken
        print(f"note: {renumbered_line(report.renumbered, options.seed)}", file=sys.stderr)
    styles = style_sheets_line(report.pages)
    if styles:
        print(f"note: {styles}", file=sys.stderr)
    summary = {
        "out": str(report.out), "pages": len(report.pages), "sources": sources.count,
        "records": sum(p.records_out for p in report.pages), "dropped_xpaths": report.dropped_xpaths,
        "dropped_records": sum(p.dropped_records for p in report.pages),
        "seconds": round(report.seconds, 3), "pages_per_second": round(report.pages_per_second, 2),
        "replaced_files": report.replaced,
        # what the text says on stderr, for a script: the pages left out whole, and every warning
        "left_out": report.left_out, "renumbered": report.renumbered, "problems": warnings,
        "without_records": empty,
    }
    if args.json:
        print_json(summary)
    else:
        print(f"{hint_path(report.out)}: {summary['pages']} pages ({options.variants} variant(s) of {sources.count}), "
              f"{summary['records']} records, {summary['dropped_xpaths']} XPath(s) dropped, "
              f"{report.seconds:.1f} s ({report.pages_per_second:.1f} pages/s)")  # the result, as --json's is
    # As import: a command that did part of its work says so. A label dropped, or a variant whose structure is its
    # page's, is a warning of a dataset made whole (every variant written, its labels resolving): exit 0.
    return 1 if report.problems or empty else 0


def page_warnings(pages: list[WrittenPage]) -> list[str]:
    """The warnings of the pages written: once per source page what its labels lack and what reading it said (not
    once per variant), and each variant's own."""
    warnings: list[str] = []
    for source, made in variants_by_source(pages).items():
        first = made[0]  # the source's labels, resolved on the source page: alike in every variant
        warnings += [f"page {source} (so each of its variants): {message}" for message in first.source_warnings]
        if first.dropped_xpaths:
            # a record whose every XPath names nothing goes with them: its variants hold fewer records than it
            records = (f"; so {'was' if first.dropped_records == 1 else 'were'} {first.dropped_records} of its "
                       f"{first.records_in} records, which named nothing else") if first.dropped_records else ""
            warnings.append(f"page {source}: {len(first.dropped_xpaths)} XPath(s) resolve to nothing and were "
                            f"dropped (first: {first.dropped_xpaths[0]}){records}")
        warnings += [f"page {page.name}: {message}" for page in made for message in page.warnings]
    return warnings


def without_labelled_records_lines(pages: list[WrittenPage]) -> list[str]:
    """The source pages labelled as holding no record, whose variants hold none either: said, not a problem."""
    return [f"page {source} is labelled as holding no record; so {'is' if len(made) == 1 else 'are'} its "
            f"variant{'s' if len(made) > 1 else ''} ({listed([p.name for p in made], total=True)})"
            for source, made in variants_by_source(pages).items() if not made[0].records_in]


def without_records_line(empty: list[str]) -> str:
    """The variants that lost every record their page's labels hold: an answer key of no record, which would score
    any prediction on them as nothing but false positives."""
    one = len(empty) == 1
    whose = "its source page's" if one else "their source pages'"
    return (f"{counted(len(empty), 'page')} of the dataset {'holds' if one else 'hold'} no record though {whose} "
            f"labels hold some ({listed(empty, total=True)}): the labels' XPaths name nothing in the page (said "
            f"above); leave {'it' if one else 'them'} out of scoring or fix the labels")


def variants_by_source(pages: list[WrittenPage]) -> dict[str, list[WrittenPage]]:
    variants: dict[str, list[WrittenPage]] = {}
    for page in pages:
        variants.setdefault(page.source, []).append(page)
    return variants


def renumbered_line(sources: list[str], seed: int) -> str:
    """The pages whose variants are numbered past the variants of the project that were there already."""
    one = len(sources) == 1
    return (f"the project already holds variants of {counted(len(sources), 'page')} ({listed(sources, total=True)}) "
            f"named as this seed names them ({variant_prefix('N', seed)}K): "
            f"{'its' if one else 'their'} new variants are numbered after those, so that `import` takes them as new "
            "pages")


def style_sheets_line(pages: list[WrittenPage]) -> str | None:
    """The source pages that link style sheets saved without them, whose variants lack those (None for none)."""
    sources = list(dict.fromkeys(page.source for page in pages if page.style_sheets_left_out))
    if not sources:
        return None
    one = len(sources) == 1
    return (f"{counted(len(sources), 'page')} ({listed(sources, total=True)}) {'links' if one else 'link'} style "
            f"sheets that were not saved with {'it' if one else 'them'} (a page saved as plain HTML, say): "
            f"{'its' if one else 'their'} variants lack them, and look plainer ({MANIFEST}: style_sheets.left_out)")


def stopped_line(report: SynthReport) -> str:
    """What a synth stopped part way (Ctrl+C, SIGTERM) left, and what to do."""
    planned_files = report.planned * report.files_per_page
    return (f"{hint_path(report.out)}: synth stopped after {len(report.pages)} of {report.planned} pages "
            f"({report.files} of {planned_files} files written); {MANIFEST} names each page written and its source "
            "page, and says complete: false; run the same command again to make the whole dataset (it starts over)")
