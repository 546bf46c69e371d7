"""Extractor registry: names map to factories, and a factory's module is imported only when it is used.

Registering takes a dotted "module:attribute" string or a callable, so that listing the extractors (for a
menu or `--help`) never imports heavy dependencies such as google-genai.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import RecordLensError
from .base import Extraction, Extractor, refuse_unknown_parameters

if TYPE_CHECKING:
    from ..store.project import Project
    from .training import ModelFreshness

__all__ = [
    "DEFAULT_METHOD", "Extraction", "Extractor", "UnknownExtractorError", "available", "create", "project_model",
    "forget_project_model", "model_freshness", "model_stages", "project_model_path", "register",
    "train_on_project", "unusable_said",
]

DEFAULT_METHOD = "selector"  # what `extract` and the app's Propose use: offline, deterministic, a small shipped model

Factory = Callable[..., Extractor]


class UnknownExtractorError(RecordLensError, KeyError):
    """A method name no extractor is registered under (a clear one-line error, as every RecordLensError)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown extractor"


@dataclass
class _Entry:
    factory: Factory | str
    description: str


_REGISTRY: dict[str, _Entry] = {}


def register(name: str, factory: Factory | str, description: str) -> None:
    """Register (or replace) an extractor. `factory` is a callable or a lazy "package.module:attribute"."""
    _REGISTRY[name] = _Entry(factory, description)


def available() -> list[tuple[str, str]]:
    return [(name, entry.description) for name, entry in _REGISTRY.items()]


def _resolve(factory: Factory | str) -> Factory:
    if callable(factory):
        return factory
    module_name, _, attribute = factory.partition(":")
    return getattr(importlib.import_module(module_name, package=__name__), attribute)


def create(name: str, **params: object) -> Extractor:
    try:
        entry = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "none"
        raise UnknownExtractorError(f"unknown extractor {name!r}; available: {known}") from None
    factory = _resolve(entry.factory)
    _refuse_unknown_parameters(name, factory, params)
    return factory(**params)


def _refuse_unknown_parameters(name: str, factory: Factory, params: dict[str, object]) -> None:
    """A parameter the method does not have, said with the ones it has (rather than Python's TypeError). A factory
    that takes any keyword (`**overrides`) checks its own."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    signature = inspect.signature(factory).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature):
        return
    refuse_unknown_parameters(name, params, [p.name for p in signature if p.kind in kinds])


register("selector", ".selector:SelectorExtractor",
         "offline default: repeats' candidate regions chosen by a trained scorer (--model, `recordlens train`)")
register("repeats", ".repeats:RepeatsExtractor",
         "offline, hand rules: repeated sibling structures scored by text mass, fields and page chrome")
register("mdr", ".mdr:MdrExtractor",
         "MDR (Liu, Grossman, Zhai 2003) as NEXT-EVAL's reference runs it: tag-string similarity on slim HTML")
register("gemini", ".gemini:GeminiExtractor",
         "Gemini (google-genai) on one input format: flat, hier, hier-ref, slim or outline; needs a key")
register("replay", ".recorded:ReplayExtractor",
         "recorded model answers (sampleK_F_content.json with index.json beside the folder) replayed as a run")


def project_model_path(project_dir: str | Path) -> Path:
    """Where a project keeps the selector trained on its own labelled pages (see training.py)."""
    from .training import project_model_path as path_in

    return path_in(project_dir)


def model_stages(path: str | Path) -> int:
    """How many stages every member of the selector model at `path` has: 1 when training had too few pages, or
    too few with records, for the second stage (training.py), else 2."""
    from .selector import load_model

    return load_model(path).stages


def forget_project_model(project_dir: str | Path) -> Path | None:
    """Set the project's own model aside, so that Propose uses the shipped one again (see training.py)."""
    from .training import forget_project_model as forget

    return forget(project_dir)


def project_model(project_dir: str | Path) -> tuple[Path | None, str]:
    """The project's own selector model if it has one that this version can use; otherwise None and why not
    ("" when the project has learnt none; otherwise the reason, without the path). A model learnt by an older
    version, on other candidate features, is refused rather than misread: it must be learnt again."""
    from .selector import load_model
    from .selector_model import ModelError

    path = project_model_path(project_dir)
    if not path.is_file():
        return None, ""
    try:
        load_model(path)
    except ModelError as error:
        return None, str(error).removeprefix(f"{path}: ")  # the path is the project's own, known to the caller
    return path, ""


def unusable_said(why: str) -> str:
    """Said after "the project's earlier model" where a new one replaced it and it was set aside, when it could not
    be used (`project_model`'s reason: damaged, cut short, of older features): the file kept is no model to go
    back to as it is. "" for a usable one."""
    return f", which was unusable ({why})," if why else ""


def model_freshness(project: Project) -> ModelFreshness | None:
    """Whether the project's learnt model is still the one its labelled pages would give: pages labelled since,
    pages whose labels changed, pages no longer labelled, and `sentence()` saying it; None when the project has no
    model of its own that this version can use (training.model_freshness; cheap before every Propose)."""
    from .training import model_freshness as freshness

    return freshness(project)


def train_on_project(project_dir: str | Path, **options: object) -> Path:
    """Train the selector on the project's labelled pages (training.train_on_project; imported on use, as it
    needs scikit-learn)."""
    from .training import train_on_project as train

    return train(project_dir, **options)  # type: ignore[arg-type]
