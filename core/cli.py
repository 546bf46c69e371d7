"""The `recordlens` command. stdout holds only the document asked for; progress, warnings and logs go to stderr."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from . import project_cli
from . import represent as formats
from .agent import cli as agent_cli
from .dataset import load_page
from .errors import RecordLensError
from .evaluate import score_run, score_seeds, seed_runs
from .progress import progress
from .score import DatasetScore

Handler = Callable[[argparse.Namespace], int]
DEFAULT_METHOD = "selector"  # the offline extractor: deterministic, no network, a small shipped model


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
    tokens = _count_format_tokens(page, args) if not args.no_tokens else {fmt: None for fmt in sizes}
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
        count = tokens.get(fmt)
        print(f"{fmt:<10} {chars:>10,}  {f'{count:,}' if count is not None else 'n/a'}")
    if all(count is None for count in tokens.values()):
        print("(tokens: n/a; they are counted with Gemini's countTokens when GEMINI_API_KEY is set)")
    for message in page.warnings:
        warn(message)
    return 0


def _token_counter(args: argparse.Namespace):  # noqa: ANN202 - Callable[[str], int | None] | None
    """Gemini's countTokens when a key is set (None without one). A failed count is None (shown as n/a),
    with the reason given once on stderr; the key never appears in it."""
    from .gemini import CallSettings, GeminiCaller, api_key_from_environment

    if not api_key_from_environment():
        return None
    settings = CallSettings(base_url=getattr(args, "base_url", None), max_attempts=2)
    if getattr(args, "model", None):
        settings.model = args.model
    caller = GeminiCaller(settings)
    failed: list[str] = []

    def count(text: str) -> int | None:
        if failed:
            return None
        try:
            return caller.count_tokens(text)
        except Exception as error:  # noqa: BLE001 - any failure only costs the figure
            failed.append(caller.redact(f"{type(error).__name__}: {error}")[:200])
            warn(f"countTokens failed ({failed[0]}); tokens shown as n/a")
            return None

    return count


def _count_format_tokens(page, args: argparse.Namespace) -> dict[str, int | None]:
    counter = _token_counter(args)
    return {fmt: counter(formats.represent(page, fmt)) if counter else None for fmt in formats.FORMATS}


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

    stored = project_cli.score_project_run(args, progress=bar)
    if stored is None and args.pred and seed_runs(args.pred) and not any(Path(args.pred).glob("*.json")):
        return _score_seeds(args, bar)
    scores, warnings = stored if stored is not None else score_run(args.pred, args.gt, args.pages, progress=bar)
    for message in warnings + scores.warnings:
        warn(message)
    if args.json:
        print(json.dumps(scores.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(format_score_table(scores))
    return 0


def _score_seeds(args: argparse.Namespace, bar) -> int:  # noqa: ANN001
    """A run made with --seeds N: each seed scored, then the means (and spread) over seeds."""
    seeds, warnings = score_seeds(args.pred, args.gt, args.pages, progress=bar)
    for message in warnings:
        warn(message)
    if args.json:
        print(json.dumps(seeds.as_dict(), ensure_ascii=False, indent=2))
        return 0
    mean, sd = seeds.mean_dict(), seeds.sd_dict()
    print(f"{'seed':<8} {'P':>7} {'R':>7} {'F1':>7} {'HR':>6}")
    for seed, scores in seeds.seeds.items():
        print(f"{seed:<8} {scores.precision:7.4f} {scores.recall:7.4f} {scores.f1:7.4f} "
              f"{scores.hallucination_rate:6.2f}")
    print(f"{'mean':<8} {mean['precision']:7.4f} {mean['recall']:7.4f} {mean['f1']:7.4f} "
          f"{mean['hallucination_rate']:6.2f}")
    print(f"{'sd':<8} {sd['precision']:7.4f} {sd['recall']:7.4f} {sd['f1']:7.4f} {sd['hallucination_rate']:6.2f}")
    print(f"{len(seeds.seeds)} seeds, {len(next(iter(seeds.seeds.values())).pages)} pages each")
    return 0


def _llm_options(args: argparse.Namespace) -> dict[str, object]:
    options: dict[str, object] = {}
    for name in ("model", "temperature", "timeout_s", "base_url"):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    if getattr(args, "max_requests", None) or getattr(args, "max_tokens", None):
        from .gemini import Budget

        options["budget"] = Budget(max_requests=args.max_requests, max_tokens=args.max_tokens)
    return options


def _method_params(args: argparse.Namespace) -> dict[str, object]:
    """`--param k=10 --param similarity=lcs` -> {"k": 10, "similarity": "lcs"} (numbers read as numbers)."""
    params: dict[str, object] = {}
    for item in getattr(args, "param", None) or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RecordLensError(f"--param takes KEY=VALUE, not {item!r}")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def _create_extractor(method: str, params: dict[str, object]):  # noqa: ANN202 - an Extractor
    from .extract import create

    try:
        return create(method, **params)
    except TypeError as error:
        raise RecordLensError(f"method {method!r} does not take these parameters: {error}") from None
    except ValueError as error:
        raise RecordLensError(f"method {method!r}: {error}") from None


def cmd_extract(args: argparse.Namespace) -> int:
    from .extract import available, create
    from .runs import run_extractor, seed_dir

    if args.list:
        for name, description in available():
            print(f"{name:<10} {description}")
        return 0
    if not args.pages or not args.out:
        raise RecordLensError("extract needs --pages DIR and --out DIR (or --list)")
    method = args.method or DEFAULT_METHOD
    if method not in ("gemini", "replay") and (args.seeds != 1 or args.format):
        raise RecordLensError(f"--seeds and --format are for gemini and replay; {method!r} reads the DOM itself")
    seeds = list(range(args.seed, args.seed + args.seeds)) if method == "gemini" else [None]
    llm_options = _llm_options(args) if method == "gemini" else {}  # one budget for every seed of the run
    params = _method_params(args)
    if method == "selector" and getattr(args, "model", None):
        params["model"] = args.model  # for the selector, --model is a model file written by `recordlens train`
    elif args.model and method != "gemini":
        raise RecordLensError(f"--model is for the selector (a model file) and gemini, not {method!r}")
    failed = 0
    for seed in seeds:
        if method == "replay":
            if not args.answers:
                raise RecordLensError("--method replay needs --answers DIR (the folder of sampleK_F_content.json)")
            extractor = create("replay", answers=Path(args.answers), input_format=args.format or "flat")
            names = extractor.pages()  # type: ignore[attr-defined]
        elif method == "gemini":
            extractor = _create_extractor("gemini", {"input_format": args.format or "flat", "seed": seed,
                                                     **llm_options, **params})
            names = None
        else:
            extractor = _create_extractor(method, params)
            names = None
        out = seed_dir(Path(args.out), seed, len(seeds))
        summary = run_extractor(extractor, args.pages, out, names=names, resume=not args.restart,
                                progress=lambda n: progress(n, label=f"{method}", enabled=not args.quiet))
        for message in summary.warnings:
            warn(message)
        for name, reason in summary.failed.items():
            warn(f"page {name} failed: {reason}")
        tokens = f", {summary.tokens.get('total', 0):,} tokens" if summary.tokens else ""
        print(f"{out}: {len(summary.extracted)} extracted, {len(summary.skipped)} already there, "
              f"{len(summary.failed)} failed in {summary.seconds:.1f} s{tokens}", file=sys.stderr)
        failed += len(summary.failed)
        if summary.stopped:
            print(f"recordlens: stopped: {summary.stopped}", file=sys.stderr)
            return 3
    return 1 if failed else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    answers = Path(args.answers) if args.answers else None
    specs = bench.parse_methods(args.methods or f"mdr,{DEFAULT_METHOD}", answers)
    counter = _token_counter(args) if args.count_tokens else None
    if args.count_tokens and counter is None:
        warn("--count-tokens needs GEMINI_API_KEY (or GOOGLE_API_KEY); tokens shown as n/a")
    result = bench.run_bench(args.pages, args.gt, specs, answers=answers, count_tokens=counter,
                             progress=lambda n: progress(n, label="bench", enabled=not args.quiet),
                             llm_options=_llm_options(args))
    for message in result.warnings:
        warn(message)
    if args.chart and not args.no_chart:
        bench.write_chart(result, args.chart)
        print(f"wrote {args.chart}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
    else:
        print(bench.format_tables(result))
    return 0


def _add_llm_arguments(p: argparse.ArgumentParser) -> None:
    group = p.add_argument_group("Gemini (needs GEMINI_API_KEY or GOOGLE_API_KEY)")
    group.add_argument("--model", help="default gemini-2.5-pro")
    group.add_argument("--temperature", type=float)
    group.add_argument("--timeout-s", dest="timeout_s", type=float, help="seconds per request before a retry")
    group.add_argument("--max-requests", type=int, help="stop the run after this many requests")
    group.add_argument("--max-tokens", type=int, help="stop the run after this many tokens")
    group.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")


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
                                   "expanding both on PAGES/N.html or PAGES/N.mhtml (NEXT-EVAL's metric); "
                                   "or score a run stored in a project against its labels (--project DIR --run ID).")
    p.add_argument("--pred", help="folder of predicted N.json")
    p.add_argument("--gt", help="folder of ground-truth N.json")
    p.add_argument("--pages", help="folder of N.html / N.mhtml")
    project_cli.add_score_arguments(p)
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser("inspect", help="title, counts and the size of every format for one page",
                       description="Characters per format; tokens by Gemini's countTokens when a key is set.")
    p.add_argument("page")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-tokens", action="store_true", help="do not count tokens even when a key is set")
    p.add_argument("--model", help="the model whose tokenizer counts (default gemini-2.5-pro)")
    p.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    p.set_defaults(handler=cmd_inspect)

    p = sub.add_parser("extract", help="run an extractor over a folder of pages, writing a run",
                       description="Write OUT/N.json for each page DIR/N.html or DIR/N.mhtml. A run that stops "
                                   "resumes where it stopped (pages already written are skipped).")
    p.add_argument("--method", "-m", help=f"extractor (default: {DEFAULT_METHOD}); see --list")
    p.add_argument("--format", "-f", choices=formats.FORMATS, help="input format for gemini and replay")
    p.add_argument("--pages", help="folder of N.html / N.mhtml")
    p.add_argument("--out", help="run folder to write")
    p.add_argument("--answers", help="for --method replay: folder of sampleK_F_content.json (index.json beside it)")
    p.add_argument("--seeds", type=int, default=1, help="gemini: run N seeds into OUT/seed-S/")
    p.add_argument("--seed", type=int, default=0, help="gemini: first seed")
    p.add_argument("--restart", action="store_true", help="extract every page again instead of resuming")
    p.add_argument("--list", action="store_true", help="list the extraction methods")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the method, e.g. --param k=10 --param t=0.3 --param similarity=lcs for mdr")
    p.add_argument("--quiet", "-q", action="store_true")
    _add_llm_arguments(p)
    p.set_defaults(handler=cmd_extract)

    p = sub.add_parser("bench", help="the paper's Table 1 (formats) and Table 2 (methods), and a chart",
                       description="Measure input formats and extraction methods on a dataset. METHODS is a "
                                   "comma-separated list of NAME or NAME:FORMAT, e.g. mdr,repeats,replay:flat,"
                                   "gemini:outline; 'replay' alone takes every format with recorded answers.")
    p.add_argument("--pages", required=True)
    p.add_argument("--gt", required=True)
    p.add_argument("--methods", help=f"default: mdr,{DEFAULT_METHOD}")
    p.add_argument("--answers", help="folder of recorded answers for replay methods")
    p.add_argument("--count-tokens", action="store_true", help="count tokens with Gemini's countTokens (needs a key)")
    p.add_argument("--chart", default="bench-chart.png",
                   help="where to write the PNG bar chart of P/R/F1/HR (default: bench-chart.png)")
    p.add_argument("--no-chart", action="store_true", help="do not write the chart")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", "-q", action="store_true")
    _add_llm_arguments(p)
    p.set_defaults(handler=cmd_bench)

    from . import demo

    demo.register(sub)
    project_cli.register(sub)
    agent_cli.register(sub)
    from . import synth_cli

    synth_cli.register(sub)
    from . import train_cli

    train_cli.register(sub)
    from . import label_check

    label_check.register(sub)
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
