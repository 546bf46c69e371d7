"""`--engine local|ray`, `--ray-address`, `--workers`: where a command's units of work run (issue 16).

`engine_for(args)` is a context manager: the engine is started (or joined) on entry and closed on exit,
Ctrl+C and errors included, so no Ray instance outlives the command that started it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.util import find_spec

from ..errors import RecordLensError
from ..runs.engine_choice import check_options, make_engine
from ..runs.engines import ENGINES, Engine, EngineOptions
from ..wording import below_one


def add_engine_arguments(p: argparse.ArgumentParser, unit: str = "page", *, calls_models: bool = True,
                         ships_pages: bool = False, budget: tuple[str, ...] = ("--max-requests", "--max-tokens")
                         ) -> None:
    """The engine options; a command that calls no model has no request limit, and only extract can send pages
    by content (so a command's help offers only what it does); `budget`: the command's own budget options, which
    the request limit's help names."""
    group = p.add_argument_group("engine (where the work runs)")
    group.add_argument("--engine", choices=ENGINES, default="local",
                       help=f"local: this process, in order (default); ray: one Ray task per {unit}, "
                            "results written exactly as locally (needs Ray: pip install -e '.[ray]' in "
                            "the checkout)")
    group.add_argument("--ray-address", help="an existing Ray cluster: host:port, or auto on one of its machines "
                                             "(default: RAY_ADDRESS if set, else start a local instance)")
    group.add_argument("--workers", type=int, help="CPUs of the local Ray instance (default: all); not with a "
                                                   "cluster, which has its own")
    if calls_models:
        group.add_argument("--requests-per-minute", type=int,
                           help=f"ray: Gemini requests per minute, one limit for all workers (with "
                                f"{' and '.join(budget)})")
    if ships_pages:
        group.add_argument("--ship-content", action="store_true",
                           help="ray, a cluster without shared storage: send each page's bytes with its task and "
                                "write its results here; default: workers read and write by path")


def engine_options(args: argparse.Namespace) -> EngineOptions:
    workers = getattr(args, "workers", None)
    rpm = getattr(args, "requests_per_minute", None)
    wrong = below_one({"--workers": workers, "--requests-per-minute": rpm})  # only what is wrong named
    if wrong:
        raise RecordLensError(wrong)
    engine = getattr(args, "engine", "local") or "local"
    ray_only = [option for option, given in (("--ray-address", getattr(args, "ray_address", None) is not None),
                                             ("--workers", workers is not None),
                                             ("--requests-per-minute", rpm is not None),
                                             ("--ship-content", bool(getattr(args, "ship_content", False))))
                if given]
    if engine == "local" and ray_only:  # they would be ignored without a word
        raise RecordLensError(f"{', '.join(ray_only)} {'is' if len(ray_only) == 1 else 'are'} for --engine ray")
    address = _ray_address(args) if engine == "ray" else None
    if address and workers is not None:  # ignored too: a cluster brings its own CPUs
        raise RecordLensError(f"--workers is for a local Ray instance; the cluster at {address} has its own "
                              "CPUs: leave --workers out, or leave out --ray-address (and RAY_ADDRESS) to start a "
                              "local instance")
    return EngineOptions(engine, address, workers, rpm, bool(getattr(args, "ship_content", False)))


def _ray_address(args: argparse.Namespace) -> str | None:
    """`--ray-address`, else `RAY_ADDRESS` as Ray's own tools read it, else None (a local instance)."""
    given = getattr(args, "ray_address", None)
    return given if given is not None else (os.environ.get("RAY_ADDRESS", "").strip() or None)


@contextmanager
def engine_for(args: argparse.Namespace) -> Iterator[Engine]:
    options = engine_options(args)
    check_options(options)  # refused options are the one line said
    if options.name == "ray" and not getattr(args, "quiet", False) and find_spec("ray") is not None:
        # Ray takes seconds to start or join: say so, on stderr (stdout may hold a --json document)
        where = f"connecting to Ray at {options.address}" if options.address else "starting a local Ray instance"
        print(f"{where}…", file=sys.stderr, flush=True)
    engine = make_engine(options)
    try:
        yield engine
    finally:
        engine.close()
