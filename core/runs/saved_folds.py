"""Out-of-fold probabilities kept in a file, so that a change to how regions are *chosen* is measured in a minute.

Choosing regions (`selector.select`) changes nothing a fold's model learns: the cut is the model's constant and no
fit reads the choice. So the probabilities every held-out page got in a cross-validation (all its splits) can be
saved once (`bench/offline_extractor.py --save-probabilities FILE`, an hour and more on the 80 pages) and scored
again with today's `select` (`--from-probabilities FILE`, a minute). They are read back only for the very
candidates they were made of: each page's features are digested, and the folds' settings (K, seed, splits, the
learner's settings) must be the same, else the file is refused with what differs. A change to candidates,
features or the learner needs the folds fitted again. The versions of the libraries the fits ran on are kept too:
another scikit-learn or numpy may fit other numbers from the same inputs, but need not, so a file of other versions
is read with a warning line (`versions_warning`) rather than refused."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..atomic import write_text
from ..command_hints import hint_path
from ..errors import DatasetError, system_words
from ..extract.training import Example, FitConfig, FoldResult

__all__ = ["features_digest", "library_versions", "read_fold_results", "save_fold_results", "versions_warning"]

FORMAT = 1
LIBRARIES = ("scikit-learn", "numpy")  # the fits' numbers may move with either, their settings and inputs the same


def features_digest(e: Example) -> str:
    """A digest of the page's candidate features: another candidate, or another feature of one, changes it."""
    features = np.ascontiguousarray(e.features, dtype=np.float64)
    return hashlib.sha256(repr(features.shape).encode() + features.tobytes()).hexdigest()


def save_fold_results(path: str | Path, splits: Sequence[Sequence[FoldResult]], k: int, seed: int,
                      config: FitConfig) -> Path:
    """Every split's held-out probabilities and thresholds, with what they were made of (written whole or not)."""
    document = {"format": FORMAT, "k": k, "seed": seed, "config": _settings(config), "versions": library_versions(),
                "splits": [[_page(r) for r in split] for split in splits]}
    return write_text(path, json.dumps(document) + "\n")


def read_fold_results(path: str | Path, examples: Sequence[Example], k: int, seed: int, config: FitConfig,
                      splits: int) -> list[list[FoldResult]]:
    """The first `splits` splits' results saved in `path`, for these examples in their order; DatasetError when the
    file is not of these folds or of these candidates."""
    document = _document(Path(path))
    wanted = {"k": k, "seed": seed, "config": _settings(config)}
    differ = [key for key, value in wanted.items() if document.get(key) != value]
    if differ:
        said = ", ".join(f"{key} {document.get(key)!r}, not {wanted[key]!r}" for key in differ)
        raise DatasetError(f"{hint_path(path)}: saved for other folds ({said}); fit the folds again without "
                           "--from-probabilities")
    saved = document.get("splits") or []
    if len(saved) < splits:
        raise DatasetError(f"{hint_path(path)}: {len(saved)} split(s) saved, {splits} asked for")
    return [_split_of(path, pages, examples) for pages in saved[:splits]]


def library_versions() -> dict[str, str]:
    """The installed version of each library the saved probabilities depend on."""
    return {name: importlib.metadata.version(name) for name in LIBRARIES}


def versions_warning(path: str | Path) -> str | None:
    """A warning line when the file was saved with other library versions than today's (or did not record them),
    None when they are the same: its probabilities are read all the same, but may not be what a fit gives today."""
    saved = _document(Path(path)).get("versions")
    today = library_versions()
    if saved == today:
        return None
    then = "unrecorded versions" if not isinstance(saved, dict) else _versions_said(saved)
    return (f"warning: {hint_path(path)} was saved with {then}, not today's {_versions_said(today)}: fits today may "
            "give other probabilities; fit the folds again without --from-probabilities to be sure")


def _versions_said(versions: dict) -> str:
    return ", ".join(f"{name} {versions.get(name, '(not recorded)')}" for name in LIBRARIES)


def _settings(config: FitConfig) -> dict[str, object]:
    return json.loads(json.dumps(asdict(config)))  # tuples as lists, as they read back


def _page(r: FoldResult) -> dict[str, object]:
    e = r.example
    return {"source": e.source, "page": e.name, "digest": e.digest, "features": features_digest(e),
            "fold": r.fold, "threshold": float(r.threshold),
            "probabilities": [float(p) for p in r.probabilities]}  # repr round-trips a float exactly


def _document(path: Path) -> dict:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{hint_path(path)}: cannot read the saved probabilities ({system_words(exc)})") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise DatasetError(f"{hint_path(path)}: not a file of saved out-of-fold probabilities (format {FORMAT})")
    return document


def _split_of(path: str | Path, pages: list[dict], examples: Sequence[Example]) -> list[FoldResult]:
    by_page = {(p.get("source"), p.get("page")): p for p in pages}
    # The folds are drawn over the whole set of pages: one page more or less, and every page's fold may differ.
    gone = sorted(set(by_page) - {(e.source, e.name) for e in examples}, key=str)
    if gone:
        source, name = gone[0]
        raise DatasetError(f"{hint_path(path)}: saved over {len(by_page)} pages, {len(examples)} given now "
                           f"({_page_said(source, name)} {'and more ' if len(gone) > 1 else ''}not among them): the "
                           "folds would be others; fit the folds again without --from-probabilities")
    results = []
    for e in examples:
        saved = by_page.get((e.source, e.name))
        if saved is None:
            raise DatasetError(f"{hint_path(path)}: no saved probabilities for {_page_said(e.source, e.name)}")
        if saved.get("digest") != e.digest or saved.get("features") != features_digest(e):
            raise DatasetError(f"{hint_path(path)}: {_page_said(e.source, e.name)} has other labels or candidates "
                               "than when saved; fit the folds again without --from-probabilities")
        results.append(FoldResult(e, np.asarray(saved["probabilities"], dtype=np.float64), float(saved["threshold"]),
                                  int(saved["fold"])))
    return results


def _page_said(source: object, name: object) -> str:
    """A page saved as `dataset/page`: its dataset (the folder it is named after) as a hint names a path."""
    return f"{hint_path(source)}/{name}"
