"""A person's labels in `agreement` are what that person decided in the app, rebuilt from the page's history: a
record an adjudicator took from another annotator's set is not theirs (nor a rejection of theirs the adjudicator
overrode), a record of theirs the adjudicator deleted still is, and the pages where the project's labels differ
from theirs are said. Found by a team: alice labelled, carol adjudicated against bob's imported set (T on a record
alice rejected, a delete, a take of a record only bob made), and `agreement --between alice bob` scored carol's
decisions as alice's (0.927 instead of 0.890, no note). After `annotators --remove bob`, bob, whose records were
only taken by adjudication, was said to be "a person of the project". Where the history cannot tell the person's
work apart, a note says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store.agreement import person_pages, project_agreement
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import Provenance, init_project, open_project

ALICE = Provenance.person("alice")  # labels in the app
CAROL = Provenance.person("carol")  # adjudicates against bob's imported labels
SELECTOR = Provenance.extractor("selector", "1")
PAGE = "<html><body>" + "".join(f"<div><p>item {k}</p><span>detail {k}</span></div>" for k in range(1, 10)) + \
    "</body></html>"


def div(k: int) -> list[str]:
    return [f"/body[1]/div[{k}]"]


def by_xpaths(project, page: str) -> dict[tuple[str, ...], int]:  # noqa: ANN001 - a Project
    return {label.xpaths: label.id for label in project.labels(page)}


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """Pages 1 and 2 labelled by alice in the app from a selector's proposals, bob's set imported beside them, and
    carol's adjudication on page 1; the project's figures with alice's own records (as she exported them before
    carol adjudicated) stored as the set `alice-own`, to compare with."""
    (tmp_path / "pages" / "html").mkdir(parents=True)
    for name in ("1", "2"):
        (tmp_path / "pages" / "html" / f"{name}.html").write_text(PAGE.replace("<body>", f"<!-- page {name} --><body>"),
                                                                  encoding="utf-8")
    folder = tmp_path / "p"
    with init_project(folder) as project:
        import_paths(project, [tmp_path / "pages"])
        for page in ("1", "2"):
            project.add_records(page, [div(k) for k in range(1, 7)], SELECTOR)
            ids = by_xpaths(project, page)
            for k in (1, 2, 3, 4):
                project.accept(ids[tuple(div(k))], ALICE)
            for k in (5, 6):
                project.reject(ids[tuple(div(k))], ALICE)
            project.add_record(page, div(7), ALICE)  # her own record
            project.set_status(page, "labelled", ALICE)
            project.annotators.set_page("bob", page, [div(1), div(2), div(5), div(8)])
        own = {page: project.true_records(page) for page in ("1", "2")}
        # carol on page 1: T on bob's record alice rejected, T deleting alice's record bob did not make, T on a
        # record only bob made, O keeping alice's div 4
        ids = by_xpaths(project, "1")
        project.accept(ids[tuple(div(5))], CAROL, adjudicated="bob")
        project.delete(ids[tuple(div(3))], CAROL, adjudicated="bob")
        project.add_record("1", div(8), Provenance.person("bob"), status="accepted", by=CAROL, adjudicated="bob")
        project.adjudication.keep("1", "bob", theirs=None, ours=div(4), by=CAROL)
        # alice goes on labelling page 1 after the adjudication: she accepts a record she had rejected
        project.accept(by_xpaths(project, "1")[tuple(div(6))], ALICE)
        own["1"] = [div(1), div(2), div(3), div(4), div(6), div(7)]
        for page, records in own.items():
            project.annotators.set_page("alice-own", page, records)
    return folder


def test_the_persons_labels_leave_out_the_adjudicators_decisions(team: Path) -> None:
    with open_project(team) as project:
        assert person_pages(project, "alice") == {"1": [div(1), div(2), div(3), div(4), div(6), div(7)],
                                                  "2": [div(1), div(2), div(3), div(4), div(7)]}
        theirs, expected = project_agreement(project, "alice", "bob"), project_agreement(project, "alice-own", "bob")
        assert [(p.page, p.precision, p.recall, p.f1) for p in theirs.pages] == \
            [(p.page, p.precision, p.recall, p.f1) for p in expected.pages]
        assert theirs.f1 == expected.f1 != project_agreement(project, "project", "bob").f1
        # the adjudication changed alice's labels of page 1: comparing them with the project's shows what it did
        assert [p.f1 for p in project_agreement(project, "project", "alice").pages][1] == 1.0


def test_the_output_says_where_the_adjudication_changed_the_persons_labels(team: Path, capsys) -> None:
    assert main(["agreement", "--project", str(team), "--between", "alice", "bob", "-q"]) == 0
    out = capsys.readouterr().out
    assert ("(note: the labels of 'alice' are the records they accepted, changed or made in the app, as the history "
            "keeps them: the project's labels differ on 1 page (1), changed since by 'carol' (adjudicating with "
            "'bob'); `project` names the project's labels as they now are, with the review's decisions; their "
            "records no longer in the project (deleted since) are numbered after the page's records in the app: "
            "page 1: record 8)") in out
    # page 1 holds 7 records now (div 3 deleted): alice's div 3 is numbered after them
    assert "  only A   A8: /body[1]/div[3]\n" in out
    assert "kept: the project's version" not in out  # carol's decisions are the project's, not alice's
    assert main(["agreement", "--project", str(team), "--between", "alice", "bob", "-q", "--json"]) == 0
    page = json.loads(capsys.readouterr().out)["pages"][0]
    assert sorted((d["kind"], d["a_number"], d["b_number"]) for d in page["disagreements"]) == \
        [("only A", 3, None), ("only A", 5, None), ("only A", 6, None), ("only A", 8, None), ("only B", None, 3),
         ("only B", None, 4)]


def test_an_annotator_whose_records_were_only_taken_is_no_person_of_the_app(team: Path, capsys) -> None:
    assert main(["annotators", "--project", str(team), "--remove", "bob"]) == 0
    capsys.readouterr()
    assert main(["agreement", "--project", str(team), "--between", "project", "bob", "-q"]) == 2
    err = capsys.readouterr().err
    assert "is a person of the project" not in err
    assert ("no labels by 'bob' in the project; 'bob' names no person who labelled in the app: the project's labels "
            "hold 2 records taken from the label set of an annotator 'bob' by adjudication (page 1), compared as "
            "`project`; that label set is no longer in the project (their labels removed earlier are kept in ") in err
    assert "known: alice-own, project, alice" in err


def test_a_persons_undo_takes_their_own_work_back_and_an_adjudicators_undo_gives_nothing_to_them(
        team: Path) -> None:
    with open_project(team) as project:
        ids = by_xpaths(project, "2")
        before = project.last_change_id("2")
        project.delete(ids[tuple(div(1))], CAROL, adjudicated="bob")  # carol deletes, then undoes it
        project.restore("2", before, CAROL, why="undo: delete")
        project.accept(ids[tuple(div(6))], ALICE)  # alice accepts, then undoes it
        project.restore("2", project.history("2")[-2].id, ALICE, why="undo: accept")
        project.accept(ids[tuple(div(5))], CAROL, adjudicated="bob")
        assert person_pages(project, "alice")["2"] == [div(1), div(2), div(3), div(4), div(7)]


def test_where_the_history_cannot_tell_the_persons_work_apart_a_note_says_so(team: Path) -> None:
    with open_project(team) as project:
        # a take of bob's record in a version that did not note it as an adjudication: not alice's record
        project.add_record("2", div(9), Provenance.person("bob"), status="accepted", by=ALICE)
        assert person_pages(project, "alice")["2"] == [div(1), div(2), div(3), div(4), div(7)]
        assert ("on page 2, 'alice' added records of 'bob' before the history noted adjudications: those are left "
                "out of their labels, but their deletions and edits then cannot be told from their labelling"
                ) in " ".join(project_agreement(project, "alice", "bob").notes)
        # a record the history does not account for (older than it, or changed by hand): the project's, said
        project.db.execute("UPDATE records SET xpaths = ? WHERE id = ?",
                           (json.dumps(div(8)), by_xpaths(project, "2")[tuple(div(7))]))
        project.db.conn.commit()
        assert div(8) in person_pages(project, "alice")["2"]
        assert ("the history of page 2 does not account for all of its records (some older than it): the labels "
                "of 'alice' there are the project's as they now are") in " ".join(
                    project_agreement(project, "alice", "bob").notes)
