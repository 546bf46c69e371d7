"""Natural mistakes met by running each command as a user would, and the advice they now get
(`core/cli/argument_advice.py`):

- a project given without --project to a command that also takes names (`import P ds`, `project remove-page P 1`):
  argparse took the project for one of the names and said only that --project is missing;
- a chart file not there yet (`demo chart.png`): an option that writes "a PNG chart" was matched to the suffix
  `png` case by case for a file not there (as for a folder's `N.html`), so `PNG` did not name it and nothing was
  advised;
- a folder given beside --project to a command that reads either a project or a dataset (`synth --project P syn`,
  an earlier synth output): advised as the dataset to read (`--pages syn/html --gt syn/gt`, which synth refuses with
  --project), not as the output;
- a folder inside the project given beside --project to export (`P/snapshots`): no advice, where export refuses it
  as its --out.
The folders a command writes are advised as `test_cli_advice_existing_output_folder.py` says."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import build_parser, main
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import refused_line as refused


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """The current folder: a dataset `ds` and a project `P`, the dataset not imported."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(resource_path("demo", "dataset"), tmp_path / "ds")
    assert main(["project", "init", "P"]) == 0
    capsys.readouterr()
    return tmp_path



def test_a_project_taken_for_a_name_is_advised_as_the_project(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "import", "P", "ds")
    assert said == ("recordlens import: error: the following arguments are required: --project; P is a project: "
                    "give it as --project P, as in `recordlens import --project P ds`"), said
    line = shlex.split(re.findall(r"`recordlens ([^`]*)`", said)[0])
    assert main([*line, "--quiet"]) == 0  # the advised line runs: the dataset imported into P
    capsys.readouterr()
    said = refused(capsys, "project", "remove-page", "P", "1")
    assert said.endswith("P is a project: give it as --project P, as in "
                         "`recordlens project remove-page --project P 1`"), said
    args = build_parser().parse_args(shlex.split(re.findall(r"`recordlens ([^`]*)`", said)[0]))
    assert (args.project, args.names) == ("P", ["1"])
    # a name that is no project is not said to be one
    assert refused(capsys, "import", "ds", "ds/html") == (
        "recordlens import: error: the following arguments are required: --project")


def test_a_chart_not_there_yet_is_advised_the_option_that_writes_a_png(
        here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "demo", "chart.png")
    assert said.endswith("chart.png is not there yet: the file demo writes is given as --chart chart.png"), said
    said = refused(capsys, "agent", "eval", "--project", "P", "out/chart.png")
    assert said.endswith("out/chart.png is not there yet: the file agent eval writes is given as --chart "
                         "out/chart.png"), said


def test_a_folder_beside_the_project_given_is_the_output(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", "ds", "--project", "P", "--quiet"]) == 0
    assert main(["synth", "--pages", "ds/html", "--gt", "ds/gt", "--out", "syn", "--quiet"]) == 0
    capsys.readouterr()
    said = refused(capsys, "synth", "--project", "P", "syn")
    assert said.endswith("syn is a folder: give it as --out syn (synth then replaces the synthetic dataset it holds "
                         "whole, an earlier synth output as its synth.json says)"), said
    assert "--pages" not in said
    said = refused(capsys, "export", "--project", "P", "--format", "nexteval", "P/snapshots")
    assert said.endswith("P/snapshots is a folder export refuses as --out: it lies inside the project P, and an "
                         "export is written outside it; give a new one, as --out P-2"), said
    assert main(["export", "--project", "P", "--format", "nexteval", "--out", "P-2", "--quiet"]) == 0
