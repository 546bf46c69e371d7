"""The remove-page question says all that goes into removed/ (other annotators' labels of the page too, by whose
they are) and that `recordlens project restore-page` brings the page back, as the status bar then says in full."""

from __future__ import annotations

import shlex

import pytest

from recordlens.core.cli.command import main as recordlens

pytestmark = pytest.mark.app


def test_the_remove_page_question_names_what_goes_and_how_it_comes_back(qtbot, window, monkeypatch, capsys):
    project = window.project
    truth = project.true_records("1")
    project.annotators.set_page("bea", "1", truth)
    project.annotators.set_page("cyd", "1", truth[:1])
    project.annotators.set_page("dan", "2", truth[:1])  # not this page's
    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(window, "ask", lambda question, details: asked.append((question, details)) or True)
    count = len(project.labels("1"))

    window.actions_by_name["remove_page"].trigger()
    question, details = asked[0]
    assert question == "Remove page 1 from the project?"
    assert details.startswith(f"Its {count} records and their history, the labels bea and cyd made of it (as "
                              "other annotators), and runs' predictions and scores for it are first written to ")
    assert "dan" not in details
    assert ("Undo cannot bring the page back; `recordlens project restore-page` can, from that copy (the status bar "
            "names it once the page is removed).") in details
    said = window.statusBar().currentMessage()
    copy = next((project.root / "removed").glob("*-1.*.json"))
    command = shlex.join(["recordlens", "project", "restore-page", str(copy), "--project", str(project.root)])
    assert f"`{command}` puts it back" in said

    # The command as said does put it back, with bea's labels of it.
    assert recordlens(shlex.split(command)[1:]) == 0
    capsys.readouterr()
    assert project.has_page("1") and project.annotators.records("bea", "1") == truth
