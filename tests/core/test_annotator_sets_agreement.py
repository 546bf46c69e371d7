"""`agreement` tells an imported annotator from the app's person of the same name, does not count the adjudicator's
decisions as their labelling, refuses to compare the project's labels with themselves, and lists the matched
records whose XPaths differ (the same text, labelled a level up)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, StoreError, init_project, open_project
from tests.core.two_annotators import project_of_ana_and_bea


@pytest.fixture
def two(dev_dir: Path, tmp_path: Path) -> Path:
    """ana's labels of three dev pages (the project's) and bea's label set beside them."""
    return project_of_ana_and_bea(dev_dir, tmp_path)


def adjudicate(project, page: str, annotator: str, by: str) -> None:  # noqa: ANN001 - a Project
    """What T does in the app on a record only the annotator made: it goes into the project's labels."""
    theirs = project.annotators.records(annotator, page)[-1]
    project.add_record(page, [*theirs, "/body[1]"], Provenance.person(annotator), status="accepted",
                       by=Provenance.person(by), adjudicated=annotator)


def test_an_imported_annotator_and_the_app_person_of_the_same_name_are_told_apart(two: Path, capsys) -> None:
    with open_project(two) as project:
        adjudicate(project, "1", "bea", "ann")  # a record taken from bea's set: not the person bea's labelling
        assert project_agreement(project, "project", "bea").notes == ()
        first = project.labels("7")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]"], Provenance.person("bea"))  # bea in the app
    assert main(["agreement", "--project", str(two), "--between", "project", "bea", "-q"]) == 0
    out = capsys.readouterr().out
    assert ("(note: 'bea' is an imported annotator and also a person who labelled in the app (1 page): compared "
            "here is the imported label set; `person:bea` names the person's labels)") in out
    assert "on 3 page(s) both labelled" in out  # the imported set: every page
    assert main(["agreement", "--project", str(two), "--between", "person:bea", "bea", "-q"]) == 0
    assert "agreement of person:bea (A) with bea (B) on 1 page(s) both labelled\n" in capsys.readouterr().out
    assert main(["agreement", "--project", str(two), "--between", "bea", "nobody"]) == 2
    assert "known: bea, project, person:bea" in capsys.readouterr().err
    assert main(["annotators", "--project", str(two)]) == 0
    assert "(bea is also a person who labelled 1 page in the app: `agreement` names that person person:bea)" in \
        capsys.readouterr().out


def test_the_adjudicator_is_not_an_annotator_and_the_project_is_not_compared_with_itself(two: Path,
                                                                                         capsys) -> None:
    with open_project(two) as project:
        adjudicate(project, "1", "bea", "ann")
        project.delete(project.labels("7")[0].id, Provenance.person("ann"), adjudicated="bea")
    assert main(["agreement", "--project", str(two), "--between", "project", "ann", "-q"]) == 2
    err = capsys.readouterr().err
    assert "'ann' adjudicated (took other annotators' records into the project's labels) but labelled no page" in err
    assert main(["agreement", "--project", str(two), "--between", "ann", "bea", "-q"]) == 2
    assert "compared as `project`" in capsys.readouterr().err
    with open_project(two) as project:  # ann labels page 11 herself: she is a person with labels, of the project's
        first = project.labels("11")[0]
        project.edit(first.id, [*first.xpaths, "/body[1]"], Provenance.person("ann"))
        assert [p.page for p in project_agreement(project, "ann", "bea").pages] == ["11"]
        with pytest.raises(StoreError, match="'project' and 'ann' both name the project's own labels"):
            project_agreement(project, "project", "ann")
    assert main(["agreement", "--project", str(two), "--between", "bea", "x"]) == 2
    assert "known: bea, project, ann" in capsys.readouterr().err


def test_matched_records_with_other_xpaths_are_listed(dev_dir: Path, tmp_path: Path, capsys) -> None:
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for folder in (ours, theirs):
        (folder / "html").mkdir(parents=True)
        (folder / "gt").mkdir()
        shutil.copy(dev_dir / "html" / "56.html", folder / "html")
    truth = json.loads((dev_dir / "gt" / "56.json").read_text(encoding="utf-8"))
    shutil.copy(dev_dir / "gt" / "56.json", ours / "gt")
    # each record labelled a level up: the same text, other XPaths
    (theirs / "gt" / "56.json").write_text(json.dumps([[x.rsplit("/", 1)[0] for x in r] for r in truth]))
    with init_project(tmp_path / "p") as project:
        import_paths(project, [ours])
        import_paths(project, [theirs], annotator="bea")
        result = project_agreement(project, "project", "bea")
    page = result.pages[0]
    assert page.f1 == 1.0 and page.disagreements == []
    moved = [d for d in page.other_xpaths if d.overlap == 1.0]
    assert len(moved) >= 4 and all(d.kind == "other XPaths" and d.a != d.b for d in page.other_xpaths)
    assert main(["agreement", "--project", str(tmp_path / "p"), "--between", "project", "bea", "-q"]) == 0
    out = capsys.readouterr().out
    n = len(page.other_xpaths)
    assert (f"matched records with other XPaths (one record to the score, other labels once exported): page 56 "
            f"({n})") in out
    assert f"page 56: {n} matched record(s) with other XPaths\n  other XPaths (overlap 1.00)  A1: " in out
    assert f"  … and {n - 3} more (--json lists them all)" in out
    assert main(["agreement", "--project", str(tmp_path / "p"), "--between", "project", "bea", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["pages"][0]["other_xpaths"]) == n
