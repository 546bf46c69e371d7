"""The paper's two tables for any set of methods on any dataset, and a bar chart.

Table 1: per input format, the mean size in characters over the pages and the mean prompt tokens (from the
provider's recorded usage where an answer carries it, a refused one too, from Gemini's countTokens when asked and a
key is set, otherwise "n/a"); the tokens' mean is over the pages with a count, and where those are fewer than every
page, the table says how many and their mean size in characters, so that the two columns can be read together.
Either way the tokens are a whole prompt's, one quantity whatever its source: the system instruction, the words
around the page and the page, as a run sends them. Recorded usage is that of the prompt the answers were made with
(replayed answers: the reference's own); countTokens is sent the prompt a Gemini run of the format would send (the
shipped prompt, or --prompt-file's), never the page alone.
Table 2: per method and input format, mean P, R, F1 (means of per-page figures), the
page hallucination rate, the share of hallucinated records (pooled: their sum over the predicted records' sum), and
seconds per page. A method's input is what its extractions say they read: replayed answers recorded on the
reference's lossy nesting (`replay:hier`) read `hier-ref`, as Table 1 calls it.

Each method's row in the JSON carries its provenance, as a run's `_run/run.json` does (version, parameters, such as
the selector's model and its digest; settings), the pages scored, and the pages it learnt from among them (the
selector's training pages, the pages repeats' rules were tuned on: `in_sample`), whose figures are in-sample.

What a method that calls a model spent is counted from its calls, page by page (answered, failed or stopped part
way): its requests (every attempt, retries included, as --max-requests counts them) and the tokens the provider
reported, kind by kind (prompt, completion, and thinking where reported). bench keeps no run: what it spent is said
in its output only, and a bench stopped by its budget starts again from the first page when run again.

--max-requests and --max-tokens are one budget for every Gemini method of a bench: the methods take turns on each
page, so a shared budget stops them on the same page; a budget per method would let a method that needs fewer
retries reach further, and score better for the pages it reached alone. The page the budget runs out on may still
be answered by the methods before the one it stops: every row of Table 2 is therefore scored on the pages every
method reached (answered, or failed on: a failure is the method's own, scored as an empty prediction), and a page
some method never reached is left out of every row and named, with the paid answers on it that are not scored.
Reserving the budget for every method before any asks on a page cannot work, as a page's requests (retries,
malformed answers) and tokens are known only once asked; scoring a page not reached as an empty prediction for
the method stopped alone would lower its figures, and only its, for the budget's order rather than its answers.

A method is written `NAME` or `NAME:FORMAT`: `mdr`, the offline default, `gemini:flat`, `replay:hier`
(recorded answers; `replay` alone means every format that has answers).
"""

from __future__ import annotations

import functools
import json
import statistics
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..command_hints import hint_path
from ..errors import DatasetError, RecordLensError
from ..extract import create
from ..extract.base import Extractor
from ..llm.gemini import Budget, BudgetExceededError, TokenCounter, answers_without_counts, requests_of_call
from ..page import formats as represent
from ..page.dataset import (
    dataset_hint,
    dataset_pages,
    natural_key,
    page_files,
    record_files,
    synthetic_sources,
    why_no_page_file,
)
from ..records.model import TextKeyIndex, load_records
from ..records.score import DatasetScore, PageScore, score_page
from ..wording import counted, listed, named_and_more
from .charts import grouped_bars
from .engines import Engine, LocalEngine, LostWithWorkers, UnitFailedError, told_of_lost_calls
from .evaluate import (
    PageNotRead,
    format_not_read,
    pages_not_read_message,
    read_page,
    truth_naming_nothing,
    without_pages,
)
from .in_sample import InSample, PageDigests, in_sample
from .page_loop import EndpointRow, failed_for_the_endpoint
from .run_files import add_tokens, call_settings, exit_status, model_calls
from .runner import method_of, method_parameters  # what made a run, as its run.json says it

LLM_FORMATS = ("flat", "hier", "slim", "outline")


@dataclass
class MethodSpec:
    method: str
    input_format: str | None = None

    @property
    def label(self) -> str:
        return f"{self.method}:{self.input_format}" if self.input_format else self.method


def parse_methods(text: str, answers: Path | None = None) -> list[MethodSpec]:
    specs: list[MethodSpec] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        method, _, fmt = item.partition(":")
        if method == "replay" and not fmt:
            if answers is None:
                raise DatasetError("method 'replay' needs --answers DIR")
            found = [f for f in LLM_FORMATS if any(answers.glob(f"*_{f}_content.json"))]
            specs.extend(MethodSpec("replay", f) for f in found)
        else:
            specs.append(MethodSpec(method, fmt or None))
    return specs


def read_input(spec: MethodSpec) -> str | None:
    """The input a method reads, before any extraction says it: replayed answers were made on the reference's
    input for their format (`replay:hier` on `hier-ref`)."""
    if spec.method == "replay" and spec.input_format:
        from ..extract.recorded import REFERENCE_INPUT

        return REFERENCE_INPUT.get(spec.input_format, spec.input_format)
    return spec.input_format


def make_extractor(spec: MethodSpec, answers: Path | None = None, selector_model: str | None = None,
                   **llm_options: object) -> Extractor:
    if spec.method == "selector" and selector_model is not None:
        return create("selector", model=selector_model)
    if spec.method == "replay":
        if answers is None:
            raise DatasetError("method 'replay' needs --answers DIR")
        return create("replay", answers=answers, input_format=spec.input_format or "flat")
    if spec.method == "gemini":
        return create("gemini", input_format=spec.input_format or "flat", **llm_options)
    return create(spec.method)


