"""`agreement` between an imported annotator and the project's labels marks each disagreement settled in the app's
review (kept with O, or merged with Shift+T), as the review lists it under "kept", and counts those still open: in
its text and in `--json`, whichever side the annotator is on."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.store.agreement import agreement_and_decisions
from recordlens.core.store.project import open_project
from tests.core.two_annotators import ANN, one_page_labelled_twice

PAGE = ("<html><body><div>" + "".join(f"<p>text {k}</p>" for k in range(1, 5)) + "</div><ul>"
        + "".join(f"<li>item {k}</li>" for k in range(1, 4)) + "</ul></body></html>")
DIV, LI = "/body[1]/div[1]", "/body[1]/ul[1]/li"
NOWHERE = "/body[1]/p[99]"  # an element only bea's record names: the merge adds it to the project's
OURS = [[DIV], [f"{LI}[1]"], [f"{LI}[2]"]]
THEIRS = [[f"{DIV}/p[1]", NOWHERE], [f"{LI}[1]"], [f"{LI}[3]"]]  # the first a quarter of ours; no li[2]; li[3]


def a_project(root: Path) -> Path:
    with one_page_labelled_twice(root, PAGE, OURS, THEIRS, ("bea", "cyd")) as project:
        first, _, third = project.labels("1")
        project.adjudication.merge("1", first, "bea", THEIRS[0], ANN)  # still a quarter of it: kept, merged
        project.adjudication.keep("1", "bea", None, list(third.xpaths), ANN)  # O on the record bea left out
    return root / "p"


def test_settled_disagreements_are_marked_and_the_open_ones_counted(tmp_path: Path, capsys) -> None:
    project = a_project(tmp_path)
    with open_project(project) as opened:
        result, settled = agreement_and_decisions(opened, "bea", "project")
        assert [d.kind for d in result.pages[0].disagreements] == ["different", "only B", "only A"]
        assert settled.of(result.pages[0]) == ("merged", "kept", None) and settled.open(result.pages[0]) == 1
        result, settled = agreement_and_decisions(opened, "bea", "cyd")  # two annotators: no decisions
        assert result.pages[0].disagreements == [] and settled.open(result.pages[0]) == 0

    assert main(["agreement", "--project", str(project), "--between", "project", "bea", "-q"]) == 0
    out = capsys.readouterr().out
    assert ("(settled in the app's review: 2 of the 3 disagreements, kept with O or merged with Shift+T, marked "
            "below as the review lists them under \"kept\"; 1 open)") in out, out
    assert "page 1: 3 record(s) disagree (1 open)" in out
    rows = out.split("page 1: 3 record(s) disagree (1 open)\n")[1].splitlines()
    assert rows[0].startswith("  different (overlap 0.25)") and rows[0].endswith("(kept: merged into the project's)")
    assert rows[1] == f"  only B   B3: {LI}[3]"  # open
    assert rows[2] == f"  only A   A3: {LI}[2]  (kept: the project's version)"

    assert main(["agreement", "--project", str(project), "--between", "project", "bea", "-q", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["open_disagreements"] == 1 and document["pages"][0]["open_disagreements"] == 1
    assert [(d["kind"], d["settled"]) for d in document["pages"][0]["disagreements"]] == [
        ("different", "merged"), ("only B", None), ("only A", "kept")]

    assert main(["agreement", "--project", str(project), "--between", "cyd", "project", "-q", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)  # another annotator's: nothing decided with them
    assert document["open_disagreements"] == 3
    assert [d["settled"] for d in document["pages"][0]["disagreements"]] == [None, None, None]
