"""`recordlens extract`: an extractor over a folder of pages into a run, resumably; the Gemini options."""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..command_hints import hint_option, hint_path
from ..errors import RecordLensError
from ..extract import DEFAULT_METHOD
from ..extract.base import SET_BY_RECORDLENS, Extractor
from ..output_paths import writable_folder
from ..page import formats
from ..page.dataset import natural_key, page_files, pages_not_read
from ..path_text import shown_bytes
from ..runs.engines import Engine
from ..runs.evaluate import LEFT_OUT_UNREAD, PageNotRead, read_page
from ..runs.progress import progress
from ..runs.run_files import META_DIR, RESTART_STARTS_OVER, WITHOUT_RESTART, RunSummary, exit_status, tokens_said
from ..wording import counted, listed
from .engine_options import add_engine_arguments, engine_for
from .output import COMMAND_STOPS, warn

LLM_ONLY = ("temperature", "timeout_s", "max_requests", "max_tokens", "base_url", "prompt_file")  # Gemini's options


def given_options(args: argparse.Namespace, names: tuple[str, ...] = LLM_ONLY) -> list[str]:
    """The options of `names` given on the command line, as typed (`--timeout-s`)."""
    return [f"--{name.replace('_', '-')}" for name in names if getattr(args, name, None) is not None]


def refuse_a_model_file_for_gemini(model: str | None, selector_model: str) -> None:
    """`--model FILE` where --model names Gemini's model (`bench`; `extract --method gemini`): a selector model file
    given there would otherwise be sent to Gemini as a model's name, or go unread while the shipped model is
    measured. `selector_model` says where such a file goes ("is --selector-model")."""
    if model is not None and (model.lower().endswith((".json", ".json.gz")) or Path(model).is_file()):
        raise RecordLensError(f"{hint_option('--model', model)}: --model is the Gemini model name; the selector's "
                              f"model file {selector_model}")


def gemini_options(args: argparse.Namespace) -> dict[str, object]:
    options: dict[str, object] = {}
    for name in ("model", "temperature", "timeout_s", "base_url", "prompt_file"):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    budget = _budget(args)
    if budget is not None:
        options["budget"] = budget
    return options


def _budget(args: argparse.Namespace):  # noqa: ANN202 - a Budget, or None
    """The run's cap from --max-requests and --max-tokens (the commands that have them); None without either.
    0 is a limit (no request at all), not "unlimited": tested for None, not for truth."""
    limits = {name: getattr(args, name, None) for name in ("max_requests", "max_tokens")}
    if all(value is None for value in limits.values()):
        return None
    from ..llm.gemini import Budget

    for name, value in limits.items():
        if (value or 0) < 0:
            raise RecordLensError(f"--{name.replace('_', '-')} must be 0 or more")
    return Budget(**limits)


# Parameters that name something (a model file, a model's name): kept as text, so a file named "5" stays "5".
TEXT_PARAMS = frozenset({"model"})


def _method_params(args: argparse.Namespace) -> dict[str, object]:
    """`--param k=10 --param similarity=lcs` -> {"k": 10, "similarity": "lcs"} (numbers read as numbers)."""
    params: dict[str, object] = {}
    for item in getattr(args, "param", None) or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise RecordLensError(f"--param takes KEY=VALUE, not {item!r}")
        if key in SET_BY_RECORDLENS:
            raise RecordLensError(f"--param {key}: set by RecordLens, not a parameter; give "
                                  f"{SET_BY_RECORDLENS[key]} instead")
        if key in TEXT_PARAMS:
            params[key] = value
            continue
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    return params


def _create_extractor(method: str, params: dict[str, object]):  # noqa: ANN202 - an Extractor
    from ..extract import create

    try:
        return create(method, **params)
    except TypeError as error:
        raise RecordLensError(f"method {method!r} does not take these parameters: {error}") from None
    except ValueError as error:
        raise RecordLensError(f"method {method!r}: {error}") from None


def _say_caution(extractor: object) -> None:
    """A selector model of one stage (trained on too few pages) said once, before the pages, as `train` said it as
    it wrote the model and the app's Propose says it each time it uses one."""
    from ..extract.selector import caution_before_a_run

    if (caution := caution_before_a_run(extractor)) is not None:
        warn(caution)


