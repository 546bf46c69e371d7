"""A proposal names the selector model that made it: the shipped one and a project's own learnt one were both
stored as `extractor selector 1.0`, so History and exports could not tell proposals of two models apart, while
`recordlens runs` tells runs apart by their model's digest. The digest now goes in the proposal's provenance,
and History, the record list and exports show it."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from recordlens.annotator.labelling.history_dialog import who
from recordlens.annotator.labelling.propose import proposal_provenance
from recordlens.core.extract.base import Extraction
from recordlens.core.extract.selector import DEFAULT_MODEL, load_model
from recordlens.core.store import Provenance, project_model_path
from tests.app.list_projects import TITLED_LIST
from tests.app.window_helpers import imported_project, open_window

pytestmark = pytest.mark.app


def extraction(**parameters: object) -> Extraction:
    return Extraction(records=[], method="selector", version="1.0", parameters=parameters, seconds=0.0)


def test_the_provenance_of_a_proposal_names_the_model_by_its_digest():
    first = proposal_provenance(extraction(model="default", model_digest="0123456789abcdef"))
    second = proposal_provenance(extraction(model="/p/models/selector.json", model_digest="fedcba9876543210"))
    assert first != second
    assert first == Provenance.extractor("selector", "1.0 model 0123456789abcdef")
    assert str(second) == "extractor selector 1.0 model fedcba9876543210"
    # An extractor that names no model file (a model in memory, MDR, Gemini's name alone) is as it was.
    assert proposal_provenance(extraction(model="(in memory)", model_digest="")) == Provenance.extractor("selector",
                                                                                                        "1.0")
    assert proposal_provenance(extraction(seed=0)) == Provenance.extractor("selector", "1.0", seed=0)


def proposed_origins(qtbot, window, page: str) -> set[Provenance]:
    assert window.jobs.propose([page], method="selector") is not None
    qtbot.waitUntil(lambda: window.job is None, timeout=60_000)
    origins = {label.origin for label in window.project.labels(page) if label.status == "proposed"}
    assert origins, window.messages.text()
    return origins


@pytest.mark.timeout(300)
def test_proposals_of_the_shipped_model_and_of_the_projects_own_are_told_apart(qtbot, tmp_path: Path):
    folder = imported_project(tmp_path, {"html/1.html": TITLED_LIST.format(title="One"),
                                       "html/2.html": TITLED_LIST.format(title="Two")})
    window = open_window(folder, tmp_path / "settings.json", qtbot=qtbot)
    try:
        shipped = proposed_origins(qtbot, window, "1")
        assert shipped == {Provenance.extractor("selector", f"1.0 model {load_model(DEFAULT_MODEL).digest}")}
        # The project's own model: here the shipped one written out again, another file by its digest
        own = project_model_path(folder)
        own.parent.mkdir(parents=True, exist_ok=True)
        own.write_text(gzip.decompress(DEFAULT_MODEL.read_bytes()).decode("utf-8") + "\n", encoding="utf-8")
        learnt = proposed_origins(qtbot, window, "2")
        digest = load_model(own).digest
        assert learnt == {Provenance.extractor("selector", f"1.0 model {digest}")} != shipped
        added = window.project.history("2")[-1]
        assert f"model {digest}" in who(added.actor)  # as History shows who made the change
    finally:
        window.close()
        window.shutdown()
