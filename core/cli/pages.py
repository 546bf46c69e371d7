"""`recordlens represent` and `inspect`: one page in an LLM input format, and the size of every format."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..command_hints import hint_path
from ..errors import RecordLensError
from ..file_kinds import read_start
from ..output_paths import writable_file
from ..page import formats
from ..page.dataset import NOT_A_PAGE_SUFFIX, load_page_file
from .output import STDOUT, print_json, warn, write_document


def cmd_represent(args: argparse.Namespace) -> int:
    if args.out and args.out != STDOUT:
        writable_file(args.out, "the document")
    loaded = load_page_file(args.page)
    for message in loaded.page.warnings:
        warn(message)
    write_document(formats.represent(loaded.page, args.format), args.out)
    return 0


def cmd_inspect(args: argparse.Namespace) -> int:
    if _describes_a_model(args):
        return 0
    loaded = load_page_file(args.page)
    page, snapshot = loaded.page, loaded.snapshot
    sizes = {s.format: s.characters for s in formats.format_sizes(page)}
    counted = None if args.no_tokens else _count_format_tokens(page, args)
    tokens = counted if counted is not None else {fmt: None for fmt in sizes}
    info = {
        "page": str(loaded.path),
        "title": snapshot.title,
        "url": snapshot.url,
        "charset": snapshot.charset,
        "elements": len(page.elements),
        "text_entries": len(page.text_map),
        "characters": sizes,
        "tokens": tokens,
        "warnings": page.warnings,
    }
    if args.json:
        print_json(info)
        return 0
    for name, value in (("page", info["page"]), ("title", info["title"] or "(none)"), ("url", info["url"] or "(none)"),
                        ("charset", info["charset"]), ("elements", f"{info['elements']:,}"),
                        ("text entries", f"{info['text_entries']:,}")):
        print(f"{name:<13}{value}")
    print("format     characters  tokens")
    for fmt, chars in sizes.items():
        count = tokens.get(fmt)
        print(f"{fmt:<10} {chars:>10,}  {f'{count:,}' if count is not None else 'n/a'}")
    # How to get the figures, only to whom could not count them: --no-tokens asked for none, and a failed count
    # said its own reason
    if counted is None and not args.no_tokens:
        print("(tokens: n/a; they are counted with Gemini's countTokens when GEMINI_API_KEY is set, or at an "
              "endpoint of --base-url)")
    for message in page.warnings:
        warn(message)
    return 0


def _count_format_tokens(page, args: argparse.Namespace) -> dict[str, int | None] | None:
    """Each format's tokens (None where a count failed); None when no model could be asked (no key, no --base-url)."""
    from ..llm.gemini import token_counter  # only here: the other commands of this module call no model

    counter = token_counter(args.base_url, args.model, warn)
    if counter is None:
        return None
    return {fmt: counter(formats.represent(page, fmt)) for fmt in formats.FORMATS}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("represent", help="print a page in one LLM input format",
                       description="Print a page (HTML or MHTML) in an LLM input format. "
                                   "flat: the {xpath: text} map in text-map order; hier: ours, lossless; "
                                   "hier-ref: the reference's lossy nesting; slim: Slim HTML; "
                                   "outline: our compact format.")
    p.add_argument("page", help="an .html or .mhtml file")
    p.add_argument("--format", "-f", choices=formats.FORMATS, default="flat", help="the input format (default flat)")
    p.add_argument("--out", "-o", help="write to this file instead of stdout (- is stdout)")
    p.set_defaults(handler=cmd_represent)

    p = sub.add_parser("inspect", help="title, counts and the size of every format for one page; or what a "
                                       "selector model file was trained on",
                       description="Characters per format; tokens by Gemini's countTokens when a key is set. Given a "
                                   "model file written by `recordlens train`: its provenance.")
    p.add_argument("page", metavar="PAGE_OR_MODEL",
                   help="an .html or .mhtml page, or a selector model file written by `recordlens train`")
    p.add_argument("--json", action="store_true", help="print what is said as JSON")
    p.add_argument("--no-tokens", action="store_true", help="do not count tokens even when a key is set")
    p.add_argument("--model", help="the model whose tokenizer counts (default gemini-2.5-pro)")
    p.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    p.set_defaults(handler=cmd_inspect)


def _describes_a_model(args: argparse.Namespace) -> bool:
    """`inspect MODEL`: a selector model file is described (its provenance) rather than refused as no page. A
    model's name that is no file to read (a folder, a FIFO, a link to nothing, a file of an open project's
    database), or a project's folder that has a model, is refused as `extract --model` refuses it
    (`SelectorModel.load`, through the guarded reader), not as a page. The file is read once, as the model loads;
    only one it refuses is read again, to tell a damaged model from a file that is no model at all."""
    from ..extract.selector_model import ModelError, SelectorModel, model_inside

    path = Path(args.page)
    if path.suffix.lower() not in (".json", ".gz") and model_inside(path) is None:
        return False
    try:
        model = SelectorModel.load(path)
    except ModelError:
        if not _begins_as_a_model(path):
            raise RecordLensError(f"{hint_path(path)}: {NOT_A_PAGE_SUFFIX}, nor a selector model file (`recordlens "
                                  "train` writes those)") from None
        raise  # a damaged model, or no file to read: in the words every reader of a model file says it
    if args.json:
        print_json({"digest": model.digest, "threshold": model.threshold, "stages": model.stages,
                    "members": len(model.members), "provenance": model.provenance})
    else:
        print("\n".join(model.describe()))
    return True


def _begins_as_a_model(path: Path) -> bool:
    """Whether a file `SelectorModel.load` refused begins as a model file does (gzip-compressed, or JSON naming a
    selector model's format in its first bytes); True too of one that is no file to read, which the model's
    refusal names (read through the guarded reader: a FIFO is not waited on, a database file not opened)."""
    try:
        head = read_start(path, 64)  # the rest of a large file is never read
    except OSError:
        return True
    return head.startswith(b"\x1f\x8b") or b'"format":"recordlens-selector/' in head.replace(b" ", b"")