def cmd_extract(args: argparse.Namespace) -> int:
    from ..extract import available

    if args.list:
        for name, description in available():
            print(f"{name:<10} {description}")
        return 0
    if not args.pages or not args.out:
        raise RecordLensError("extract needs --pages DIR and --out DIR (or --list)")
    _refuse_a_run_folder_that_takes_no_file(Path(args.out))
    method = args.method or DEFAULT_METHOD
    if args.seeds < 1:
        raise RecordLensError(f"--seeds {args.seeds}: a run needs at least one seed")
    if method not in ("gemini", "replay") and (args.seeds != 1 or args.format):
        raise RecordLensError(f"--seeds and --format are for gemini and replay; {method!r} reads the DOM itself")
    if method == "replay" and args.seeds != 1:  # recorded answers are one run: seeds would repeat it
        raise RecordLensError("--seeds is for gemini; replay's recorded answers are one run")
    # Gemini's options with another method would be ignored without a word (--model: see below).
    unused = given_options(args) + (["--seed"] if args.seed != 0 else [])
    if method != "gemini" and unused:
        raise RecordLensError(f"{', '.join(unused)} {'is' if len(unused) == 1 else 'are'} for gemini, not {method!r}")
    seeds = list(range(args.seed, args.seed + args.seeds)) if method == "gemini" else [None]
    llm_options = gemini_options(args) if method == "gemini" else {}  # one budget for every seed of the run
    params = _method_params(args)
    # `is not None`: an empty --model "" is a mistake to name, not a quiet fall back to the shipped model.
    if method == "selector" and getattr(args, "model", None) is not None:
        if "model" in params and params["model"] != args.model:
            given = hint_option("--param", f"model={params['model']}")
            raise RecordLensError(f"{hint_option('--model', args.model)} and {given} name two model files; give one")
        params["model"] = args.model  # for the selector, --model is a model file written by `recordlens train`
    elif getattr(args, "model", None) is not None and method != "gemini":
        raise RecordLensError(f"--model is for the selector (a model file) and gemini, not {method!r}")
    elif method == "gemini":
        refuse_a_model_file_for_gemini(args.model, "is given with --method selector")
    if len(seeds) > 1:
        from ..runs.runner import refuse_seeds_beside_a_run

        refuse_seeds_beside_a_run(Path(args.out))  # before any request
    if method == "gemini":
        from ..llm.gemini import required_api_key

        required_api_key(args.base_url)  # before an engine starts (a Ray instance takes seconds), not after
    with engine_for(args) as engine:  # issue 16: one engine (one Ray instance) for every seed of the run
        if len(seeds) == 1:
            return _extract_seeds(args, method, seeds, llm_options, params, engine)
        from ..runs.runner import record_seeds_asked, run_lock, seeds_of_the_run

        notes: list[str] = []
        # The seeds' folder locked from the first seed to the last: between two seeds no seed-S/ is, and a
        # `runs --add` then would store the seeds done as the whole run (`check_not_extracting` looks here too)
        with run_lock(Path(args.out), notes):
            asked = seeds_of_the_run(Path(args.out), [seed for seed in seeds if seed is not None], notes)
            for note in notes:
                warn(note)
            try:
                return _extract_seeds(args, method, seeds, llm_options, params, engine, asked)
            finally:  # the run's seeds asked said alike by each seed-S/, the seeds this command did not run too
                record_seeds_asked(Path(args.out), asked)


def _refuse_a_run_folder_that_takes_no_file(out: Path) -> None:
    """The run folder and the folders of it a run writes (its records' `_run/`; with --seeds each `seed-S/` and its
    `_run/`), asked before any work, on either engine: one that takes no file (a read-only mount) would fail the run
    at its first page, after a Ray instance had started, with the OS's words on a temporary file."""
    writable_folder(out, "a run")
    for inner in (out / META_DIR, *sorted(out.glob("seed-*")), *sorted(out.glob(f"seed-*/{META_DIR}"))):
        if inner.is_dir():
            writable_folder(inner, "a run")