@dataclass
class Spent:
    """What a method's model calls cost: requests (every attempt, retries included, as --max-requests counts them)
    and tokens kind by kind (prompt, completion, total, and thinking where the provider reports it)."""

    requests: int = 0
    tokens: dict[str, int] = field(default_factory=dict)

    def add(self, other: Spent) -> None:
        self.requests += other.requests
        add_tokens(self.tokens, other.tokens)

    def as_dict(self) -> dict[str, object]:
        return {"requests": self.requests, "tokens": dict(self.tokens)}


@dataclass
class MethodResult:
    spec: MethodSpec
    scores: DatasetScore
    seconds: dict[str, float] = field(default_factory=dict)  # page -> seconds, on the pages it answered
    prompt_tokens: dict[str, int] = field(default_factory=dict)  # page -> its prompt's tokens, as reported
    token_format: str | None = None  # the input the prompts were made from (replayed answers: the reference's)
    failures: dict[str, str] = field(default_factory=dict)
    read_format: str | None = None  # what a method without an input option reads (its extractions say)
    not_reached: list[str] = field(default_factory=list)  # pages a stopped method was never run on
    stop: MethodStop = field(default_factory=lambda: MethodStop())  # why it stopped (budget, endpoint), if it did
    described: dict[str, object] = field(default_factory=dict)  # version, parameters, settings (as run.json)
    in_sample: InSample | None = None  # the scored pages it was trained or tuned on, if any
    calls_model: bool = False  # it pays for calls to a model (Gemini): what it spent is reported
    spent: Spent = field(default_factory=Spent)
    stop_said: str | None = None  # its stop in the words the output gives (the budget's sharing, if shared)

    def row(self) -> dict[str, object]:
        s = self.scores
        said = self.in_sample
        spent = self.spent if self.calls_model else None
        scored = bool(s.pages)  # no page at all (none reached by every method): no figure, rather than 0
        seconds = [self.seconds[p.page] for p in s.pages if p.page in self.seconds]
        return {
            "method": self.spec.method, "input": self.read_format or read_input(self.spec) or "-",
            **{figure: value if scored else None for figure, value in (
                ("precision", s.precision), ("recall", s.recall), ("f1", s.f1),
                ("hallucination_rate", s.hallucination_rate),
                ("hallucinated_record_share", s.hallucinated_record_share))},
            "pages": len(s.pages), "seconds_per_page": statistics.fmean(seconds) if seconds else None,
            "failed_pages": len(self.failures), "not_reached_pages": len(self.not_reached),
            "stopped": self.stop_said or self.stop.reason,
            "requests": spent.requests if spent else None, "tokens": dict(spent.tokens) if spent else None,
            **{key: value for key, value in self.described.items() if key != "method"},
            "page_names": [p.page for p in s.pages],
            "in_sample_pages": said.pages if said else [],
            "variants_of_training_pages": said.variants if said else [],
            "in_sample_warning": said.message() if said else None,
        }


@dataclass
class BenchResult:
    format_rows: list[dict[str, object]]
    method_rows: list[MethodResult]
    warnings: list[str]
    # page -> the methods that never reached it (a budget, a failing endpoint stopped them): left out of every row
    left_out: dict[str, list[str]] = field(default_factory=dict)
    measured: int = 0  # the pages the methods were run on, those left out included
    # the pages with ground truth that cannot be read (name -> why), which no method was run on: left out of every
    # row as well, as `score` leaves them out (`evaluate.LEFT_OUT_UNREAD`)
    not_read: dict[str, str] = field(default_factory=dict)
    # the model requests paid for on pages whose Ray worker died, by page (their answers, and which method asked,
    # lost with it): in what the bench spent, said apart as lost
    lost: LostWithWorkers = field(default_factory=LostWithWorkers)

    def as_dict(self) -> dict[str, object]:
        total = self.spent()
        return {"table1": self.format_rows, "table2": [m.row() for m in self.method_rows],
                "left_out_pages": self.left_out_of_every_row(), "pages_not_read": self.not_read,
                "spent": total.as_dict() if total else None,
                "lost_with_workers": self.lost.as_dict() if self.lost else None, "warnings": self.warnings}

    def left_out_of_every_row(self) -> dict[str, list[str]]:
        """Page -> the methods that never reached it, for every page left out of every row: those some method never
        reached, and those no method could be run on (`not_read`: every method), in the pages' order."""
        every = [m.spec.label for m in self.method_rows]
        pages = {**{name: every for name in self.not_read}, **self.left_out}
        return {name: pages[name] for name in sorted(pages, key=natural_key)}

    @property
    def asked(self) -> int:
        """The pages with ground truth the bench was to measure: those measured and those it could not read."""
        return self.measured + len(self.not_read)

    def spent(self) -> Spent | None:
        """What every method that calls a model spent together, with the requests lost with Ray workers that died
        (`lost`); None when none calls one."""
        paying = [m for m in self.method_rows if m.calls_model]
        if not paying:
            return None
        total = Spent(self.lost.total)
        for method in paying:
            total.add(method.spent)
        return total

    @property
    def exit_code(self) -> int:
        """As `extract`'s: 4 when a method's endpoint failed for good, 3 when a budget stopped one, 1 when a
        method failed on pages or a page could not be read (as `score` exits then), 0 when every method answered
        on every page."""
        stops = [m.stop for m in self.method_rows if m.stop.reason]
        return exit_status(stopped=bool(stops), endpoint_failed=any(stop.endpoint_failed for stop in stops),
                           failed=any(m.failures for m in self.method_rows) or bool(self.not_read))


