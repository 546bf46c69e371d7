"""A heavy module loaded the first time it is needed, a Ctrl+C or SIGTERM met while it loads kept as that stop.

An extension module made with pybind11 (SciPy's `scipy.optimize._highspy._core`, which `scipy.optimize` loads)
turns any exception raised while it initialises into `ImportError("initialization failed")`, with the
KeyboardInterrupt (or `Terminated`) only as its cause. Taken for an ImportError, the stop is not one: a batch's
per-item `except Exception` records it as that item's failure and goes on (every later item then failing on the
half-registered module, "type ... is already registered"), and a command without such a handler ends in a
traceback. Raised again as the interruption it was, it stops the command as a Ctrl+C anywhere else does.

Loading the module earlier would only move the moment: a Ctrl+C can land while it loads wherever that is.

A module loaded by name is one that a bundler following imports cannot see: the desktop package lists each one
among its hidden imports (packaging/recordlens.spec; a test fails when one is missing there). One left out is not
always an ImportError: the package's folder holds the library's data files, so the import finds the module's folder
and makes an empty namespace package of it, and the first attribute asked of it failed with an AttributeError
(`module 'sklearn.ensemble' has no attribute ...`), shown as a traceback. `load` says either case in one line
(`MissingModuleError`, a RecordLensError): the installation lacks the module.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from .errors import RecordLensError


class MissingModuleError(RecordLensError, ModuleNotFoundError):
    """A module RecordLens loads by name is not part of this installation (a ModuleNotFoundError too, for callers
    that catch one)."""


def load(name: str) -> ModuleType:
    """The module `name` (a regular module, never a namespace package), imported now if it is not yet (cheap once
    it is); an ImportError that a Ctrl+C or a SIGTERM caused while it loaded is raised as that interruption
    (`interruption_behind`), any other, or an empty folder found in the module's place, as a `MissingModuleError`."""
    try:
        module = import_module(name)
    except ImportError as error:
        stop_if_interrupted(error)
        raise MissingModuleError(_missing(name, str(error)), name=name) from error
    if _is_empty_folder(module):
        raise MissingModuleError(_missing(name, "only its folder was found, not its code"), name=name)
    return module


def _is_empty_folder(module: ModuleType) -> bool:
    """Whether `module` is a namespace package: what the import makes of a folder with no __init__.py, such as a
    library's folder of data files in a bundle that lacks the library's code."""
    spec = module.__spec__
    return spec is not None and spec.origin in (None, "namespace") and spec.submodule_search_locations is not None


def _missing(name: str, why: str) -> str:
    return (f"{name}, which RecordLens needs here, is missing from this installation ({why}); install RecordLens "
            "again (pip install recordlens), or, in the desktop package, report it: the package was built without it")


def stop_if_interrupted(error: BaseException) -> None:
    """Raise the Ctrl+C or SIGTERM behind `error` (`interruption_behind`) as what it is; nothing when none is: for
    a handler that would otherwise take the stop for a failure of the item in hand."""
    stop = interruption_behind(error)
    if stop is not None:
        # A new one of its kind (Ctrl+C's, or `Terminated`), from the error: the one found is that error's cause,
        # and raising it again would make the two each other's cause
        raise type(stop)() from error


def interruption_behind(error: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl+C or SIGTERM (`Terminated`) that `error` was raised from, followed through its causes and contexts;
    None when no interruption is behind it."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return link
        seen.add(id(link))
        link = link.__cause__ if link.__cause__ is not None else link.__context__
    return None