def _extract_seeds(args: argparse.Namespace, method: str, seeds: list[int | None], llm_options: dict[str, object],
                   params: dict[str, object], engine: Engine, asked: list[int] | None = None) -> int:
    """Run each seed of `seeds` into its folder; `asked`: for a run written with --seeds N, every seed the run asks
    (those given, and those its folder held before: `runner.seeds_of_the_run`), recorded in each seed's run.json."""
    from ..extract import create
    from ..runs.evaluate import seeds_not_run_message
    from ..runs.runner import run_extractor, seed_dir

    undone = 0  # pages failed, and pages no file of which could be read
    unreadable: list[str] | None = None  # one folder for every seed: listed once, after the first seed's run
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
            _say_caution(extractor)
        out = seed_dir(Path(args.out), seed, len(seeds))
        new_folder = not out.exists()
        summary = RunSummary(out)
        # A stopped --restart: what it left of the run before, made with other settings (its pages' records say)
        left = functools.partial(_left_by_a_restart, args.restart, out, extractor)
        try:
            run_extractor(extractor, args.pages, out, names=names, resume=not args.restart,
                          progress=lambda n: progress(n, label=f"{method}", enabled=not args.quiet),
                          engine=engine, summary=summary, seeds=asked)
        except COMMAND_STOPS:  # Ctrl+C, SIGTERM, stdout gone: what the folder holds now, and how to go on
            if summary.wanted:
                print(interrupted_line(summary, left()), file=sys.stderr)
            raise
        # A seed stopped before anything of it was done or paid for (the budget spent at the end of the seed
        # before): its folder, made just now, would pass for a seed that ran and found nothing
        never_began = (seed is not None and len(seeds) > 1 and new_folder and summary.stopped
                       and not (summary.extracted or summary.skipped or summary.failed or summary.stopped_on))
        if never_began:
            shutil.rmtree(out, ignore_errors=True)
        for message in summary.warnings:
            warn(message)
        for name, reason in summary.failed.items():
            warn(f"page {name} failed: {reason}")
        # each said above (skipped), left undone: counted, and the status 1 (replay: of the pages it has answers for)
        if unreadable is None:
            unreadable = pages_not_read(args.pages)
        not_read = [name for name in unreadable if names is None or name in names]
        if not never_began:  # what the run did, with its figures: the command's result, on stdout
            print(shown_bytes(end_of_run_line(summary, len(not_read))))
        cannot_read = _failed_on_reading(summary, args.pages)  # no rerun helps them: their files need mending
        if len(summary.failed) > len(cannot_read) and not summary.stopped:  # a stopped run's stop line says how to
            print(failed_pages_next_step(summary, [n for n in summary.failed if n not in cannot_read]),  # go on
                  file=sys.stderr)
        if cannot_read or not_read:
            print(pages_not_read_next_step(sorted(cannot_read + not_read, key=natural_key)), file=sys.stderr)
        undone += len(summary.failed) + len(not_read)
        if summary.stopped:  # 3: the budget ran out; 4: the model endpoint failed (as `agent run`)
            given = [s for s in seeds if s is not None]
            # the seeds it never came to (this one too when it stopped before it began), and those of the run it
            # was not given that never ran either
            later = given[given.index(seed) + (0 if never_began else 1):] if seed is not None else []
            later += [s for s in asked or [] if s not in given and not seed_dir(Path(args.out), s, 2).is_dir()]
            not_run = f"; {seeds_not_run_message(asked or given, sorted(later))}" if later else ""
            over = left()
            earlier = f"; {earlier_pages_said(over)}" if over is not None and over.differences else ""
            print(f"recordlens: stopped: {summary.stopped}{earlier}{not_run}", file=sys.stderr)
            return exit_status(stopped=True, endpoint_failed=summary.endpoint_failed)
    return exit_status(failed=bool(undone))


def _left_by_a_restart(restart: bool, out: Path, extractor: Extractor) -> Restarted | None:
    """For a --restart (None otherwise), the pages it left of the run before, made with other settings, by how."""
    from ..runs.runner import differences_left_by_the_restart

    return Restarted(differences_left_by_the_restart(out, extractor)) if restart else None


def end_of_run_line(summary: RunSummary, not_read: int = 0) -> str:
    """What a run did, every page counted once: extracted, already there, failed, not extracted (`not_read`: named
    like pages, no regular file, each said above as not read), and for a run that stopped, the page it stopped on part
    way (its paid calls kept) and the pages it never reached."""
    parts = [f"{len(summary.extracted)} extracted", f"{len(summary.skipped)} already there",
             f"{len(summary.failed)} failed"]
    if not_read:
        parts.append(f"{not_read} not extracted (no page file: said above)")
    if summary.stopped_on:
        parts.append(_stopped_part_way(summary.stopped_on))
    if summary.stopped:
        parts.append(f"{len(summary.not_reached)} not reached")
    requests = f", {counted(summary.requests, 'request')}" if summary.requests is not None else ""
    return (f"{hint_path(summary.out_dir)}: {', '.join(parts)} in {summary.seconds:.1f} s{requests}"
            f"{tokens_said(summary.tokens)}")


