"""`recordlens represent --project P` (a command that takes no project, and no way to do the same with one) was
answered with the commands that do take --project ("--project is an option of score, train, ... (14 in all)"),
which says nothing of what `represent` does; or, when no page was given, `recordlens represent P`, a project given
as the page. Such a command says its own arguments instead (`core/cli/argument_advice.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import refused_line as refused

PAGE = str(resource_path("demo", "dataset", "html", "1.html"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.chdir(tmp_path)
    assert main(["project", "init", "P"]) == 0
    capsys.readouterr()
    return "P"



def test_represent_given_a_project_says_its_own_arguments(project: str, capsys: pytest.CaptureFixture[str]) -> None:
    for given in ([PAGE, "--project", project], ["--project", project]):
        said = refused(capsys, "represent", *given)
        assert said.endswith("represent takes no --project: it takes page (an .html or .mhtml file) and the options "
                             "--format, --out"), said
        assert "is an option of" not in said and "recordlens represent P" not in said


def test_a_command_of_many_options_names_some_and_how_many(project: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "agent", "tasks", "filter", "--project", project)
    assert said.endswith("agent tasks filter takes no --project: it takes the options --candidates, --against, "
                         "--seeds, --threshold, --embedder, --out"), said
    said = refused(capsys, "site", "capture", "--project", project, "http://127.0.0.1:1/")
    assert "site capture takes no --project: it takes URL (root pages (http:// or https://)) and the options " \
           "--site, " in said and "in all)" in said


def test_a_command_whose_name_is_a_project_is_still_shown_it_without_the_option(
        project: str, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "project", "copy", "--project", project, "copied")
    assert "project copy takes no --project: its DIR DEST is given without an option, as in " \
           "`recordlens project copy P copied`" in said
