"""`recordlens score` and `bench`: a run against the labels, and the paper's two tables for several methods."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from ..atomic import write_text
from ..command_hints import hint_path
from ..errors import RecordLensError
from ..extract import DEFAULT_METHOD
from ..llm.gemini import token_counter
from ..output_paths import is_chart, is_json_report, marked_report, writable_file
from ..page.dataset import natural_key, record_files, synthetic_sources, unfinished_dataset
from ..records.hygiene import CheckReport, dataset_labels, summarise
from ..records.score import DatasetScore
from ..runs.evaluate import (
    format_not_read,
    is_file_missing,
    is_left_out,
    is_not_extracted,
    is_not_given,
    is_not_in_the_project,
    is_record_unreadable,
    pages_not_read_message,
    pages_predicted_on_others,
    score_run,
    score_seeds,
    seed_runs,
    without_failed,
    without_pages,
)
from ..runs.in_sample import LEARNS_FROM_PAGES, InSample, in_sample, page_digests_of
from ..runs.progress import progress
from ..runs.run_files import STOPPED, other_pages_message, read_run_description
from ..text_forms import cell, column_width
from ..wording import counted, shortened
from . import project as project_cli
from .engine_options import add_engine_arguments, engine_for
from .extraction import LLM_ONLY, add_llm_arguments, gemini_options, given_options, refuse_a_model_file_for_gemini
from .labels import label_checks, with_its_exit
from .output import STDOUT, print_json, warn

if TYPE_CHECKING:
    from ..runs.bench import MethodSpec

T = TypeVar("T")


def format_score_table(scores: DatasetScore) -> str:
    width = column_width([p.page for p in scores.pages], least=12)  # in columns: a CJK name takes two a letter
    lines = [f"{cell('page', width)} {'P':>7} {'R':>7} {'F1':>7} {'pred':>6} {'true':>6} {'halluc':>7}"]
    for p in scores.pages:
        lines.append(f"{cell(p.page, width)} {p.precision:7.4f} {p.recall:7.4f} {p.f1:7.4f} "
                     f"{p.predicted_records:6d} {p.true_records:6d} {p.hallucinated_records:7d}")
    lines.append(f"{cell('mean', width)} {scores.precision:7.4f} {scores.recall:7.4f} {scores.f1:7.4f}")
    lines.append(f"{scores.hallucination_words()}; {pages_scored(scores)}")
    lines.append(FIGURES_SAID)
    return "\n".join(lines + format_not_read(scores.not_read))


def pages_scored(scores: DatasetScore) -> str:
    """"pages 10", or where some could not be read (`LEFT_OUT_UNREAD`), "pages 10 of 11 (1 left out, below)"."""
    if not scores.not_read:
        return f"pages {len(scores.pages)}"
    return (f"pages {len(scores.pages)} of {len(scores.pages) + len(scores.not_read)} "
            f"({len(scores.not_read)} left out, below)")


FIGURES_SAID = ("(mean: the mean of the per-page figures; hallucinated records: pooled over the pages\n"
                " (records that expand to nothing over all predicted records); figures to 4 decimals)")


def cmd_score(args: argparse.Namespace) -> int:
    def bar(names: Sequence[str]):
        return progress(names, label="scoring", enabled=not args.quiet)

    stored = project_cli.score_project_run(args, progress=bar)
    if stored is None and args.pred and seed_runs(args.pred) and not any(Path(args.pred).glob("*.json")):
        return _score_seeds(args, bar)
    if stored is not None:
        scores, warnings, failed = stored
        kept = without_pages(scores, failed)
    else:
        with engine_for(args) as engine:  # issue 16: pages parsed and scored on the engine
            scores, warnings = score_run(args.pred, args.gt, args.pages, progress=bar, engine=engine)
        kept, failed = without_failed(scores)
        otherwise = pages_predicted_on_others(args.pred, args.pages, [p.page for p in kept.pages])
        if otherwise:
            warnings.append(other_pages_message(otherwise, "those in " + str(args.pages)))
    # after the score, whose refusal of labels it cannot read says that no page is scored (the check would stop at the
    # first such file with the reader's bare words)
    ceiling = _label_check(args) if args.ceiling else None
    # a page recorded done whose file is gone counts too where the folder holds files of other pages (named
    # otherwise): deleted by hand all alike, they are said missing instead, extract bringing them back
    elsewhere = stored is None and bool(record_files(args.pred))
    if (stored is None and scores.pages and not kept.pages and not read_run_description(args.pred).get(STOPPED)
            and all(is_not_extracted(reason) or is_left_out(reason) or is_not_given(reason)
                    or (elsewhere and is_file_missing(reason)) for reason in failed.values())):
        # a run stopped early is scored; one that holds none of these pages (or left them all out) is of others
        raise RecordLensError(f"{hint_path(args.pred)} holds no prediction for any of the {len(scores.pages)} page(s) "
                              "scored: a run of other pages? (--pred is the folder `extract --out` wrote for these "
                              "pages)")
    # the pages' own warnings (the reference's blind spots), both ways: a stored score keeps them too
    partial = (_say_warnings(args, warnings + scores.warnings) if stored is None
               else warn_each(warnings + scores.warnings))
    inside = _in_sample(args, scores.unreadable, scores.not_read)
    if inside is not None:
        warn(inside.message())
    if scores.not_read:  # said on stderr too: a table read past, or --json, would otherwise pass for every page
        warn(pages_not_read_message(scores.not_read, len(scores.pages) + len(scores.not_read)))
    if args.json:
        document = scores.as_dict()
        if scores.not_read:
            document["pages_not_read"] = scores.not_read  # left out of the figures: cannot be read (with why)
        if failed:
            document["failed_pages"] = failed  # every page without a usable prediction, with why
            document["without_failed"] = without_failed_dict(kept)
        if scores.unreadable:
            document["unreadable_pages"] = scores.unreadable  # of those, the prediction files that cannot be read
        if ceiling is not None:
            document["ceiling"] = _ceiling_dict(ceiling)
        if inside is not None:
            document["in_sample_pages"] = inside.pages
            document["variants_of_training_pages"] = inside.variants
            document["training_pages_under_other_labels"] = inside.relabelled
        print_json(document)
    else:
        print(format_score_table(scores))
        if failed:
            print(format_failed(kept, failed, scores.unreadable))
        if ceiling is not None:
            print(format_ceiling(ceiling, scores.f1))
    # scored, but not all of the run could be read (as `runs --add` exits), or not all of the dataset was there or
    # could be read
    return 1 if scores.unreadable or scores.not_read or partial else 0


def without_failed_dict(kept: DatasetScore) -> dict[str, object]:
    """The figures without the failed pages as `--json` gives them: with no page left, a mean over none has no value
    (null, as `runs --json` gives a mean it does not have), never a 0.0 a script would read as a score."""
    figures: dict[str, object] = dict(kept.mean_dict())
    if not kept.pages:
        figures = dict.fromkeys(figures)
    return {**figures, "pages": len(kept.pages)}


def warn_each(messages: Iterable[str]) -> bool:
    for message in messages:
        warn(message)
    return False


def _say_warnings(args: argparse.Namespace, messages: list[str]) -> bool:
    """Say a dataset's scoring warnings, the one of an unfinished dataset (a stopped export) with the exit status
    it brings; whether that was among them."""
    unfinished = unfinished_dataset(Path(args.pages)) if args.pages else None
    warn_each(with_its_exit(message, "figures") if message == unfinished else message for message in messages)
    if unfinished is not None and unfinished not in messages:
        warn(with_its_exit(unfinished, "figures"))
    return unfinished is not None


def _in_sample(args: argparse.Namespace, unreadable: Mapping[str, str], not_read: Mapping[str, str]
               ) -> InSample | None:
    """The scored pages a selector run's model was trained on, or a repeats run's rules were tuned on (their
    figures are in-sample), for either form. A page whose prediction file cannot be read (`unreadable`) was
    scored as predicting nothing: it is no page scored with a prediction; nor is a page left out of the figures
    (`not_read`)."""
    if args.project:
        from ..store import open_project
        from ..store.importer import synthetic_sources_of
        from ..store.scoring import labelled_page_names

        with open_project(args.project) as project:
            run = project.runs.get(args.run)
            if run.method not in LEARNS_FROM_PAGES:
                return None
            predicted = set(project.runs.page_names(args.run)) - set(project.runs.errors(args.run))
            scored = [name for name in labelled_page_names(project) if name in predicted and name not in not_read]
            # each page's digest as remembered beside its label check (a page parsed only when it was not)
            return in_sample(run.method, _inner(run.parameters),
                             ((name, project.label_checks.training_digest(name)) for name in scored),
                             synthetic_sources_of(project))
    described = read_run_description(args.pred)
    method = described.get("method")
    if method not in LEARNS_FROM_PAGES:
        return None
    predicted = set(record_files(args.pred)) - set(unreadable)
    return in_sample(str(method), _inner(described),
                     page_digests_of(p for p in dataset_labels(args.pages, args.gt, unreadable=[])
                                     if p[0] in predicted),
                     synthetic_sources(args.pages))


def _inner(described: dict[str, object]) -> dict[str, object]:
    """A run description's method parameters (the selector's model and its digest), {} when it holds none."""
    inner = described.get("parameters")
    return inner if isinstance(inner, dict) else {}


def _label_check(args: argparse.Namespace) -> CheckReport:
    """Label hygiene of the pages `score` scores on: a dataset's (--gt, --pages) or a project's labelled ones."""
    def bar(items: Iterable[T], total: int | None = None) -> Iterable[T]:
        return progress(items, total, label="ceiling", enabled=not args.quiet)

    total = None if args.project else len(record_files(args.gt))
    # over the pages that can be read, as the figures are (`LEFT_OUT_UNREAD`), of a dataset or a project: those that
    # cannot are said by the score
    return summarise(list(bar(label_checks(args, scored_only=True, unreadable=[]), total)))


def _ceiling_dict(report: CheckReport) -> dict[str, object]:
    return {"f1": report.ceiling if report.pages else None,  # null: no page checked (not perfect labels)
            "pages": {c.page: c.ceiling for c in report.pages}}


def format_ceiling(report: CheckReport, f1: float, what: str = "this run's mean F1") -> str:
    """The run's mean F1 beside the labels' ceiling: each distinct true record with text predicted once (a run that
    proposes a listed-twice record twice can pass it, so the share can exceed 100%)."""
    share = f" ({f1 / report.ceiling:.1%} of it)" if report.ceiling else ""
    below = [c for c in report.pages if c.ceiling < 1.0]
    return (f"ceiling of the labels (each distinct true record with text predicted once): mean F1 {report.ceiling:.4f} "
            f"over {counted(len(report.pages), 'page')}, {len(below)} of them below 1; {what} {f1:.4f}{share}")


def format_failed(kept: DatasetScore, failed: dict[str, str], unreadable: Mapping[str, str] | None = None) -> str:
    """The prediction files that cannot be read (`unreadable`: name -> why), the pages the run left out on purpose,
    the pages without a prediction (failed, or never extracted), and the figures without any of them (the table
    above counts them as empty predictions). Each list is in page order (`natural_key`: page 65 before 133), as
    the pages are listed elsewhere."""
    failed = {name: failed[name] for name in sorted(failed, key=natural_key)}
    cannot_read = unreadable or {}
    unreadable = {name: cannot_read[name] for name in failed if name in cannot_read}
    lines = []
    if unreadable:  # the run's files, not its extractor: extracting again is not what fixes them
        lines.append(f"prediction files that cannot be read ({len(unreadable)}; counted above as empty predictions; "
                     "mend or delete them):")
        lines += [f"  {name}: {why[:200]}" for name, why in unreadable.items()]
    left_out = {name: reason for name, reason in failed.items() if name not in unreadable and is_left_out(reason)}
    if left_out:  # on purpose (no answers for them): nothing a rerun would change, so none is advised
        lines.append(f"pages the run left out ({len(left_out)}; counted above as empty predictions, as a page "
                     "without a prediction is; the line below leaves them out):")
        lines += [f"  {name}: {shortened(reason, 200)}" for name, reason in left_out.items()]
    failed = {name: reason for name, reason in failed.items() if name not in unreadable and name not in left_out}
    missing = sum(is_not_extracted(reason) for reason in failed.values())
    not_given = sum(is_not_given(reason) for reason in failed.values())  # a finished run's: a rerun does nothing
    gone = sum(is_file_missing(reason) for reason in failed.values())  # done, its file deleted: a rerun writes it
    # predicted in a folder while the project lacked them: a folder added again brings them, not a rerun
    lacked = sum(is_not_in_the_project(reason) for reason in failed.values())
    unknown = sum(is_record_unreadable(reason) for reason in failed.values())  # done or not: a rerun does it again
    tried = len(failed) - missing - not_given - gone - lacked - unknown
    kinds = ", ".join(part for part in (f"{tried} failed" if tried else "",
                                         f"{missing} not extracted" if missing else "",
                                         f"{gone} whose prediction file is missing" if gone else "",
                                         f"{unknown} whose run record cannot be read" if unknown else "",
                                         f"{not_given} not among the run's pages" if not_given else "",
                                         f"{lacked} not in the project when the run was added" if lacked else "")
                     if part)
    advice = "; ".join(part for part in (
        "run extract again to retry or finish them" if tried or missing or unknown else "",
        f"extract again brings back the missing prediction {'file' if gone == 1 else 'files'}" if gone else "",
        f"the run finished without the {'page' if not_given == 1 else 'pages'} it was not given: a run given "
        f"{'it' if not_given == 1 else 'them'} predicts {'it' if not_given == 1 else 'them'}" if not_given else "",
        f"`runs --add` of the folder that predicted {'it' if lacked == 1 else 'them'} brings "
        f"{'it' if lacked == 1 else 'them'} in (the reason says which)" if lacked else "")
        if part)
    if failed:
        lines.append(f"pages without a prediction ({kinds}; counted above as empty predictions; {advice}):")
        lines += [f"  {name}: {shortened(reason, 200)}" for name, reason in failed.items()]
    if kept.pages:
        lines.append(f"{'without failed':<12} {kept.precision:7.4f} {kept.recall:7.4f} {kept.f1:7.4f} "
                     f"(pages {len(kept.pages)})")
    else:
        lines.append("without failed: no page left")
    return "\n".join(lines)


def _score_seeds(args: argparse.Namespace, bar) -> int:  # noqa: ANN001
    """A run made with --seeds N: each seed scored, then the means (and spread) over seeds; a seed with failed
    pages is listed with them and its figures without them, as a single run's are."""
    with engine_for(args) as engine:
        seeds, warnings = score_seeds(args.pred, args.gt, args.pages, progress=bar, engine=engine)
    partial = _say_warnings(args, warnings)
    ceiling = _label_check(args) if args.ceiling else None
    failures = {seed: without_failed(scores) for seed, scores in seeds.seeds.items()}
    failures = {seed: (kept, failed) for seed, (kept, failed) in failures.items() if failed}
    unreadable = {seed: scores.unreadable for seed, scores in seeds.seeds.items() if scores.unreadable}
    # the same pages for every seed: the dataset's, not the run's
    not_read = next((scores.not_read for scores in seeds.seeds.values() if scores.not_read), {})
    each = len(next(iter(seeds.seeds.values())).pages)
    if not_read:
        warn(pages_not_read_message(not_read, each + len(not_read)))
    if args.json:
        document = seeds.as_dict()
        if not_read:
            document["pages_not_read"] = not_read
        if failures:
            document["failed_pages"] = {str(seed): failed for seed, (_, failed) in failures.items()}
            document["without_failed"] = {str(seed): without_failed_dict(kept) for seed, (kept, _) in failures.items()}
        if unreadable:
            document["unreadable_pages"] = {str(seed): files for seed, files in unreadable.items()}
        if ceiling is not None:
            document["ceiling"] = _ceiling_dict(ceiling)
        print_json(document)
        return 1 if unreadable or not_read or partial else 0
    mean, sd = seeds.mean_dict(), seeds.sd_dict()
    print(f"{'seed':<8} {'P':>7} {'R':>7} {'F1':>7} {'HR':>7}")
    for seed, scores in seeds.seeds.items():
        print(f"{seed:<8} {scores.precision:7.4f} {scores.recall:7.4f} {scores.f1:7.4f} "
              f"{scores.hallucination_rate:7.4f}")
    print(f"{'mean':<8} {mean['precision']:7.4f} {mean['recall']:7.4f} {mean['f1']:7.4f} "
          f"{mean['hallucination_rate']:7.4f}")
    print(f"{'sd':<8} {sd['precision']:7.4f} {sd['recall']:7.4f} {sd['f1']:7.4f} {sd['hallucination_rate']:7.4f}")
    held = (f"{len(seeds.seeds)} of the {len(seeds.asked)} seeds asked" if len(seeds.asked) > len(seeds.seeds)
            else f"{len(seeds.seeds)} seeds")
    print(f"{held}, {each} pages each" + (f" (of {each + len(not_read)}: {len(not_read)} left out, below)"
                                          if not_read else ""))
    print("(each seed's figures: means of per-page figures; mean: their mean over seeds;\n"
          " sd: their sample standard deviation over seeds, n-1; figures to 4 decimals)")
    for line in format_not_read(not_read):
        print(line)
    for seed, (kept, failed) in failures.items():
        print(f"seed {seed}: " + format_failed(kept, failed, unreadable.get(seed)))
    if ceiling is not None:
        print(format_ceiling(ceiling, mean["f1"], "the run's mean F1 over seeds"))
    return 1 if unreadable or not_read or partial else 0