@dataclass
class MethodStop:
    """Whether a method is stopped for the rest of a bench, as `extract` stops a run (`page_loop`'s rules): its
    budget is spent, or its model endpoint failed for good on ENDPOINT_FAILURES_IN_A_ROW pages in a row (each such
    page costs every retry: a dead endpoint would otherwise be asked again on every page)."""

    reason: str | None = None
    endpoint_failed: bool = False
    row: EndpointRow = field(default_factory=EndpointRow)

    def budget_spent(self, error: Exception) -> None:
        self.reason = self.reason or f"{error}"

    def failed(self, error: Exception) -> None:
        """Count a page the method failed on: in the row when its endpoint failed, else the row is broken."""
        if self.row.failed(error) and not self.reason:
            self.reason = self.row.stop()
            self.endpoint_failed = True

    def answered(self) -> None:
        self.row.answered()


def run_bench(pages_dir: str | Path, gt_dir: str | Path, specs: list[MethodSpec], *, answers: Path | None = None,
              count_tokens: TokenCounter | None = None, names: Iterable[str] | None = None,
              progress: Callable[[list[str]], Iterable[str]] = lambda names: names,
              llm_options: dict[str, object] | None = None, engine: Engine | None = None,
              selector_model: str | None = None) -> BenchResult:
    """Measure `specs` on the pages with ground truth, each page a unit of work for `engine` (default: here)."""
    truths = record_files(gt_dir)
    warnings: list[str] = []
    files = page_files(pages_dir, warnings)
    # before any extractor is made: a Gemini caller says which key it sends, which is no part of a refusal
    _refuse_no_page_files([n for n in (names if names is not None else truths) if n in truths], files, pages_dir,
                          gt_dir)
    extractors = [(spec, make_extractor(spec, answers, selector_model, **(llm_options or {}))) for spec in specs]
    without: list[str] = []  # pages with ground truth but no recorded answers
    if names is None and any(spec.method == "replay" for spec in specs):
        # Recorded answers exist for some pages only: measure every method on those same pages.
        replayed = [set(ex.pages()) for spec, ex in extractors if spec.method == "replay"]  # type: ignore[attr-defined]
        names = [n for n in truths if all(n in r for r in replayed)]
        without = [n for n in truths if not all(n in r for r in replayed)]
    wanted = [n for n in (names if names is not None else truths) if n in truths]
    if not wanted and without:  # there is ground truth: the recorded answers are for other pages
        raise DatasetError(f"the recorded answers in {hint_path(answers)} cover none of the pages with ground truth "
                           f"in {hint_path(gt_dir)} ({counted(len(without), 'page')}: {listed(without)}): nothing to "
                           "measure; check --answers (the answers of other pages?) and --pages, --gt")
    if not wanted:
        raise DatasetError(f"no page with ground truth in {hint_path(gt_dir)} to measure")
    results = {spec.label: MethodResult(spec, DatasetScore([]), described=_provenance(ex),
                                        calls_model=_calls_a_model(ex)) for spec, ex in extractors}
    chars: dict[str, dict[str, int]] = {f: {} for f in represent.FORMATS}  # format -> page -> size
    counted_tokens: dict[str, dict[str, int]] = {f: {} for f in represent.FORMATS}
    if without:  # every method is measured on the replayed pages only: said, as extract says it
        warnings.append(f"{len(without)} page(s) with ground truth have no recorded answers: every method is "
                        f"measured on the other {len(wanted)} only; left out ({listed(without)})")
    _refuse_no_page_files(wanted, files, pages_dir, gt_dir)  # the pages with recorded answers, when replayed
    no_page = why_no_page_file(pages_dir)  # the folder listed once for all the pages it lacks
    not_read = {name: no_page(name) for name in wanted if files.get(name) is None}  # as `score` leaves them out
    jobs = [name for name in wanted if name not in not_read]
    engine = engine or LocalEngine()
    answered: dict[str, list[PageDigests]] = {spec.label: [] for spec in specs}  # the pages it answered on
    if count_tokens is not None and engine.name != "local":
        raise RecordLensError("--count-tokens counts in this process: use it with --engine local")
    # Issue 16: each page (all methods on it) is a unit of work for the engine; folded here in the pages' order.
    with ExitStack() as stack:
        shipped = [(spec, stack.enter_context(engine.shipping(ex))) for spec, ex in extractors]
        # One MethodStop per method, shared by the pages run here (the local engine runs them in order, in
        # this process); on another engine each unit has its own copy: the shared budget stops them, and a
        # method whose endpoint failed on pages in a row (as they finished) is stopped by the pages handed out
        # after, which carry the stops the driver has made by then.
        stops = {spec.label: results[spec.label].stop for spec in specs}
        counter = (prompt_counter(count_tokens, (llm_options or {}).get("prompt_file")) if count_tokens is not None
                   else None)
        unit = functools.partial(bench_page, shipped, files, truths, counter, stops)
        watch = _EndpointWatch(stops)
        lost = LostWithWorkers()  # a page's requests lost with its worker, told before the page runs again
        told = told_of_lost_calls(engine, lambda job, reason, requests: lost.told(job.name, requests))
        outcomes = {job.name: outcome for job, outcome in engine.map(unit, _PageJobs(jobs, stops), key=_job_name,
                                                                     progress=progress, stop_when=watch, **told)}
    for name in jobs:
        outcome = outcomes[name]
        if isinstance(outcome, UnitFailedError):
            raise RecordLensError(f"bench stopped: page {name}: {outcome}{_lost_said_apart(lost, name)}; "
                                  "run it again")
        if outcome.not_read is not None:
            not_read[name] = outcome.not_read
    if not_read and len(not_read) == len(wanted):  # rows over no page would read as figures
        raise DatasetError(f"none of the {counted(len(wanted), 'page')} with ground truth in {hint_path(gt_dir)} "
                           "can be measured: " + listed([f"{name}: {why}" for name, why in not_read.items()],
                                                        total=True, sep="; "))
    not_read = {name: not_read[name] for name in wanted if name in not_read}  # in the pages' order
    jobs = [name for name in jobs if name not in not_read]
    for name in jobs:
        outcome = outcomes[name]
        for fmt, size in outcome.chars.items():
            chars[fmt][name] = size
        for fmt, tokens in outcome.counted.items():
            counted_tokens[fmt][name] = tokens
        # of the labels alone, whatever a method predicted (no empty prediction paired with them)
        naming_nothing = (truth_naming_nothing(replace(outcome.methods[0].score, hallucinated_records=0))
                          if outcome.methods else None)
        if naming_nothing:  # of the labels, so said once, not once per method
            warnings.append(naming_nothing)
        for measured in outcome.methods:
            result = results[measured.label]
            result.scores.pages.append(measured.score)
            result.spent.add(measured.spent)  # a failed page's calls, or a stopped one's, were paid for too
            result.calls_model = result.calls_model or measured.spent.requests > 0
            if measured.prompt_tokens is not None and measured.token_format:  # a refused page's prompt counts
                result.prompt_tokens[name] = measured.prompt_tokens
                result.token_format = result.token_format or measured.token_format
            if measured.stopped is not None:  # not run on this page: said once per method, below
                result.not_reached.append(name)
                result.stop.reason = result.stop.reason or measured.stopped
                continue
            if measured.failure is not None:
                result.failures[name] = measured.failure  # said below, once it is known whether the page is scored
                continue
            result.seconds[name] = measured.seconds
            answered[measured.label].append(PageDigests(name, outcome.digest, outcome.text_digest))
            result.read_format = result.read_format or measured.input_format
    # every row on the same pages: those some method never reached are left out of all of them (said below)
    left_out = not_reached_by_some(results.values(), jobs)
    for result in results.values():
        result.scores = without_pages(result.scores, left_out)
    warnings += [f"{label} on page {name}: {failure}; " + ("left out of every row (a method never reached it)"
                                                           if name in left_out else "scored as an empty prediction")
                 for name in jobs for label, result in results.items() if (failure := result.failures.get(name))]
    sources = synthetic_sources(pages_dir)
    for spec, extractor in extractors:  # a figure on pages the method learnt from is in-sample: said per method
        result = results[spec.label]
        scored = [page for page in answered[spec.label] if page.name not in left_out]
        result.in_sample = in_sample(spec.method, method_parameters(extractor), scored, sources)
        if result.in_sample is not None:
            warnings.append(result.in_sample.message())
    sharing = _sharing_a_budget(extractors)
    for result in results.values():
        if result.stop.reason:
            result.stop_said = _stop_words(result, sharing.get(result.spec.label), results)
            warnings.append(f"{result.spec.label} stopped: {result.stop_said}; its "
                            f"{counted(len(result.not_reached), 'page')} not reached ({listed(result.not_reached)}) "
                            f"{'is' if len(result.not_reached) == 1 else 'are'} left out of every row")
    if left_out:
        warnings.append(left_out_message(left_out, results.values(), len(jobs)))
    if any(r.stop.reason and not r.stop.endpoint_failed for r in results.values()):
        warnings.append(NO_RESUME)
    if lost:  # paid for, in what the bench spent, though no method's row can count them
        warnings.append(f"{lost.said(_page)}: in what the bench spent (\"lost\"), in no method's row")
    if not_read:
        warnings.append(pages_not_read_message(not_read, len(wanted)))
    format_rows = _format_rows(chars, counted_tokens, results.values())
    return BenchResult(format_rows, list(results.values()), warnings, left_out, len(jobs), lost=lost, not_read=not_read)


