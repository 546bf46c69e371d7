"""A run's pages on an engine other than this process: each unit of work is the runner's own loop on one page.

The driver keeps the run-level steps (the method check, unfinished writes removed, `run.json`) and folds
each page's small `RunSummary` into the run's, in the pages' order whatever order they finished in, so the
summary reads as the local one does. Pages already written are skipped here, without a task.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .. import atomic
from ..command_hints import hint_path
from ..extract.base import Extractor
from ..llm.gemini import GIVEN_UP, UNCOUNTED, Budget, budget_used_up, lost_with_a_worker_said, requests_of_call
from .engines import (
    ClusterLostError,
    CutShort,
    Engine,
    UnitFailedError,
    told_of_cut_units,
    told_of_lost_calls,
    worker_name,
)
from .page_loop import ENDPOINT_FAILURES_IN_A_ROW, EndpointRow
from .run_files import (
    DONE,
    META_DIR,
    RESUME_FROM,
    ResumedRun,
    RunSummary,
    add_tokens,
    earlier_records,
    extract_pages,
    extracted_before,
    make_way_for_a_record,
    model_calls,
    page_record,
    record_failure,
    record_tokens,
    stop_for_the_endpoint,
    stop_said,
    write_unfinished_record,
)


def extract_on_engine(engine: Engine, extractor: Extractor, files: dict[str, Path], wanted: list[str], out: Path,
                      summary: RunSummary, *, resume: bool,
                      progress: Callable[[list[str]], Iterable[str]] = lambda names: names,
                      held: ResumedRun | None = None) -> None:
    """Extract `wanted` on `engine` into `out`, adding to `summary`; stops cleanly when the budget is used up.
    `held`: for a resume, the run resumed as read already (its pages' records read once), else read here."""
    if resume and held is None:
        held = ResumedRun.of(out, extractor)
    done = {name for name in wanted if held is not None and extracted_before(out, name, summary, held)}
    todo = [name for name in wanted if name not in done]
    summary.skipped.extend(name for name in wanted if name in done)
    parts: dict[str, RunSummary] = {}
    by_content = getattr(engine, "ships_content", False)
    written_before = _page_files_now(out, todo)
    # An engine whose units may die alone (Ray's) tells of their lost calls, and counts from the pages' records when
    # its shared budget is lost with them; one that says nothing of it is asked as before
    tells = getattr(engine, "tells_lost_calls", False)
    kept_lost = functools.partial(_keep_calls_lost_with_a_worker, out, resume, summary)
    told = told_of_lost_calls(engine, lambda item, reason, lost: kept_lost(_name_of(item), reason, lost))
    cut: list[str] = []  # the pages a stop (Ctrl+C, SIGTERM) cut short part way, their paid calls in their records
    told |= told_of_cut_units(engine, functools.partial(_kept_at_a_stop, out, by_content, parts, cut))
    recorded = (functools.partial(_calls_recorded, out, parts),) if tells else ()
    try:
        with engine.shipping(extractor, *recorded) as shipped:
            if by_content:  # no shared storage: the page goes as bytes, its files come back as bytes
                unit = functools.partial(extract_one_shipped_page, shipped)
                items: Sequence[object] = _ShippedPages(todo, files)
            else:
                unit = functools.partial(extract_one_page, shipped, files, out, resume)
                items = todo
            watch = _EndpointWatch()
            try:
                for item, result in engine.map(unit, items, key=_name_of, progress=progress, stop_when=watch,
                                               **told):
                    name = _name_of(item)
                    if isinstance(result, UnitFailedError):  # its worker died: failed as a page that raised is
                        part = RunSummary(out)
                        record_failure(out, name, str(result), {}, part)
                    else:
                        part = _part_of(out, by_content, name, result)
                    parts[name] = part
            except ClusterLostError as lost:  # the pages its workers wrote, whether or not their results came back
                raise lost.with_finished(_pages_written_since(out, written_before)) from None
        # The budget is shared: no page starts after the first stop; the pages in flight finish (their requests are
        # paid for) or meet the same limit. The run's stop is said once they all have, as a local run says it.
        _note_the_stop(summary, todo, parts, _budget_of(extractor))
        if watch.row.failures >= ENDPOINT_FAILURES_IN_A_ROW and not summary.stopped:
            summary.endpoint_failures = watch.row.failures
            stop_for_the_endpoint(summary, watch.row.stop())
    finally:  # an interrupted run's summary holds the pages done before it too, as a local run's does
        _add_parts(summary, todo, parts)
        # and names the page it stopped on part way, as a local run's does: the first in order of those cut short
        summary.stopped_on = summary.stopped_on or next((name for name in todo if name in cut), None)


def _part_of(out: Path, by_content: bool, name: str, result: object) -> RunSummary:
    """Page `name`'s small summary from its unit's result: its files written here first when they came back as
    bytes (`by_content`)."""
    return _write_shipped(out, name, *result) if by_content else result  # type: ignore[misc, return-value]


def _kept_at_a_stop(out: Path, by_content: bool, parts: dict[str, RunSummary], cut: list[str], item: object,
                    kept: object) -> None:
    """A page that was under way as the run stopped (Ctrl+C, SIGTERM), as the engine hands it on (`Interrupted`):
    finished meanwhile, kept as a page that finished is; cut short after calls on it were paid for, which its worker
    kept in its record, noted in `cut` (a shipped page's record stayed in its worker's folder: not noted)."""
    name = _name_of(item)
    if not isinstance(kept, CutShort):
        parts[name] = _part_of(out, by_content, name, kept)
    elif isinstance(kept.carried, dict) and not by_content:
        cut.append(name)


def _add_parts(summary: RunSummary, todo: list[str], parts: dict[str, RunSummary]) -> None:
    """Each page's small summary added to the run's, in the local order, so that warnings and lists compare with a
    local run's."""
    for name in todo:
        part = parts.get(name)
        if part is None:
            continue
        summary.extracted.extend(part.extracted)
        summary.skipped.extend(part.skipped)
        summary.failed.update(part.failed)
        summary.warnings.extend(part.warnings)
        add_tokens(summary.tokens, part.tokens)


def _page_files_now(out: Path, names: list[str]) -> dict[str, tuple[int, int] | None]:
    """Each page's N.json as it is now (its inode and modification time), None where there is none: a page written
    from now on (atomically: a new file) differs."""
    now: dict[str, tuple[int, int] | None] = {}
    for name in names:
        try:
            stat = (out / f"{name}.json").stat()
        except OSError:
            now[name] = None
            continue
        now[name] = (stat.st_ino, stat.st_mtime_ns)
    return now


def _pages_written_since(out: Path, before: dict[str, tuple[int, int] | None]) -> int:
    """How many of the pages of `before` have had their N.json written since."""
    after = _page_files_now(out, list(before))
    return sum(1 for name, was in before.items() if after[name] is not None and after[name] != was)


def _calls_recorded(out: Path, parts: dict[str, RunSummary]) -> tuple[int, int, int, int]:
    """The model requests, tokens, answers without token counts and of them those given up at --timeout-s, that
    the records (`_run/N.json`) of the pages this run did (extracted, failed, stopped on) hold of their own calls;
    what earlier runs paid (their `earlier`) is not this run's."""
    requests = tokens = uncounted = given_up = 0
    for name, part in parts.items():
        if name not in part.extracted and name not in part.failed and part.stopped_on != name:
            continue
        record = page_record(out, name)
        calls = model_calls(record.get("raw"))
        requests += sum(map(requests_of_call, calls))
        given_up += sum(int(call.get(GIVEN_UP) or 0) for call in calls)  # type: ignore[call-overload]
        kept = record_tokens(record)
        tokens += int(kept.get("total") or 0)
        uncounted += int(kept.get(UNCOUNTED) or 0)
    return requests, tokens, uncounted, given_up


def _keep_calls_lost_with_a_worker(out: Path, resume: bool, summary: RunSummary, name: str, reason: str,
                                   requests: int | None) -> None:
    """The model requests a Ray worker that died on page `name` had made, paid for and lost with it, kept in the
    page's record as a page stopped part way keeps its calls (not finished; the next record of the page keeps it
    under "earlier"), before the page runs again: among its answers without token counts (their tokens are in no
    record: unknown, not 0), and so in the run's `summary` (its closing line says them). A page whose worker wrote
    it whole before it died is not touched (it is skipped when run again, as written)."""
    if not requests:
        return
    if resume and (out / f"{name}.json").exists() and page_record(out, name).get("status") == DONE:
        return
    call = {"attempts": requests, "statuses": [0] * requests, "errors": [reason] * requests}
    lost = {UNCOUNTED: requests}
    write_unfinished_record(out, name, reason, earlier_records(out, name),
                            {"tokens": lost, "warnings": [lost_with_a_worker_said(requests)], "raw": {"calls": [call]}})
    add_tokens(summary.tokens, lost)


def _note_the_stop(summary: RunSummary, todo: list[str], parts: dict[str, RunSummary], budget: object) -> None:
    """The run's stop, said as a local run says it, whichever of its pages finished first: the page to resume from
    is the first of the run's order not done (its pages in flight finish in any order), the count is what the
    whole run spent (pages in flight went on paying after the first of them met the cap), and the page stopped
    on part way is the first in order of those (each keeps its paid calls in its `_run/N.json`). A first stop of
    another kind (a quota the server asks to wait out) keeps its own words, though pages in flight may have spent
    the budget since: raising the budget would not cure it."""
    stops = [name for name in todo if name in parts and parts[name].stopped]
    if not stops:
        return
    first = stops[0]
    resume_from = next(name for name in todo if not _done(parts.get(name), name))
    reason = str(parts[first].stopped).removesuffix(f"{RESUME_FROM}{first}")
    spent = budget.used_up() if isinstance(budget, Budget) and _a_budget_stop(reason) else None
    summary.stopped = stop_said(spent or reason, resume_from, restarted=summary.restarted)
    summary.stopped_on = next((name for name in todo if name in parts and parts[name].stopped_on), None)


# The openings of a spent budget's words, as `budget_used_up` says them (its request cap, its token cap, a token cap
# that cannot be held), taken from it so that they follow its wording.
_BUDGET_STOPS = tuple(str(said).split(" (", 1)[0] for said in (
    budget_used_up(0, 0, None, 0), budget_used_up(None, 0, 0, 0), budget_used_up(None, 0, 1, 0, uncounted=1)))


def _a_budget_stop(reason: str) -> bool:
    """Whether a page stopped because the run's budget was spent, rather than on a quota or a cancel."""
    return reason.startswith(_BUDGET_STOPS)


def _done(part: RunSummary | None, name: str) -> bool:
    """Whether page `name` was extracted or failed (a failed page is done with, as the local loop passes it)."""
    return part is not None and (name in part.extracted or name in part.failed)


def _budget_of(extractor: Extractor) -> object:
    """The model budget of a model-calling extractor, holding what every worker counted once the run is back."""
    return getattr(getattr(extractor, "caller", None), "budget", None)


def extract_one_page(extractor: Extractor, files: dict[str, Path], out: Path, resume: bool,
                     name: str) -> RunSummary:
    """One unit of work, wherever it runs: the runner's loop on page `name`; failures name the worker."""
    part = RunSummary(out)
    extract_pages(extractor, {name: files[name]}, [name], out, part, resume=resume)
    if part.failed:
        where = worker_name()
        part.failed = {page: f"{reason} (on worker {where})" for page, reason in part.failed.items()}
    return part


@dataclass(frozen=True)
class ShippedPage:
    """A page sent by content: its name, its file's name (the suffix says HTML or MHTML), its bytes, and its path as
    the command was given it (what is said of the page names it so, as the local engine names it)."""

    name: str
    filename: str
    data: bytes
    given: str


class _ShippedPages:
    """The pages to send, read from disk one at a time as the engine submits them (never the whole run)."""

    def __init__(self, names: list[str], files: dict[str, Path]) -> None:
        self._names, self._files = names, files

    def __len__(self) -> int:
        return len(self._names)

    def __iter__(self) -> Iterator[ShippedPage]:
        for name in self._names:
            path = self._files[name]
            yield ShippedPage(name, path.name, path.read_bytes(), str(path))


class _EndpointWatch:
    """Whether to start no more pages, asked of each page's result as it finishes: its budget ran out, or the
    model endpoint has failed for good on ENDPOINT_FAILURES_IN_A_ROW pages in a row (in the order they
    finished), as the local loop stops."""

    def __init__(self) -> None:
        self.row = EndpointRow()

    def __call__(self, result: object) -> bool:
        part = result[0] if isinstance(result, tuple) else result
        if not isinstance(part, RunSummary):
            return False
        ask_no_more = self.row.count(bool(part.endpoint_failures), next(iter(part.failed.values()), ""))
        return part.stopped is not None or ask_no_more


def _name_of(item: object) -> str:
    return item.name if isinstance(item, ShippedPage) else str(item)


def extract_one_shipped_page(extractor: Extractor, page: ShippedPage) -> tuple[RunSummary, dict[str, bytes]]:
    """One unit of work on a worker without the run's folder: the runner's loop on the page, in a folder of
    the worker's own; the files it wrote come back as bytes (relative path -> content)."""
    with tempfile.TemporaryDirectory(prefix="recordlens-page-") as folder:
        root = Path(folder)
        page_file = root / "pages" / page.filename
        page_file.parent.mkdir()
        page_file.write_bytes(page.data)
        out = root / "out"
        part = extract_one_page(extractor, {page.name: page_file}, out, False, page.name)
        written = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*.json"))
                   if p.is_file() and p.name != "run.json" and not p.name.startswith(".")}
    return part, _named_as_given(page, page_file, part, written)