def cmd_bench(args: argparse.Namespace) -> int:
    from ..runs import bench

    if args.json not in (None, STDOUT):
        writable_file(args.json, "a report", replaces=is_json_report)
    if args.cv is not None:
        return _bench_cv(args)
    for name in ("seed", "per_page", "splits"):
        if getattr(args, name):
            raise RecordLensError(f"--{name.replace('_', '-')} goes with --cv K (the cross-validated report)")
    if len(args.pages or []) != 1 or len(args.gt or []) != 1:
        raise RecordLensError("bench needs one --pages DIR and one --gt DIR (several pairs go with --cv K)")
    answers = Path(args.answers) if args.answers else None
    specs = bench.parse_methods(args.methods or f"mdr,{DEFAULT_METHOD}", answers)
    refuse_a_model_file_for_gemini(args.model, "is --selector-model")
    if args.selector_model is not None and not any(spec.method == "selector" for spec in specs):
        raise RecordLensError("--selector-model is the selector's model file: add selector to --methods")
    _refuse_gemini_options_without_gemini(args, specs)
    if not args.no_chart:
        # before the work, whose results it would lose
        writable_file(args.chart or DEFAULT_CHART, "a chart", replaces=is_chart)
    # counted where a Gemini method could call: with a key, or at an endpoint of --base-url (a placeholder key)
    counter = token_counter(args.base_url, args.model, warn) if args.count_tokens else None
    if args.count_tokens and counter is None:
        warn("--count-tokens needs GEMINI_API_KEY (or GOOGLE_API_KEY), or an endpoint of --base-url that needs "
             "none; tokens shown as n/a")
    with engine_for(args) as engine:  # issue 16: one page (every method on it) per unit of work
        result = bench.run_bench(args.pages[0], args.gt[0], specs, answers=answers, count_tokens=counter,
                                 progress=lambda n: progress(n, label="bench", enabled=not args.quiet),
                                 llm_options=gemini_options(args), engine=engine,
                                 selector_model=args.selector_model)
    unfinished = unfinished_dataset(Path(args.pages[0]))  # as score says it: figures of part of a dataset, exit 1
    for message in result.warnings:  # a method's figures on pages it learnt from among them: in-sample
        warn(with_its_exit(message, "figures") if message == unfinished else message)
    chart = args.chart or DEFAULT_CHART
    if not args.no_chart:
        bench.write_chart(result, chart)
        print(f"wrote {hint_path(chart)}", file=sys.stderr)
    _print_report(args.json, marked_report("bench", result.as_dict()), lambda: bench.format_tables(result))
    # as extract's: 1 failed pages, 3 a budget, 4 a failing endpoint; as score's: 1 on an unfinished dataset
    return result.exit_code or (1 if unfinished is not None else 0)