def _refuse_no_page_files(wanted: list[str], files: dict[str, Path], pages_dir: str | Path,
                          gt_dir: str | Path) -> None:
    """Refuse to measure when none of the `wanted` pages has a file in `pages_dir`: tables of 0 pages would pass
    for a measure (a dataset's folder given for its folder of pages, say)."""
    if wanted and not any(name in files for name in wanted):
        raise DatasetError(f"no page (N.html or N.mhtml) to measure in {hint_path(pages_dir)}{_pages_hint(pages_dir)}: "
                           f"none of the {counted(len(wanted), 'page')} with ground truth in {hint_path(gt_dir)} has a "
                           "file there")


def _pages_hint(pages_dir: str | Path) -> str:
    """The pointer to a dataset's folder of pages, given only when that folder holds pages: one that is empty
    would measure 0 pages too."""
    inside = dataset_pages(pages_dir)
    return dataset_hint(pages_dir) if inside is not None and page_files(inside) else ""


def _page(name: str) -> str:
    return f"page {name}"


def _lost_said_apart(lost: LostWithWorkers, page: str) -> str:
    """The requests lost with Ray workers, as a bench stopped on `page` says them: the page's own, then the other
    pages' (no warning or spent table says those once the bench has stopped)."""
    own, others = lost.only(page), lost.without(page)
    return (f" ({own.said(_page)})" if own else "") + (f"; and {others.said(_page)}" if others else "")


