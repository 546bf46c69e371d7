"""Running an extractor over a folder of pages into a *run* (`OUT/N.json`), resumably.

Each page's records are written atomically as soon as they exist, so a run that stops (Ctrl+C, a crash, an
exhausted budget) resumes where it stopped: pages with an `N.json` are not extracted again. What each page
cost (seconds, tokens, warnings, attempts) goes to `OUT/_run/N.json` with `"status": "done"`, and the run's
description (method, parameters with the prompt's hash, call settings) to `OUT/_run/run.json`; both stay out of
the `OUT/*.json` namespace that scoring reads.

A page that gets no valid answer, or whose reading or extraction raises anything at all, is a *failed* page: it
has no `N.json` (so the next run tries it again, and `score` lists it), and `OUT/_run/N.json` keeps
`"status": "failed"`, the reason and every attempt. One bad page never stops a run.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from .. import atomic
from ..errors import RecordLensError
from ..extract.base import Extraction, ExtractionFailedError, Extractor
from ..llm.gemini import BudgetExceededError
from ..page.dataset import load_page, page_files
from ..records.model import save_records
from .engines import Engine

META_DIR = "_run"
DONE, FAILED = "done", "failed"
_REASON_LIMIT = 2000  # characters of an unexpected error's message kept (a page can make a huge one)


@dataclass
class RunSummary:
    out_dir: Path
    extracted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    stopped: str | None = None  # why the run stopped early (budget), if it did
    seconds: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def seed_dir(out_dir: Path, seed: int | None, seeds: int) -> Path:
    return out_dir / f"seed-{seed}" if seeds > 1 else out_dir


def run_extractor(extractor: Extractor, pages_dir: str | Path, out_dir: str | Path, *,
                  names: Iterable[str] | None = None, resume: bool = True,
                  progress: Callable[[list[str]], Iterable[str]] = lambda names: names,
                  engine: Engine | None = None) -> RunSummary:
    """Extract every page of `pages_dir` (or only `names`) into `out_dir`, here or on `engine` (issue 16:
    another engine runs `extract_pages` page by page, so its files are these, byte for byte)."""
    out = Path(out_dir)
    summary = RunSummary(out)
    files = page_files(pages_dir, summary.warnings)
    wanted = [n for n in (names if names is not None else files) if n in files]
    if not wanted:
        summary.warnings.append(f"no page (N.html or N.mhtml) to extract in {pages_dir}")
    if resume:
        _refuse_another_method(out, extractor)
    _remove_unfinished_writes(out)
    _write_run_description(out, extractor)
    start = time.monotonic()
    # --- engine dispatch (issue 16) ---
    if engine is not None and engine.name != "local":
        from .engine_runs import extract_on_engine

        extract_on_engine(engine, extractor, files, wanted, out, summary, resume=resume, progress=progress)
    else:
        extract_pages(extractor, files, wanted, out, summary, resume=resume, progress=progress)
    # --- end engine dispatch ---
    summary.seconds = time.monotonic() - start
    return summary


def extract_pages(extractor: Extractor, files: dict[str, Path], wanted: list[str], out: Path,
                  summary: RunSummary, *, resume: bool,
                  progress: Callable[[list[str]], Iterable[str]] = lambda names: names) -> None:
    """The loop over pages, here and in order: each page's files written atomically as soon as it is done,
    what happened added to `summary`. An engine runs this same loop on one page per unit of work."""
    for name in progress(wanted):
        target = out / f"{name}.json"
        if resume and target.exists():
            summary.skipped.append(name)
            continue
        try:
            extraction = extractor.extract(load_page(files[name], name).page)
        except BudgetExceededError as error:
            summary.stopped = f"{error}; run again to resume from page {name}"
            break
        except ExtractionFailedError as error:
            _record_failure(out, name, error.reason, error.details, summary)
            continue
        except RecordLensError as error:
            _record_failure(out, name, str(error), {}, summary)
            continue
        except Exception as error:  # noqa: BLE001 - one page's bug or bad bytes must not end the run
            reason = f"{type(error).__name__}: {error}"[:_REASON_LIMIT]
            _record_failure(out, name, reason, {}, summary)
            continue
        save_records(target, extraction.records)
        _write_page_cost(out, name, extraction)
        summary.extracted.append(name)
        summary.warnings.extend(f"page {name}: {w}" for w in extraction.warnings)
        for key, value in (extraction.tokens or {}).items():
            summary.tokens[key] = summary.tokens.get(key, 0) + value


def _method_of(extractor: Extractor) -> dict[str, object]:
    # Through JSON, so that a tuple and the list it is read back as compare equal.
    return json.loads(json.dumps({"method": extractor.name, "version": extractor.version,
                                  "parameters": getattr(extractor, "parameters", {})}, default=str))


def _refuse_another_method(out: Path, extractor: Extractor) -> None:
    """Resuming must not mix two methods' records in one run (and then describe them all as the second's)."""
    try:
        before = json.loads((out / META_DIR / "run.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return
    now = _method_of(extractor)
    before = _with_shipped_prompt(before, now)
    if any(before.get(key) != now[key] for key in now) and any(out.glob("*.json")):
        raise RecordLensError(
            f"{out} holds a run of {before.get('method')} {before.get('version')} {before.get('parameters')}; "
            f"resuming it with {now['method']} {now['version']} {now['parameters']} would mix two methods: "
            "choose another --out, or --restart to extract every page again")


def _with_shipped_prompt(before: dict[str, object], now: dict[str, object]) -> dict[str, object]:
    """A run described before prompts were recorded was made with the shipped prompt (there was no other): read
    it so, so that such a run resumes with the shipped prompt and refuses a prompt file."""
    parameters = before.get("parameters")
    current = now.get("parameters")
    if not isinstance(parameters, dict) or not isinstance(current, dict) or "prompt_sha256" not in current:
        return before
    if "prompt" in parameters or current.get("prompt") != "shipped":
        return before
    return {**before, "parameters": {**parameters, "prompt": "shipped", "prompt_sha256": current["prompt_sha256"]}}


def _remove_unfinished_writes(out: Path) -> None:
    """Temporary files of a write that a killed run never finished (its N.json is the old one or absent)."""
    for stale in (*out.glob(".*.json.*"), *out.glob(f"{META_DIR}/.*.json.*")):
        stale.unlink(missing_ok=True)


def _write_run_description(out: Path, extractor: Extractor) -> None:
    description = {**_method_of(extractor), "settings": getattr(extractor, "settings", {}),
                   "written": datetime.now(UTC).isoformat(timespec="seconds")}
    atomic.write_text(out / META_DIR / "run.json", json.dumps(description, indent=2, default=str))


def _write_page_cost(out: Path, name: str, extraction: Extraction) -> None:
    cost = {"status": DONE, **asdict(extraction)}
    cost.pop("records")
    atomic.write_text(out / META_DIR / f"{name}.json", json.dumps(cost, indent=1, default=str))


def _record_failure(out: Path, name: str, reason: str, details: dict[str, object], summary: RunSummary) -> None:
    """A failed page: its reason and attempts in `_run/N.json`, and no `N.json` (an earlier one would be taken
    for this run's answer)."""
    (out / f"{name}.json").unlink(missing_ok=True)
    record = {"status": FAILED, **details, "reason": reason,
              "failed": datetime.now(UTC).isoformat(timespec="seconds")}
    atomic.write_text(out / META_DIR / f"{name}.json", json.dumps(record, indent=1, default=str))
    summary.failed[name] = reason


def failed_pages(run_dir: str | Path) -> dict[str, str]:
    """Page name -> reason, for the pages of a run that failed and have no prediction since."""
    run = Path(run_dir)
    return {name: str(cost.get("reason") or "failed") for name, cost in read_page_costs(run).items()
            if cost.get("status") == FAILED and not (run / f"{name}.json").exists()}


def read_page_costs(run_dir: str | Path) -> dict[str, dict[str, object]]:
    """Page name -> the cost record written for it (seconds, tokens, warnings, raw)."""
    meta = Path(run_dir) / META_DIR
    costs: dict[str, dict[str, object]] = {}
    for path in sorted(meta.glob("*.json")) if meta.is_dir() else []:
        if path.stem != "run" and not path.name.startswith("."):
            try:
                costs[path.stem] = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, json.JSONDecodeError):
                continue  # a damaged cost file says nothing about the page
    return costs
