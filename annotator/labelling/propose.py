"""Extractors proposing records, as a background job (annotator/qt/jobs.py): page by page, each page's call in a
daemon thread of its own (a Gemini call may wait minutes), dropped when the job is cancelled.

The propose job does not write proposals itself: it hands each page's records to the interface thread, which
adds them through the undo stack like any other edit. That keeps every label change on one connection and undoable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import Signal

from ...core import extract
from ...core.errors import RecordLensError
from ...core.store import Project, Provenance
from ..qt.jobs import BackgroundJob, Cancelled, run_until_cancelled
from ..qt.signals import emit


@dataclass(frozen=True)
class Proposal:
    """One page's proposed records and who proposed them."""

    page: str
    records: list[list[str]]
    provenance: Provenance
    seconds: float
    warnings: list[str] = field(default_factory=list)


class ProposeWorker(BackgroundJob):
    """Runs one extractor on some pages; `proposed(Proposal)` for each page that produced records."""

    proposed = Signal(object)

    def __init__(self, project_root: Path, pages: Sequence[str], method: str, params: dict[str, object]) -> None:
        key = params.get("api_key")
        super().__init__(project_root, self._propose, secrets=[key] if isinstance(key, str) else [])
        self.pages = list(pages)
        self.method = method
        self._params = params
        self.caution = ""  # what makes the extractor's proposals doubtful (a model learnt from few pages), if any

    def _propose(self, project: Project, job: BackgroundJob) -> None:
        extractor = extract.create(self.method, **self._params)
        self.caution = caution_of(extractor)
        total = len(self.pages)
        for done, name in enumerate(self.pages):
            self.check()
            self.report(done, total, name)
            page = project.load(name).page  # here: the Project is this thread's
            try:
                extraction = run_until_cancelled(lambda page=page: extractor.extract(page), self._cancel)
            except Cancelled:
                raise
            except Exception as error:  # noqa: BLE001 - one page's failure (a timeout, bad HTML) is reported
                self.report_failure(name, str(error) if isinstance(error, RecordLensError)
                                    else f"{type(error).__name__}: {error}")
                continue
            provenance = Provenance.extractor(extraction.method, extraction.version, extraction.input_format or "",
                                              seed=self._params.get("seed"))  # type: ignore[arg-type]
            emit(self.proposed, Proposal(name, extraction.records, provenance, extraction.seconds,
                                         [self.scrub(w) for w in extraction.warnings]))
        self.report(total, total, "")


def caution_of(extractor: object) -> str:
    """What makes an extractor's proposals doubtful, in core's words, as `recordlens train` says it too (only the
    selector's model has a caution: one stage only, from few pages); "" when nothing does."""
    return str(getattr(extractor, "caution", "") or "")