def not_reached_by_some(results: Iterable[MethodResult], pages: list[str]) -> dict[str, list[str]]:
    """Page -> the methods that never reached it (stopped before it or on it), for the pages some method did not
    reach, in the pages' order."""
    results = list(results)
    return {page: labels for page in pages
            if (labels := [r.spec.label for r in results if page in r.not_reached])}


def left_out_message(left_out: dict[str, list[str]], results: Iterable[MethodResult], measured: int) -> str:
    """The pages left out of every row because some method never reached them, said at once: grouped by the
    methods that did not reach them, with the paid model answers on them that are therefore not scored."""
    kept = measured - len(left_out)
    by_methods: dict[tuple[str, ...], list[str]] = {}
    for page, labels in left_out.items():
        by_methods.setdefault(tuple(labels), []).append(page)
    groups = "; ".join(f"{listed(pages, 8, total=True)} (not reached by {', '.join(labels)})"
                       for labels, pages in by_methods.items())
    many = counted(len(left_out), "page") + " a method never reached"
    said = (f"{many} {'is' if len(left_out) == 1 else 'are'} left out of every row, so that every method is "
            f"measured on the same {counted(kept, 'page')}: {groups}" if kept else
            f"no page was reached by every method: no row is scored ({many}: {groups})")
    for result in results:  # a model's answers the budget paid for on those pages, which no row counts
        paid = [page for page in left_out if result.calls_model and page not in result.not_reached]
        if paid:
            said += f"; {result.spec.label} was asked on {'page' if len(paid) == 1 else 'pages'} " \
                    f"{named_and_more(paid, 8)}: paid for, not scored"
    return said


@dataclass
class MethodOnPage:
    """One method on one page: its score, or why it failed (then scored as an empty prediction)."""

    label: str
    score: PageScore
    failure: str | None = None
    seconds: float = 0.0
    prompt_tokens: int | None = None
    token_format: str | None = None
    input_format: str | None = None  # what the method read of the page, as its extraction says (MDR: slim)
    stopped: str | None = None  # the method was stopped (budget, endpoint) before it answered on this page
    endpoint_failed: bool = False  # its failure was the model endpoint's, for good (it counts in a row)
    spent: Spent = field(default_factory=Spent)  # its calls on this page, answered or not

    def cost_from(self, raw: object, tokens: dict[str, int] | None, input_format: str | None) -> MethodOnPage:
        """What this page's calls cost (`raw`'s calls, as an extraction or a failure's details hold them) and the
        tokens of its prompt in `input_format`: one call's count (a retry after a malformed answer sends the same
        prompt again), or, without calls, a replayed answer's (`tokens`)."""
        calls = model_calls(raw)
        for call in calls:
            self.spent.requests += requests_of_call(call)
            add_tokens(self.spent.tokens, call.get("tokens") or {})
        prompts = [int(call["tokens"].get("prompt") or 0) for call in calls if isinstance(call.get("tokens"), dict)]
        if not calls and tokens:
            prompts = [int(tokens.get("prompt") or 0)]
        prompt = next((count for count in prompts if count), None)
        if prompt is not None and input_format:
            self.prompt_tokens, self.token_format = prompt, input_format
        return self


@dataclass
class PageBench:
    """Everything bench measures on one page: the size of each format, counted tokens, each method."""

    chars: dict[str, int]
    counted: dict[str, int]
    methods: list[MethodOnPage]
    digest: str = ""  # the page's identity in a model's provenance (`training.page_digest`)
    text_digest: str = ""  # its texts alone: a page a model was trained on under other labels (`in_sample`)
    not_read: str | None = None  # why the page or its labels cannot be read: no method was run on it


@dataclass(frozen=True)
class PageJob:
    """A page as a unit of work gets it: its name, and the methods stopped when it was handed out (label ->
    why), which it does not run."""

    name: str
    stopped: tuple[tuple[str, str], ...] = ()


class _PageJobs:
    """The pages to measure, each made into a `PageJob` as the engine hands it out (the local engine takes them
    all at once, before any stop: its units share the stops themselves)."""

    def __init__(self, names: list[str], stops: dict[str, MethodStop]) -> None:
        self._names, self._stops = names, stops

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[PageJob]:
        for name in self._names:
            yield PageJob(name, tuple((label, stop.reason) for label, stop in self._stops.items() if stop.reason))


def _job_name(job: PageJob) -> str:
    return job.name