def _named_as_given(page: ShippedPage, copy: Path, part: RunSummary, written: dict[str, bytes]) -> dict[str, bytes]:
    """What a unit said of the page's `copy` in its folder (a page that cannot be read names its file), in `part` and
    in the page's record among the files `written`, said of the page as the command was given it: the worker's
    folder is gone, and the local engine names the page so."""
    said_of_copy, as_given = hint_path(copy), hint_path(page.given)
    part.failed = {name: reason.replace(said_of_copy, as_given) for name, reason in part.failed.items()}
    record = f"{META_DIR}/{page.name}.json"
    kept = json.loads(written[record]) if record in written else {}
    reason = kept.get("reason")
    if not isinstance(reason, str) or said_of_copy not in reason:
        return written
    kept["reason"] = reason.replace(said_of_copy, as_given)
    return {**written, record: json.dumps(kept, indent=1, default=str).encode("utf-8")}


def _write_shipped(out: Path, name: str, part: RunSummary, written: dict[str, bytes]) -> RunSummary:
    """The worker's files into the run, atomically, the records file last (its presence means done). The worker
    ran in a folder of its own, so what an earlier stopped run paid for on the page is kept here."""
    record = f"{META_DIR}/{name}.json"
    # a new record of the page (its answer, its failure, its paid calls): what the folder held of it makes way first,
    # as in a local run (a --restart's old answer is not this run's)
    earlier = make_way_for_a_record(out, name) if record in written else {}
    if earlier:
        kept = json.loads(written[record])
        kept["earlier"] = [*earlier["earlier"], *kept.get("earlier", [])]
        written = {**written, record: json.dumps(kept, indent=1, default=str).encode("utf-8")}
    for relative in sorted(written, key=lambda r: r == f"{name}.json"):
        atomic.write_bytes(out / relative, written[relative])
    part.out_dir = out
    return part