def failed_pages_next_step(summary: RunSummary, failed: Sequence[str]) -> str:
    """What to do after a run some of whose pages failed (each said above with its reason; `failed`: those whose
    page could be read): running it again retries exactly those pages, and keeps the others (without --restart,
    which would extract every page again)."""
    again = (f"{WITHOUT_RESTART} to retry exactly those pages ({RESTART_STARTS_OVER})" if summary.restarted
             else "run the same command again to retry exactly those pages")
    counts = "it as an empty prediction" if len(failed) == 1 else "them as empty predictions"
    return (f"recordlens: {counted(len(failed), 'page')} failed (why is said above, and each page's calls are "
            f"kept in {hint_path(summary.out_dir / META_DIR)}/PAGE.json): {again}; until then `recordlens score` "
            f"and `bench` count {counts}")


def pages_not_read_next_step(names: Sequence[str]) -> str:
    """What becomes of the pages a run could not read (an empty file, a folder named like a page, each said above):
    what `score` and `bench` do of them, and how they are extracted."""
    one = len(names) == 1
    return (f"recordlens: {counted(len(names), 'page')} cannot be read ({listed(names, 8, total=True)}; why is said "
            f"above): until {'it is a page file' if one else 'they are page files'} that can be read, "
            f"{'it is' if one else 'they are'} {LEFT_OUT_UNREAD}; then the same command extracts "
            f"{'it' if one else 'them'}")


def _failed_on_reading(summary: RunSummary, pages_dir: str) -> list[str]:
    """The pages the run failed on because their saved page cannot be read (`read_page`, as `score` tells them
    apart): asked again of the failed pages alone, not of the run's."""
    failed = list(summary.failed)
    if not failed:
        return []
    files = page_files(pages_dir)
    return [name for name in failed if name in files and _cannot_be_read(files[name], name)]


def _cannot_be_read(page_file: Path, name: str) -> bool:
    try:
        return isinstance(read_page(page_file, name), PageNotRead)
    except OSError:  # met for a moment (`read_page`): the page may well be read, by the same command again
        return False


def _stopped_part_way(name: str) -> str:
    """The page a run stopped on part way (its budget, an interrupt), after calls on it were paid for."""
    return f"stopped on page {name} (its paid calls kept in {META_DIR}/{name}.json)"


@dataclass(frozen=True)
class Restarted:
    """A run started with --restart over the run its folder held, stopped: how the pages it left of that run, made
    with other settings, were made otherwise (nothing: none left, or none made otherwise)."""

    differences: list[str]


def interrupted_line(summary: RunSummary, restarted: Restarted | None = None) -> str:
    """What a run stopped part way (Ctrl+C, SIGTERM) holds, and how to go on. A resumed run's pages are counted in
    its folder (a stop can come between a page's records written and the page counted), and running it again
    does the rest. A --restart's are those it wrote: the folder's other pages are the earlier run's, which a
    resume (without --restart) keeps when they were made with the same settings and extracts again otherwise
    (`run_files.extracted_before`); the same command, --restart and all, would start over (and pay Gemini again
    for every page)."""
    failed = f", {len(summary.failed)} failed" if summary.failed else ""
    if summary.stopped_on:  # the page the interrupt cut short, after calls on it were paid for
        failed += f", {_stopped_part_way(summary.stopped_on)}"
    wanted = len(summary.wanted)
    spent = _spent_this_session(summary)
    if restarted is None:
        held = sum((summary.out_dir / f"{name}.json").is_file() for name in summary.wanted)
        return (f"{hint_path(summary.out_dir)}: {held} of {wanted} pages extracted{failed}; run the same command "
                f"again for the rest{spent}")
    done = (f"{hint_path(summary.out_dir)}: {len(summary.extracted)} of {wanted} pages extracted again by this "
            f"--restart{failed}")
    if not restarted.differences:
        return (f"{done}; to go on, {WITHOUT_RESTART}: it extracts the pages not done yet and keeps those done (the "
                f"earlier run's too, made with the same settings); {RESTART_STARTS_OVER}{spent}")
    return (f"{done}; {earlier_pages_said(restarted)}; to go on, {WITHOUT_RESTART}: it extracts the pages not done "
            f"yet and keeps those this --restart did; {RESTART_STARTS_OVER}{spent}")