class _EndpointWatch:
    """Each page's outcome as it finishes, in that order: a method whose model endpoint failed for good on
    ENDPOINT_FAILURES_IN_A_ROW pages in a row is stopped here (on another engine, the units' own stops never see
    a row longer than one page). It asks the engine to stop nothing: the pages go on for the other methods."""

    def __init__(self, stops: dict[str, MethodStop]) -> None:
        self._stops = stops
        self._rows = {label: EndpointRow() for label in stops}

    def __call__(self, outcome: object) -> bool:
        for measured in getattr(outcome, "methods", []):
            stop, row = self._stops[measured.label], self._rows[measured.label]
            if measured.stopped is None and row.count(measured.endpoint_failed, measured.failure or "") \
                    and not stop.reason:
                stop.reason, stop.endpoint_failed = row.stop(), True
        return False


# The tokens of the prompt a Gemini run in a format (first) sends with a page's representation (second).
PromptCounter = Callable[[str, str], int | None]


def prompt_counter(count_tokens: TokenCounter, prompt_file: object = None) -> PromptCounter:
    """Counts, for a format and a page's representation in it, the whole prompt a Gemini run of that format sends
    (system instruction and user message: the shipped prompt, or `prompt_file`'s), so that a count is of the same
    thing as a recorded usage (a prompt's), not of the page alone."""
    from ..extract.gemini import prompt_for  # on use: only a bench that counts tokens needs the prompts

    prompts = {fmt: prompt_for(fmt, prompt_file if isinstance(prompt_file, (str, Path)) else None)
               for fmt in represent.FORMATS}

    def count(input_format: str, text: str) -> int | None:
        system, user = prompts[input_format].fill(text)
        return count_tokens(user, system)

    return count


def bench_page(extractors: list[tuple[MethodSpec, Extractor]], files: dict[str, Path], truths: dict[str, Path],
               count_tokens: PromptCounter | None, stops: dict[str, MethodStop],
               job: PageJob) -> PageBench:
    """One unit of work: the job's page parsed once, its formats measured (sizes; with `count_tokens`, each
    format's whole prompt counted), every method not stopped run on it and scored."""
    name = job.name
    for label, reason in job.stopped:  # stopped by the driver after this unit's copy of the stops was made
        stops[label].reason = stops[label].reason or reason
    loaded = read_page(files[name], name)
    if isinstance(loaded, PageNotRead):  # an empty file, a PNG named .mhtml: left out (`LEFT_OUT_UNREAD`)
        return PageBench({}, {}, [], not_read=loaded.why)
    try:
        truth = load_records(truths[name]).records
    except RecordLensError as error:  # labels that cannot be read: left out alike
        return PageBench({}, {}, [], not_read=str(error))
    chars: dict[str, int] = {}
    counted: dict[str, int] = {}
    for fmt in represent.FORMATS:
        text = represent.represent(loaded.page, fmt)
        chars[fmt] = len(text)
        tokens = count_tokens(fmt, text) if count_tokens is not None else None
        if tokens is not None:
            counted[fmt] = tokens
    from ..extract.training import page_digest  # on use: it brings the learner's modules, as `digests_of` does

    keys = TextKeyIndex(loaded.page.text_map)
    digest, text_digest = page_digest(loaded.page, truth), page_digest(loaded.page, [])
    methods: list[MethodOnPage] = []
    for spec, extractor in extractors:
        stop = stops[spec.label]
        empty = functools.partial(score_page, [], truth, keys, name)
        if stop.reason:
            methods.append(MethodOnPage(spec.label, empty(), stopped=stop.reason))
            continue
        try:
            extraction = extractor.extract(loaded.page)
        except BudgetExceededError as error:  # no answer on this page, nor on the pages after it
            stop.budget_spent(error)
            methods.append(_paid_for(MethodOnPage(spec.label, empty(), stopped=stop.reason), spec, error))
            continue
        except RecordLensError as error:
            stop.failed(error)
            methods.append(_paid_for(MethodOnPage(spec.label, empty(), failure=str(error),
                                                  endpoint_failed=failed_for_the_endpoint(error)), spec, error))
            continue
        stop.answered()
        measured = MethodOnPage(spec.label, score_page(extraction.records, truth, keys, name),
                                seconds=extraction.seconds, input_format=extraction.input_format)
        methods.append(measured.cost_from(extraction.raw, extraction.tokens,
                                          extraction.input_format or spec.input_format))
    return PageBench(chars, counted, methods, digest, text_digest)


def _paid_for(measured: MethodOnPage, spec: MethodSpec, error: Exception) -> MethodOnPage:
    """A page a method failed or stopped on, with the calls it paid for there (a refused answer's tokens too), as
    the error's details hold them."""
    details = getattr(error, "details", None) or {}
    return measured.cost_from(details.get("raw"), details.get("tokens"),
                              details.get("input_format") or read_input(spec))


def _calls_a_model(extractor: Extractor) -> bool:
    """Whether an extractor pays for calls to a model (Gemini's has a caller), so that what it spent is said."""
    return getattr(extractor, "caller", None) is not None


def _budget_of(extractor: Extractor) -> Budget | None:
    budget = getattr(getattr(extractor, "caller", None), "budget", None)
    return budget if isinstance(budget, Budget) else None


def _sharing_a_budget(extractors: list[tuple[MethodSpec, Extractor]]) -> dict[str, tuple[list[str], Budget]]:
    """Method label -> the methods that share its capped budget (itself included) and that budget, for the methods
    that share one with another (--max-requests and --max-tokens are one budget for a bench's Gemini methods)."""
    groups: dict[int, tuple[list[str], Budget]] = {}
    for spec, extractor in extractors:
        budget = _budget_of(extractor)
        if budget is not None and (budget.max_requests is not None or budget.max_tokens is not None):
            groups.setdefault(id(budget), ([], budget))[0].append(spec.label)
    return {label: (labels, budget) for labels, budget in groups.values() if len(labels) > 1 for label in labels}


