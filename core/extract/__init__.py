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

from ..errors import RecordLensError
from ..llm.gemini import COMMAND_LINE, SettingPlaces
from .base import Extraction, Extractor, Proposed, proposal_of, refuse_unknown_parameters
from .training_progress import TrainingProgress, examples_kept_apart, given_back, trimmed

__all__ = [
    "COMMAND_LINE", "DEFAULT_METHOD", "Extraction", "Extractor", "Proposed", "SettingPlaces", "UnknownExtractorError",
    "available", "create", "model_stages", "proposal_of", "register", "TrainingProgress", "examples_kept_apart",
    "given_back", "trimmed", "shipped_model",
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


def shipped_model() -> Path:
    """The selector model RecordLens ships: what `extract` and Propose use with no `--model` (or learnt model)."""
    from .selector import DEFAULT_MODEL

    return DEFAULT_MODEL


def model_stages(path: str | Path) -> int:
    """How many stages every member of the selector model at `path` has: 1 when training had too few pages, or
    too few with records, for the second stage (training.py), else 2."""
    from .selector import load_model

    return load_model(path).stages