def _spent_this_session(summary: RunSummary) -> str:
    """What an interrupted session of a model-calling run spent, said as the closing line of a session that ended
    says it (`end_of_run_line`: the seconds, the requests, every attempt, and the tokens by kind): "; this session:
    12.3 s, 4 requests, 1,360 tokens (…)"; "" for a method that calls no model. The pages counted before it are
    the folder's, whichever session extracted them; these figures are this session's alone."""
    if summary.requests is None:
        return ""
    requests = counted(summary.requests, "request")
    return f"; this session: {summary.seconds:.1f} s, {requests}{tokens_said(summary.tokens)}"


def earlier_pages_said(restarted: Restarted) -> str:
    """What a stopped --restart over a run of other settings left in the folder, and what resuming does of it."""
    return ("its other pages hold the earlier run's records where it had them, made with other settings "
            f"({'; '.join(restarted.differences)}): a score of the folder says so until a run without --restart "
            "has extracted them again")


# The budget options' help for one run; a command that means them otherwise (bench: one budget for every method)
# words them itself (`budget_help`)
RUN_BUDGET = {"--max-requests": "stop the run after this many requests",
              "--max-tokens": "stop the run once this many tokens are used (the request that crosses the mark is "
                              "kept, so a run may end a little over; on Ray, up to one request per worker over)"}


def add_llm_arguments(p: argparse.ArgumentParser, *, selector_model: bool = False,
                      budget_help: dict[str, str] | None = None) -> None:
    budget = budget_help or RUN_BUDGET
    group = p.add_argument_group("Gemini (needs GEMINI_API_KEY or GOOGLE_API_KEY)" + (
        "; --model also names the selector's model file" if selector_model else ""))
    group.add_argument("--model", help="the Gemini model (default gemini-2.5-pro)" + (
        "; for the selector, a model file written by `recordlens train` (default: the shipped one)"
        if selector_model else ""))
    group.add_argument("--temperature", type=float, help="0 to 2 (default 1)")
    group.add_argument("--timeout-s", dest="timeout_s", type=float,
                       help="seconds per request before a retry (default 300; five attempts)")
    group.add_argument("--max-requests", type=int, help=budget["--max-requests"])
    group.add_argument("--max-tokens", type=int, help=budget["--max-tokens"])
    group.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    group.add_argument("--prompt-file", help="a prompt of your own: the file is the whole message, {input} "
                                             "standing for the page (appended when absent); its hash is recorded")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("extract", help="run an extractor over a folder of pages, writing a run",
                       description="Write OUT/N.json for each page DIR/N.html or DIR/N.mhtml. A run that stops "
                                   "resumes where it stopped (pages already written are skipped).")
    p.add_argument("--method", "-m", help=f"extractor (default: {DEFAULT_METHOD}); see --list")
    p.add_argument("--format", "-f", choices=formats.FORMATS, help="input format for gemini and replay (default flat)")
    p.add_argument("--pages", help="folder of N.html / N.mhtml")
    p.add_argument("--out", help="run folder to write")
    p.add_argument("--answers", help="for --method replay: folder of sampleK_F_content.json (index.json beside it)")
    p.add_argument("--seeds", type=int, default=1, help="gemini: run N seeds into OUT/seed-S/ (default 1)")
    p.add_argument("--seed", type=int, default=0, help="gemini: first seed (default 0)")
    p.add_argument("--restart", action="store_true", help="extract every page again instead of resuming")
    p.add_argument("--list", action="store_true", help="list the extraction methods")
    p.add_argument("--param", action="append", metavar="KEY=VALUE",
                   help="a parameter of the method, e.g. --param k=10 --param t=0.3 --param similarity=lcs for mdr")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_llm_arguments(p, selector_model=True)
    add_engine_arguments(p, ships_pages=True)
    p.set_defaults(handler=cmd_extract)


def gemini_caller(args: argparse.Namespace, *, json_output: bool):  # noqa: ANN201 - a GeminiCaller
    """The Gemini caller a command's --model, --temperature, --timeout-s, --base-url and --max-requests ask for."""
    from ..llm.gemini import Budget, CallSettings, GeminiCaller

    settings = CallSettings(json_output=json_output, base_url=args.base_url)
    if args.model:
        settings.model = args.model
    if args.temperature is not None:
        settings.temperature = args.temperature
    if getattr(args, "timeout_s", None) is not None:
        settings.timeout_s = args.timeout_s
    return GeminiCaller(settings, budget=_budget(args) or Budget())