# bench writes no run folder: nothing of a stopped bench is kept to go on from.
NO_RESUME = ("bench keeps no run to resume from: a bench run again asks every page again (`recordlens extract` "
             "writes a run that resumes where it stopped)")


def _stop_words(result: MethodResult, shared: tuple[list[str], Budget] | None,
                results: dict[str, MethodResult]) -> str:
    """Why a method stopped, and, when the budget it used up is shared with other methods, with whom and what
    each spent of it (every method's row would otherwise say "7 of 7")."""
    reason = str(result.stop.reason)
    if shared is None or result.stop.endpoint_failed or not shared[1].used_up():
        return reason
    tokens = shared[1].max_tokens is not None

    def spent(label: str) -> str:
        paid = results[label].spent
        return f"{label} ({counted(paid.requests, 'request')}" + (
            f", {counted(paid.tokens.get('total', 0), 'token')})" if tokens else ")")

    return f"{reason}, one budget shared by {', '.join(spent(label) for label in shared[0])}"


def _provenance(extractor: Extractor) -> dict[str, object]:
    """What made a method's figures, as a run's `_run/run.json` says it: method, version, parameters, settings."""
    # through JSON as run.json is written, so that the report holds only what JSON can
    return json.loads(json.dumps({**method_of(extractor), "settings": call_settings(extractor) or {}},
                                 default=str))


def _format_rows(chars: dict[str, dict[str, int]], counted: dict[str, dict[str, int]],
                 results: Iterable[MethodResult]) -> list[dict[str, object]]:
    """Table 1's rows: each format's mean size over every page, and its mean prompt tokens over the pages with a
    count (with, when those are fewer, how many and their own mean size: the columns over the same pages)."""
    recorded: dict[str, dict[str, int]] = {}  # format -> page -> prompt tokens, the first method's that has them
    for result in results:
        if result.token_format:
            for page, tokens in result.prompt_tokens.items():
                recorded.setdefault(result.token_format, {}).setdefault(page, tokens)
    rows = []
    for fmt in represent.FORMATS:
        sizes = chars[fmt]
        if recorded.get(fmt):
            tokens, source = recorded[fmt], "recorded usage"
        elif counted.get(fmt):
            tokens, source = counted[fmt], "countTokens"
        else:
            tokens, source = {}, "n/a"
        on_token_pages = [sizes[page] for page in tokens if page in sizes]
        rows.append({"format": fmt, "pages": len(sizes),
                     "mean_characters": statistics.fmean(sizes.values()) if sizes else 0.0,
                     "mean_prompt_tokens": statistics.fmean(tokens.values()) if tokens else None,
                     "token_source": source, "token_pages": len(tokens),
                     "mean_characters_of_token_pages": statistics.fmean(on_token_pages) if on_token_pages else None})
    return rows


def format_tables(result: BenchResult) -> str:
    pages = max((int(row["pages"]) for row in result.format_rows), default=0)  # type: ignore[call-overload]
    lines = [f"Table 1: input formats ({counted(pages, 'page')})",
             f"{'format':<10} {'mean chars':>12} {'mean tokens':>12}  source"]
    for row in result.format_rows:
        tokens = row["mean_prompt_tokens"]
        shown = f"{tokens:12,.0f}" if isinstance(tokens, float) else f"{'n/a':>12}"
        lines.append(f"{row['format']:<10} {row['mean_characters']:12,.0f} {shown}  {row['token_source']}"
                     f"{_token_pages(row)}")
    lines += ["(mean chars: over every page; mean tokens: over the pages whose prompt's tokens are known)",
              "(tokens: of the whole prompt, as sent: system instruction, the words around the page, and the page)"]
    lines += ["", f"Table 2: methods{_over_which_pages(result)}",
              f"{'method':<10} {'input':<8} {'P':>7} {'R':>7} {'F1':>7} {'HR':>7} {'halluc%':>8} {'s/page':>8} pages"]
    for method in result.method_rows:
        row = method.row()
        lines.append(
            f"{row['method']:<10} {row['input']:<8} {_figure(row['precision'], 7, '.4f')} "
            f"{_figure(row['recall'], 7, '.4f')} {_figure(row['f1'], 7, '.4f')} "
            f"{_figure(row['hallucination_rate'], 7, '.4f')} {_share(row['hallucinated_record_share'])} "
            f"{_figure(row['seconds_per_page'], 8, '.3f')} {row['pages']}{_unanswered(method)}")
    lines += ["(P, R, F1: means of per-page figures; HR: the share of pages with a hallucinated record; all four",
              " to 4 decimals; halluc%: hallucinated records over predicted records, pooled over the pages)"]
    lines += [f"({m.spec.label} stopped: {m.stop_said or m.stop.reason})" for m in result.method_rows
              if m.stop.reason]
    if any(m.stop.reason and not m.stop.endpoint_failed for m in result.method_rows):
        lines.append(f"({NO_RESUME})")
    if any(m.failures for m in result.method_rows):
        lines.append("(pages a method failed on are scored as empty predictions)")
    return "\n".join(lines + format_not_read(result.not_read) + _spent_lines(result))


