"""The `recordlens` command. stdout holds only the document asked for; progress, warnings and logs go to stderr."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import represent as formats
from .dataset import load_page
from .errors import RecordLensError
from .evaluate import score_run
from .progress import progress
from .score import DatasetScore

Handler = Callable[[argparse.Namespace], int]


def warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def _write_document(text: str, out: str | None) -> None:
    if out:
        Path(out).write_text(text, encoding="utf-8")
        print(f"wrote {out} ({len(text):,} characters)", file=sys.stderr)
    else:
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")


def cmd_represent(args: argparse.Namespace) -> int:
    loaded = load_page(args.page)
    for message in loaded.page.warnings:
        warn(message)
    _write_document(formats.represent(loaded.page, args.format), args.out)
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    loaded = load_page(args.page)
    page, snapshot = loaded.page, loaded.snapshot
    sizes = {s.format: s.characters for s in formats.format_sizes(page)}
    info = {
        "page": str(loaded.path),
        "title": snapshot.title,
        "url": snapshot.url,
        "charset": snapshot.charset,
        "elements": len(page.elements),
        "text_entries": len(page.text_map),
        "characters": sizes,
        "tokens": {fmt: None for fmt in sizes},
        "warnings": page.warnings,
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False, indent=2))
        return 0
    print(f"page      {info['page']}")
    print(f"title     {info['title'] or '(none)'}")
    print(f"url       {info['url'] or '(none)'}")
    print(f"charset   {info['charset']}")
    print(f"elements  {info['elements']:,}")
    print(f"text entries {info['text_entries']:,}")
    print("format     characters  tokens")
    for fmt, chars in sizes.items():
        print(f"{fmt:<10} {chars:>10,}  n/a")
    print("(tokens: not available offline; set GEMINI_API_KEY and use `recordlens bench` to count them)")
    for message in page.warnings:
        warn(message)
    return 0


def format_score_table(scores: DatasetScore) -> str:
    lines = [f"{'page':<12} {'P':>7} {'R':>7} {'F1':>7} {'pred':>6} {'true':>6} {'halluc':>7}"]
    for p in scores.pages:
        lines.append(f"{p.page:<12} {p.precision:7.4f} {p.recall:7.4f} {p.f1:7.4f} "
                     f"{p.predicted_records:6d} {p.true_records:6d} {p.hallucinated_records:7d}")
    lines.append(f"{'mean':<12} {scores.precision:7.4f} {scores.recall:7.4f} {scores.f1:7.4f}")
    lines.append(f"hallucination rate (pages) {scores.hallucination_rate:.4f}; "
                 f"hallucinated records {scores.hallucinated_record_share:.4f}; pages {len(scores.pages)}")
    return "\n".join(lines)


def cmd_score(args: argparse.Namespace) -> int:
    def bar(names: Sequence[str]):
        return progress(names, label="scoring", enabled=not args.quiet)

    scores, warnings = score_run(args.pred, args.gt, args.pages, progress=bar)
    for message in warnings + scores.warnings:
        warn(message)
    if args.json:
        print(json.dumps(scores.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_score_table(scores))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="recordlens",
        description="Label, extract and score web data records on saved pages (NEXT-EVAL compatible).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser("represent", help="print a page in one LLM input format",
                       description="Print a page (HTML or MHTML) in an LLM input format. "
                                   "flat: the {xpath: text} map in text-map order; hier: ours, lossless; "
                                   "hier-ref: the reference's lossy nesting; slim: Slim HTML; "
                                   "outline: our compact format.")
    p.add_argument("page", help="an .html or .mhtml file")
    p.add_argument("--format", "-f", choices=formats.FORMATS, default="flat")
    p.add_argument("--out", "-o", help="write to this file instead of stdout")
    p.set_defaults(handler=cmd_represent)

    p = sub.add_parser("score", help="score a run of predictions against ground truth",
                       description="Score PRED/N.json against GT/N.json for every N with ground truth, "
                                   "expanding both on PAGES/N.html or PAGES/N.mhtml (NEXT-EVAL's metric).")
    p.add_argument("--pred", required=True, help="folder of predicted N.json")
    p.add_argument("--gt", required=True, help="folder of ground-truth N.json")
    p.add_argument("--pages", required=True, help="folder of N.html / N.mhtml")
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser("inspect", help="title, counts and the size of every format for one page")
    p.add_argument("page")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_inspect)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args)
    except RecordLensError as error:
        print(f"recordlens: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("recordlens: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