def _refuse_gemini_options_without_gemini(args: argparse.Namespace, specs: Sequence[MethodSpec]) -> None:
    """Gemini's options with no Gemini method among --methods would be ignored without a word, as `extract` refuses
    them for another method; --count-tokens asks Gemini too (with --model, --base-url and --prompt-file)."""
    if any(spec.method == "gemini" for spec in specs):
        return
    counting = COUNTED_WITH if args.count_tokens else ()
    unused = given_options(args, tuple(name for name in ("model", *LLM_ONLY) if name not in counting))
    if unused:
        methods = ", ".join(spec.label for spec in specs)
        counted_with = [option for option in given_options(args, COUNTED_WITH) if option in unused]
        raise RecordLensError(f"{', '.join(unused)} {'is' if len(unused) == 1 else 'are'} for the gemini methods, "
                              f"and --methods has none ({methods})"
                              + (f"; with --count-tokens, {', '.join(counted_with)} "
                                 f"{'is' if len(counted_with) == 1 else 'are'} what the tokens are counted with"
                                 if counted_with else ""))


COUNTED_WITH = ("model", "base_url", "prompt_file")  # what --count-tokens asks Gemini with, a Gemini method or none
DEFAULT_CHART = "bench-chart.png"
# Options of the paper bench that say nothing to the cross-validated one (which measures the trained selector).
# --no-chart is not among them: it asks for what --cv does anyway (no chart), so it is taken, not refused.
_NOT_WITH_CV = ("methods", "answers", "selector_model", "count_tokens", "chart", "model", "temperature",
                "timeout_s",
                "max_requests", "max_tokens", "base_url", "prompt_file", "ray_address", "workers",
                "requests_per_minute", "ship_content")


