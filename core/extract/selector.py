"""The learned offline extractor ("selector"): repeats' candidate regions, weighed by a trained scorer.

Contract. For a page, every candidate region (`candidates.page_candidates`) gets a probability of being a
region of true records from a `SelectorModel`. Regions are then taken best-first (ties in document order)
while their probability is at least the model's threshold and they share no element with a region already
taken: where candidates nest (cards and the fields inside them, a section and the lists inside it) the level
the model rates higher wins, and nothing is thrown away by a fixed rule before it is weighed. A kept table
whose rows line up with a one-column table beside it is joined with it, as in `repeats`. Every output XPath is
an element of the page that holds text, so no record is hallucinated.

The default model ships in `resources/models/selector.json` (trained by `recordlens train` on the 80 development
pages, provenance inside); `model=` takes another file, such as one trained on a project's own labels.
"""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..command_hints import hint_path
from ..page.dom import Page
from .base import Extraction
from .candidates import Claims, PageCandidates, page_candidates
from .model_shape import ModelShape, few_pages_warning
from .repeats import Region, join_split_tables
from .selector_model import ModelError, SelectorModel, checked_threshold

METHOD = "selector"
VERSION = "1.0"
DEFAULT_MODEL = Path(__file__).resolve().parents[2] / "resources" / "models" / "selector.json.gz"


@lru_cache(maxsize=4)
def _read_model(path: str, mtime_ns: int) -> SelectorModel | ModelError:
    """One version of a model file, read once: the model, or why it is refused (Propose asks each time)."""
    try:
        return SelectorModel.load(path)
    except ModelError as error:
        return error


def load_model(path: str | Path | None = None) -> SelectorModel:
    """The model at `path` (default: the shipped one), read once per file version; a version that was refused
    is refused again with the same message, without reading it again."""
    path = Path(path) if path is not None else DEFAULT_MODEL
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return SelectorModel.load(path)  # the clear error, not remembered: a missing file may appear
    model = _read_model(str(path), mtime)
    if isinstance(model, ModelError):  # raised anew, of its own kind (another version's model, or a damaged file)
        raise type(model)(str(model))
    return model


def caution_before_a_run(extractor: object) -> str | None:
    """What `extract` says once, before its pages, when it proposes with a selector model of one stage (trained on
    too few pages): in the words `train` says as it writes such a model and the app's Propose each time it uses
    one, with the way to a better one; None for any other extractor or model (the shipped one)."""
    if not isinstance(extractor, SelectorExtractor) or not (caution := extractor.caution):
        return None
    return (f"the model {model_said(extractor.model_name)} is of {caution}; train it on more labelled pages "
            "(`recordlens train`), or check its proposals against labels (`recordlens score`) before relying on them")


def model_said(model_name: object) -> str:
    """A selector model as a run names it (`SelectorExtractor.model_name`), said in a message: a file by its whole
    path, as a hint names one; "default" (the shipped model) and "(in memory)" as they are."""
    return hint_path(model_name) if Path(str(model_name)).is_absolute() else str(model_name)


def select(pc: PageCandidates, probabilities: np.ndarray, threshold: float) -> list[Region]:
    """Best-first, non-overlapping regions with probability >= threshold, in document order."""
    regions = [c.region for c in pc.candidates]
    order = sorted(range(len(regions)), key=lambda i: (-float(probabilities[i]), regions[i].records[0][0].order, i))
    claims = Claims()
    chosen: list[Region] = []
    for i in order:
        if probabilities[i] < threshold:
            break
        if not claims.overlaps(regions[i]):
            claims.take(regions[i])
            chosen.append(regions[i])
    chosen = join_split_tables(chosen, regions, pc.facts)
    return sorted(chosen, key=lambda r: r.records[0][0].order)


class SelectorExtractor:
    """Offline, deterministic; the default extraction method."""

    name = METHOD
    version = VERSION

    def __init__(self, model: str | Path | SelectorModel | None = None, threshold: float | None = None) -> None:
        self.model = model if isinstance(model, SelectorModel) else load_model(model)
        # The shipped model is named "default" (not its install path), so runs compare across checkouts.
        # A file by its whole path: `score` finds it again from any folder to say which pages it was trained on.
        self.model_name = ("(in memory)" if isinstance(model, SelectorModel) else
                           "default" if model is None else str(Path(model).resolve()))
        self.threshold = checked_threshold(self.model.threshold if threshold is None else threshold, "threshold")

    @property
    def parameters(self) -> dict[str, object]:
        """What decides this extractor's records: a run resumed with other parameters is refused, not mixed."""
        return {"threshold": self.threshold, "model": self.model_name, "model_digest": self.model.digest,
                "trained": self.model.provenance.get("trained_on", "")}

    @property
    def caution(self) -> str:
        """What makes this model's proposals doubtful, for the one who proposes with it or has just learnt it (a
        model of one stage, from few pages), as `train` says it too; "" for a model of both stages, such as the
        shipped one."""
        return few_pages_warning(ModelShape.of(self.model)) or ""

    def extract(self, page: Page) -> Extraction:
        start = time.perf_counter()
        pc = page_candidates(page)
        probabilities = self.model.predict(pc)
        regions = select(pc, probabilities, self.threshold)
        records = [xpaths for region in regions for xpaths in region.xpaths()]
        seconds = time.perf_counter() - start
        warnings = [] if records else ["no candidate region was likely enough to hold records on this page"]
        kept = {id(r) for r in regions}
        raw = [{"parent": c.region.parent.xpath, "records": c.region.count, "probability": round(float(p), 4),
                "kept": id(c.region) in kept}
               for c, p in zip(pc.candidates, probabilities, strict=True) if p >= min(0.2, self.threshold)]
        return Extraction(records=records, method=METHOD, version=VERSION, parameters=self.parameters,
                          seconds=seconds, warnings=warnings, raw=raw)
