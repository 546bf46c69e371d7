"""A path given without its option is advised its option when it is not there yet too (`core/cli/argument_advice.py`):
`recordlens extract --pages DIR run2`, run2 not made yet, got argparse's bare "unrecognized arguments: run2", while
an existing run2 was told `give it as --out run2`. A path not there can only be one the command writes, or one it
reads misspelt: the option that writes it is named where the word reads as an output (given after a path that is
there, written as a path on a line that gives one, or a file of the kind only an output is); else a path named
closely beside it is advised (`ds/htlm`, ds/html: `--out ds/htlm` made a run folder inside the dataset). The exit
status stays argparse's, 2."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from recordlens.core.cli.command import build_parser
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import refused_line as refused


@pytest.fixture
def dataset_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder, holding a dataset `ds` (ds/html, ds/gt) and nothing else."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(resource_path("demo", "dataset"), tmp_path / "ds")
    return tmp_path



def test_an_output_folder_not_there_yet_is_advised_its_option(dataset_here: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "extract", "--pages", "ds/html", "run2")
    assert said == ("recordlens extract: error: unrecognized arguments: run2; "
                    "run2 is not there yet: the folder extract writes is given as --out run2")
    assert not (dataset_here / "run2").exists()
    hint = said.rsplit("given as ", 1)[1]
    args = build_parser().parse_args(["extract", "--pages", "ds/html", *shlex.split(hint)])  # it reads as it says
    assert args.out == "run2"
    # written as a path, on a line that gives the input, it is the output wherever it stands
    assert "out/run2 is not there yet: the folder extract writes is given as --out out/run2" in refused(
        capsys, "extract", "out/run2", "--pages", "ds/html")


def test_an_output_file_not_there_yet_is_advised_the_option_that_writes_its_kind(
        dataset_here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "represent", "ds/html/1.html", "page.txt")
    assert "page.txt is not there yet: the file represent writes is given as --out page.txt" in said
    # an option whose words name the file's kind (`the PNG bar chart`)
    said = refused(capsys, "bench", "--pages", "ds/html", "--gt", "ds/gt", "chart.png")
    assert "chart.png is not there yet: the file bench writes is given as --chart chart.png" in said
    # argparse first says the option is missing: the word given is the very one
    said = refused(capsys, "synth", "--pages", "ds/html", "--gt", "ds/gt", "made")
    assert "made is not there yet: the folder synth writes is given as --out made" in said


def test_a_word_not_there_that_need_be_no_path_is_not_advised_as_one(dataset_here: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # a bare word given first may be a method's name
    assert refused(capsys, "extract", "mdr", "--pages", "ds/html") == (
        "recordlens extract: error: unrecognized arguments: mdr")
    # the output already given: nothing else writes a folder
    assert refused(capsys, "extract", "--pages", "ds/html", "--out", "run3", "run2") == (
        "recordlens extract: error: unrecognized arguments: run2")
    # a path the command reads is not there: no option can be named for it
    assert "is not there yet" not in refused(capsys, "score", "--gt", "ds/gt", "--pages", "ds/html", "predicted")


def test_a_misspelt_input_is_advised_the_path_there_not_as_an_output(dataset_here: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # ds/htlm beside ds/html: the folder of pages misspelt. Advised as the folder extract writes, it made a run
    # folder inside the dataset
    assert refused(capsys, "extract", "ds/htlm") == (
        "recordlens extract: error: unrecognized arguments: ds/htlm; "
        "ds/htlm: did you mean ds/html? it is a folder: give it as --pages ds/html")
    assert sorted(path.name for path in (dataset_here / "ds").iterdir()) == ["gt", "html"]
    # after the pages given, a labels folder misspelt: bench writes no folder, and ds/gt is the one meant
    assert refused(capsys, "bench", "--pages", "ds/html", "ds/gtt").endswith(
        "ds/gtt: did you mean ds/gt? it is a folder: give it as --gt ds/gt")
    # nothing named like it where it would be, and no input given: an input as well as an output, so no advice
    assert refused(capsys, "extract", "dz/html") == "recordlens extract: error: unrecognized arguments: dz/html"


def test_a_misspelt_input_beside_another_path_there_is_advised_the_path_there(
        dataset_here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a prompt file is there, yet no folder of pages is given: ds/htlm is the pages misspelt, not an output (advised
    # --out, it made a run folder inside the dataset), wherever the other path stands
    (dataset_here / "prompt.txt").write_text("{input}", encoding="utf-8")
    for argv in (("gemini", "ds/htlm", "--prompt-file", "prompt.txt"),
                 ("gemini", "--prompt-file", "prompt.txt", "ds/htlm")):
        assert refused(capsys, "extract", *argv).endswith(
            "ds/htlm: did you mean ds/html? it is a folder: give it as --pages ds/html"), argv
    # the pages given: the same word is the output
    assert refused(capsys, "extract", "ds/htlm", "--pages", "ds/html").endswith(
        "ds/htlm is not there yet: the folder extract writes is given as --out ds/htlm")