def _bench_cv(args: argparse.Namespace) -> int:
    """`bench --cv K`: the trained selector cross-validated over the datasets given, with its baselines."""
    from ..extract.fit_pool import say_workers_variable_problem
    from ..runs.cross_validation import cross_validate_sets, format_report

    say_workers_variable_problem(warn)  # as train says it: one `warning:` line before the work

    given = ["--" + name.replace("_", "-") for name in _NOT_WITH_CV if getattr(args, name, None) not in (None, False)]
    if args.engine != "local":
        given.append("--engine")
    if given:
        raise RecordLensError(f"{', '.join(given)}: not for bench --cv K, which cross-validates the trained "
                              "selector on this machine")
    pages, gts = args.pages or [], args.gt or []
    if not pages or len(pages) != len(gts):
        raise RecordLensError("bench --cv K needs labelled pages: --pages DIR --gt DIR, one pair per dataset "
                              "(e.g. the 80 development pages: .../nexteval-synth-dev and .../nexteval-synth-more)")
    seed = args.seed or 0
    cv = cross_validate_sets(list(zip(pages, gts, strict=True)), args.cv, seed,
                             progress=lambda items: progress(items, label="candidates", enabled=not args.quiet),
                             splits=1 if args.splits is None else args.splits)
    if not args.quiet:
        print(f"{len(cv.pages)} pages, {args.cv} folds x {cv.splits} splits, seed {seed}: candidates "
              f"{cv.seconds['prepare']:.1f} s, "
              f"cross-validation {cv.seconds['cross_validation']:.1f} s", file=sys.stderr)
    _print_report(args.json, marked_report("bench --cv", cv.as_dict()),
                  lambda: format_report(cv, per_page=args.per_page))
    return 0


