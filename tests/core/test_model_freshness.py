"""Whether a project's learnt model is still the one its labels would give (`store.model_freshness`): the pages
labelled since it was learnt, the pages whose labels changed, the pages no longer labelled, from the digests its
provenance records against the ones the project remembers; said in one sentence, and cheap enough before every
Propose (no page parsed twice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import import_paths, init_project, model_freshness, train_on_project
from recordlens.core.store.db import Provenance
from recordlens.core.store.learnt_model import ModelFreshness, project_model_path
from recordlens.core.store.project import Project, open_project
from tests.core.catalogue_pages import write_dataset

ME = Provenance("person", "me")


@pytest.fixture
def project_dir(tmp_path: Path) -> Path:
    """Five pages imported with their labels (labelled), page 4 set back to in progress."""
    pages, _ = write_dataset(tmp_path / "data", [None] * 5, seed=5)  # type: ignore[list-item]
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [pages.parent]).problems
        project.set_status("4", "proposed", ME)
    return tmp_path / "p"


def test_a_model_just_learnt_is_current(project_dir: Path, quick_fits) -> None:
    with open_project(project_dir) as project:
        assert model_freshness(project) is None  # no model of its own yet
    train_on_project(project_dir)
    with open_project(project_dir) as project:
        fresh = model_freshness(project)
    assert fresh == ModelFreshness(4, 4, [], [], [])
    assert fresh.current
    assert fresh.sentence() == "learnt from all 4 labelled pages as they are labelled now"


def test_pages_labelled_since_relabelled_and_no_longer_labelled_are_told_apart(project_dir: Path,
                                                                               quick_fits) -> None:
    train_on_project(project_dir)
    with open_project(project_dir) as project:
        project.set_status("4", "labelled", ME)  # labelled since
        project.delete(project.labels("1")[0].id, ME)  # its labels changed
        project.set_status("2", "proposed", ME)  # no longer labelled
        fresh = model_freshness(project)
    assert (fresh.labelled, fresh.learnt, fresh.new, fresh.changed, fresh.gone) == (4, 2, ["4"], ["1"], ["2"])
    assert not fresh.current
    assert fresh.sentence() == ("learnt from 2 of the 4 labelled pages; 1 labelled since; labels of 1 changed "
                                "since; 1 page it learnt from is no longer labelled")


def test_the_one_sentence_of_a_model_that_missed_one_relabelled_page() -> None:
    assert ModelFreshness(10, 9, [], ["7"], []).sentence() == \
        "learnt from 9 of the 10 labelled pages; labels of 1 changed since"
    assert ModelFreshness(1, 1, [], [], []).sentence() == "learnt from the 1 labelled page as it is labelled now"


def test_asked_again_it_parses_no_page(project_dir: Path, quick_fits, monkeypatch) -> None:
    """Each page's digest is the one the project remembers beside its label check: asked before every Propose,
    no snapshot is parsed again (one whose labels changed is parsed once, then remembered)."""
    train_on_project(project_dir)
    with open_project(project_dir) as project:
        project.delete(project.labels("3")[0].id, ME)
        first = model_freshness(project)

        def no_parse(self: Project, name: str) -> None:
            raise AssertionError(f"page {name} parsed again")

        monkeypatch.setattr(Project, "load", no_parse)
        assert model_freshness(project) == first
    assert first.changed == ["3"]


def test_a_model_this_version_cannot_use_is_no_learnt_model(project_dir: Path) -> None:
    own = project_model_path(project_dir)
    own.parent.mkdir()
    own.write_text('{"format": "recordlens-selector/9"}', encoding="utf-8")
    with open_project(project_dir) as project:
        assert model_freshness(project) is None
