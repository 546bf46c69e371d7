"""A person of the app whose name is another spelling of an imported annotator's (`Zoe` and a combining mark, where
`Zoë` was imported) does not change what the name means to `agreement`: it is read as the annotator, as before that
person labelled, and said; the person is `person:NAME`; `annotators` names the look-alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.agreement import find_label_set, known_sets, project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, StoreError, init_project, open_project
from tests.core.two_annotators import bea, dataset

NFC, NFD = "Zo\u00eb", "Zoe\u0308"


@pytest.fixture
def zoe(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's), Zoë's set (NFC) beside them."""
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [dataset(dev_dir, tmp_path / "ana")])
        import_paths(project, [dataset(dev_dir, tmp_path / "zoe", bea)], annotator=NFC)
    return folder


def label_as(project, person: str) -> None:  # noqa: ANN001 - a Project
    """The person edits a record of page 7 in the app (the page is labelled)."""
    first = project.labels("7")[0]
    project.edit(first.id, [*first.xpaths, "/body[1]"], Provenance.person(person))


def test_the_name_means_the_annotator_before_and_after_a_look_alike_person_labels(zoe: Path, capsys) -> None:
    with open_project(zoe) as project:
        before = project_agreement(project, NFD, "project")
        label_as(project, NFD)
        after = project_agreement(project, NFD, "project")  # refused before: both the project's labels
        assert [p.page for p in after.pages] == [p.page for p in before.pages] == ["1", "7", "11"]
        assert find_label_set(project, NFD).annotator == NFC
        note = " ".join(after.notes)
        assert "'Zoe\\u0308' is read as the annotator 'Zoë', the same name written in another Unicode form" in note
        assert ("'Zoe\\u0308', a person who labelled in the app (1 page), is the name of the imported annotator "
                "'Zoë' written in another Unicode form: compared here is the imported label set") in note
        assert "names the person's labels" in " ".join(project_agreement(project, NFC, "project").notes)
        assert [p.page for p in project_agreement(project, f"person:{NFD}", NFC).pages] == ["7"]
        with pytest.raises(StoreError, match="both name the project's own labels"):
            project_agreement(project, f"person:{NFD}", "project")
        with pytest.raises(StoreError, match="both name the annotator 'Zoë'"):
            project_agreement(project, NFD, NFC)
        assert known_sets(project) == [NFC, "project", f"person:{NFD}"]  # the bare name is the annotator's
    assert main(["agreement", "--project", str(zoe), "--between", NFD, "project", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("agreement of Zoe\\u0308 (A) with project (B) on 3 page(s) both labelled"), out
    assert main(["annotators", "--project", str(zoe)]) == 0
    assert ("(a person who labelled 1 page in the app is named 'Zoe\\u0308', another spelling of 'Zoë' (in another "
            f"Unicode form): `agreement` reads that name as this set, and names the person 'person:{NFD}')"
            ) in capsys.readouterr().out