def _print_report(json_to: str | None, document: dict[str, object], table: Callable[[], str]) -> None:
    """`--json` alone: the document on stdout; `--json FILE`: the document in FILE and the table on stdout."""
    if json_to == STDOUT:
        print_json(document)
        return
    if json_to:
        write_text(json_to, json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        print(f"wrote {hint_path(json_to)}", file=sys.stderr)
    print(table())


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score a run of predictions against ground truth",
                       description="Score PRED/N.json against GT/N.json for every N with ground truth, "
                                   "expanding both on PAGES/N.html or PAGES/N.mhtml (NEXT-EVAL's metric); "
                                   "or score a run stored in a project against its labels (--project DIR --run ID).")
    p.add_argument("--pred", help="folder of predicted N.json")
    p.add_argument("--gt", help="folder of ground-truth N.json")
    p.add_argument("--pages", help="folder of N.html / N.mhtml")
    project_cli.add_score_arguments(p)
    p.add_argument("--json", action="store_true", help="print the scores as JSON")
    p.add_argument("--ceiling", action="store_true",
                   help="also the mean F1 the labels allow (each distinct true record with text predicted once: "
                        "records listed twice or that name nothing lower it), beside the run's (`labels check` says "
                        "why)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_engine_arguments(p, calls_models=False)
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser("bench", help="the paper's Table 1 (formats) and Table 2 (methods), and a chart; or, "
                                     "with --cv K, the trained selector cross-validated",
                       description="Measure input formats and extraction methods on a dataset. METHODS is a "
                                   "comma-separated list of NAME or NAME:FORMAT, e.g. mdr,repeats,replay:flat,"
                                   "gemini:outline; 'replay' alone takes every format with recorded answers. "
                                   "With --cv K: the trained selector by page-grouped K-fold cross-validation over "
                                   "the labelled pages of every --pages/--gt pair (each page extracted by a model "
                                   "fitted on the other folds only), beside repeats, the best-candidate oracle and "
                                   "the ceiling the labels allow.")
    p.add_argument("--pages", action="append", metavar="DIR",
                   help="folder of N.html / N.mhtml (with --cv: repeatable, one per --gt)")
    p.add_argument("--gt", action="append", metavar="DIR", help="folder of ground-truth N.json")
    p.add_argument("--methods", help=f"default: mdr,{DEFAULT_METHOD}")
    p.add_argument("--answers", help="folder of recorded answers for replay methods")
    p.add_argument("--selector-model", metavar="FILE",
                   help="the selector's model file, written by `recordlens train` (default: the shipped one); "
                        "--model names Gemini's model")
    p.add_argument("--count-tokens", action="store_true", help="count tokens with Gemini's countTokens (needs a key)")
    chart = p.add_mutually_exclusive_group()
    chart.add_argument("--chart", help=f"where to write the PNG bar chart of P/R/F1/HR (default: {DEFAULT_CHART})")
    chart.add_argument("--no-chart", action="store_true", help="do not write the chart")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="print the figures as JSON; --json FILE writes them to FILE and prints the tables")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    cv = p.add_argument_group("cross-validation (--cv K)")
    cv.add_argument("--cv", type=int, metavar="K",
                    help="cross-validate the trained selector in K page-grouped folds: each page is extracted by a "
                         "model trained on the other K-1 folds (K = 5: on 4/5 of the pages, as the README's figures "
                         "are)")
    cv.add_argument("--seed", type=int, help="the seed of the fold split and of the fits (default 0)")
    cv.add_argument("--splits", type=int, metavar="R",
                    help="repeat the cross-validation over R fold splits (seeds S..S+R-1) and report their mean "
                         "(default 1)")
    cv.add_argument("--per-page", action="store_true", help="also print every page's figures and fold")
    add_llm_arguments(p, budget_help={option: meaning + BUDGET_SHARED for option, meaning in BENCH_BUDGET.items()})
    add_engine_arguments(p)
    p.set_defaults(handler=cmd_bench)


# bench's budget is the bench's, not each method's: said where the options are (runs/bench.py says why).
BENCH_BUDGET = {"--max-requests": "stop after this many requests, counted over every Gemini method together",
                "--max-tokens": "stop once this many tokens are used, counted over every Gemini method together "
                                "(the request that crosses the mark is kept)"}
BUDGET_SHARED = ("; one budget: the methods take turns on each page, so they stop on the same page, and every row is "
                 "scored on the pages every method reached; a stopped bench does not resume (run again, it asks "
                 "every page again)")