def _over_which_pages(result: BenchResult) -> str:
    """" (on 2 of 4 pages: 2 that a method never reached are left out of every row: 3, 4)" where some were, and
    the pages that cannot be read likewise; ""."""
    if not result.left_out and not result.not_read:
        return ""
    kept = result.measured - len(result.left_out)
    why = [f"{len(pages)} {that} {'is' if len(pages) == 1 else 'are'} left out of every row: "
           f"{listed(pages, 8, total=True)}" for pages, that in ((list(result.not_read), "that cannot be read"),
                                                                (list(result.left_out), "that a method never reached"))
           if pages]
    return f" (on {kept} of {counted(result.asked, 'page')}: {'; '.join(why)})"


def _figure(value: object, width: int, form: str) -> str:
    """A row's figure in its column, "n/a" for none (a row scored on no page; its s/page when no page of it was
    answered: every one failed)."""
    return f"{value:{width}{form}}" if isinstance(value, float) else f"{'n/a':>{width}}"


def _share(value: object) -> str:
    return f"{100 * value:7.1f}%" if isinstance(value, float) else f"{'n/a':>8}"


def _token_pages(row: dict[str, object]) -> str:
    """", 3 of 4 pages (mean chars on them: 15,100)" where a format's tokens are known on fewer than every page."""
    known, pages, size = row["token_pages"], row["pages"], row["mean_characters_of_token_pages"]
    if not known or known == pages or not isinstance(size, float):
        return ""
    return f", {known} of {counted(int(pages), 'page')} (mean chars on them: {size:,.0f})"  # type: ignore[call-overload]


TOKEN_KINDS = ("prompt", "completion", "thinking", "total")
LOST = "lost"  # the row of the requests lost with Ray workers that died (`BenchResult.lost`)


def _spent_lines(result: BenchResult) -> list[str]:
    """What each method that calls a model spent, and all of them together: bench keeps no run that would say it."""
    paying = [m for m in result.method_rows if m.calls_model]
    total = result.spent()
    if total is None:
        return []
    # thinking only where the provider reported some (a model that does not think reports none, or 0); any other
    # kind it reports is in the JSON
    kinds = [kind for kind in TOKEN_KINDS if kind != "thinking" or total.tokens.get(kind)]
    width = max(12, *(len(m.spec.label) for m in paying))
    # the requests lost with Ray workers that died: a row of their own (which method asked them is lost too)
    rows = [(m.spec.label, m.spent) for m in paying] + ([(LOST, Spent(result.lost.total))] if result.lost else [])
    rows += [("all", total)] if len(rows) > 1 else []
    lines = ["", "Spent on model calls (requests: every attempt, retries included; tokens as the provider "
                 "reported them)",
             f"{'method':<{width}} {'requests':>9} " + " ".join(f"{kind:>11}" for kind in kinds)]
    uncounted = answers_without_counts(total.tokens)
    if uncounted:  # answers without token counts: counted apart, never as 0 tokens
        lines[-1] += f" {'uncounted':>10}"
    for label, spent in rows:
        cells = [f"{'n/a':>11}"] * len(kinds) if label == LOST else [_token_cell(spent, kind) for kind in kinds]
        lines.append(f"{label:<{width}} {spent.requests:9,} " + " ".join(cells)
                     + (f" {answers_without_counts(spent.tokens):10,}" if uncounted else ""))
    if uncounted:
        lines += ["(uncounted: answers that came without token counts, no usageMetadata: their tokens are unknown",
                  " and not in the token columns; n/a: none of the row's answers came with counts)"]
    if result.lost:
        lines += [f"({LOST}: {result.lost.said(_page)}; their answers' tokens are unknown, in no token column)"]
    return lines


def _token_cell(spent: Spent, kind: str) -> str:
    """A kind of token a method spent, in its column; "n/a" when none of its answers came with token counts (its
    tokens are unknown, not 0)."""
    if answers_without_counts(spent.tokens) and not spent.tokens.get("total"):
        return f"{'n/a':>11}"
    return f"{spent.tokens.get(kind, 0):11,}"


def _unanswered(method: MethodResult) -> str:
    """The mark of a row whose method did not answer on every page: how many it failed on, never reached."""
    parts = [part for part in (f"{len(method.failures)} failed" if method.failures else "",
                               f"{len(method.not_reached)} not reached" if method.not_reached else "") if part]
    return f" ({', '.join(parts)})" if parts else ""


def write_chart(result: BenchResult, path: str | Path) -> Path:
    """Grouped bars of P, R, F1 and the hallucination rate per method."""
    rows = [m.row() for m in result.method_rows]
    names = {"replay": "recorded LLM"}
    labels = [f"{names.get(str(r['method']), r['method'])}\n{r['input']}" if r["input"] != "-" else str(r["method"])
              for r in rows]
    series = [(name, [_or_none(r[metric]) for r in rows]) for name, metric in (
        ("P", "precision"), ("R", "recall"), ("F1", "f1"), ("hallucination rate", "hallucination_rate"))]
    kept = result.measured - len(result.left_out)  # the rows' pages, where some were left out of every row
    over = (f"mean over the same {kept} of {result.asked} pages" if result.left_out or result.not_read
            else "mean over pages")
    return grouped_bars(path, labels, series, ylabel=over)


def _or_none(value: object) -> float | None:
    """A row's figure for the chart: None, a row scored on no page, is drawn as missing, not as 0."""
    return float(value) if isinstance(value, (int, float)) else None  # type: ignore[arg-type]
