"""A run's pages on an engine other than this process: each unit of work is the runner's own loop on one page.

The driver keeps the run-level steps (the method check, unfinished writes removed, `run.json`) and folds
each page's small `RunSummary` into the run's, in the pages' order whatever order they finished in, so the
summary reads as the local one does. Pages already written are skipped here, without a task.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from pathlib import Path

from ..extract.base import Extractor
from .engines import Engine, UnitFailedError, worker_name
from .runner import RunSummary, extract_pages


def extract_on_engine(engine: Engine, extractor: Extractor, files: dict[str, Path], wanted: list[str], out: Path,
                      summary: RunSummary, *, resume: bool,
                      progress: Callable[[list[str]], Iterable[str]] = lambda names: names) -> None:
    """Extract `wanted` on `engine` into `out`, adding to `summary`; stops cleanly when the budget is used up."""
    todo = [name for name in wanted if not (resume and (out / f"{name}.json").exists())]
    summary.skipped.extend(name for name in wanted if name not in todo)
    parts: dict[str, RunSummary] = {}
    with engine.shipping(extractor) as shipped:
        unit = functools.partial(extract_one_page, shipped, files, out, resume)
        for name, result in engine.map(unit, todo, progress=progress):
            if isinstance(result, UnitFailedError):
                part = RunSummary(out)
                part.failed[name] = str(result)
            else:
                part = result
            parts[name] = part
            if part.stopped:
                summary.stopped = part.stopped
                break  # the budget is shared: every other worker meets the same limit; the rest is cancelled
    for name in todo:  # the local order, so that warnings and lists compare with a local run's
        part = parts.get(name)
        if part is None:
            continue
        summary.extracted.extend(part.extracted)
        summary.skipped.extend(part.skipped)
        summary.failed.update(part.failed)
        summary.warnings.extend(part.warnings)
        for key, value in part.tokens.items():
            summary.tokens[key] = summary.tokens.get(key, 0) + value


def extract_one_page(extractor: Extractor, files: dict[str, Path], out: Path, resume: bool,
                     name: str) -> RunSummary:
    """One unit of work, wherever it runs: the runner's loop on page `name`; failures name the worker."""
    part = RunSummary(out)
    extract_pages(extractor, {name: files[name]}, [name], out, part, resume=resume)
    if part.failed:
        where = worker_name()
        part.failed = {page: f"{reason} (on worker {where})" for page, reason in part.failed.items()}
    return part
