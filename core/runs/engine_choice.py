"""Choosing the engine a batch runs on: `make_engine` reads the options (`--engine`, `--ray-address`,
`--workers`, ...) and connects to Ray (importing it) only when it is asked for."""

from __future__ import annotations

import sys

from .engines import ENGINES, Engine, EngineError, EngineOptions, LocalEngine

RAY_EXTRA = "pip install -e '.[ray]'"  # Ray, the optional extra, as a checkout installs it


def check_options(options: EngineOptions) -> None:
    """Refuse `options` that name no engine this command can run on, before anything is said of starting one (a
    command says "starting a local Ray instance…" once they pass)."""
    if options.name == "local":
        if options.address or options.workers or options.requests_per_minute or options.ship_content:
            raise EngineError("--ray-address, --workers, --requests-per-minute and --ship-content are for "
                              "--engine ray")
        return
    if options.name != "ray":
        raise EngineError(f"unknown engine {options.name!r}; choose one of {', '.join(ENGINES)}")
    if options.address is not None and not options.address.strip():  # an unset variable, say: no cluster is named
        raise EngineError("--ray-address is empty: give the cluster head's host:port, or auto on a machine of the "
                          "cluster; leave --ray-address out to start a local Ray instance")


def make_engine(options: EngineOptions | None) -> Engine:
    """The engine `options` name; Ray's is connected (or started) here, and must be `close()`d."""
    options = options or EngineOptions()
    check_options(options)
    if options.name == "local":
        return LocalEngine()
    try:
        import ray  # noqa: F401 - only to say how to install it when it is missing
    except ImportError:
        # RecordLens is installed from its checkout (it is on no package index): the extra is installed from there
        if getattr(sys, "frozen", False):  # the desktop package: no pip to install into it
            raise EngineError("--engine ray is not part of the desktop package: install RecordLens with pip "
                              f"from its checkout ({RAY_EXTRA}) to run on Ray") from None
        raise EngineError(f"--engine ray needs Ray: {RAY_EXTRA} in the RecordLens checkout (as make test-ray "
                          "does), or pip install 'ray>=2.9'") from None
    from .ray_engine import RayEngine  # Ray itself only now

    return RayEngine.connect(address=options.address, workers=options.workers,
                             requests_per_minute=options.requests_per_minute, ships_content=options.ship_content)
