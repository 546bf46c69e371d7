"""An argument a command refuses is said with what to do (`core/cli/argument_advice.py`): a folder or file given
without the option the command takes it by names that option; an option of another command says which commands
take it, or how to do the same; a misspelt option names the close one; a name that begins with a dash is shown
after `--`. argparse's own words come first, its exit status stays 2. Found by following the README's tour of
the command line as a user would, with a dataset, a project and a run folder at hand."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.cli.command import build_parser, main
from recordlens.core.resource_files import resource_path

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def at_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder, the current one, holding a dataset `ds` (ds/html, ds/gt), a project `P` and a run folder `run1`."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(DEMO, tmp_path / "ds")
    assert main(["project", "init", "P"]) == 0
    (tmp_path / "run1").mkdir()
    (tmp_path / "run1" / "1.json").write_text("[]", encoding="utf-8")
    capsys.readouterr()
    return tmp_path


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The last line `recordlens ARGV` wrote as argparse refused it (exit 2)."""
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: recordlens "), err
    return err.rstrip().splitlines()[-1]


def test_a_folder_given_without_its_option_names_the_option(at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "extract", "ds/html", "--out", "run2")
    assert said.startswith("recordlens extract: error: unrecognized arguments: ds/html")
    assert "ds/html is a folder: give it as --pages ds/html" in said
    # the option is chosen by what the folder holds: predictions (N.json) go where the command takes them
    said = refused(capsys, "runs", "--project", "P", "run1")
    assert "run1 is a folder: give it as --add run1" in said
    said = refused(capsys, "score", "--gt", "ds/gt", "--pages", "ds/html", "run1")
    assert "give it as --pred run1" in said
    # an option already given is not offered again: the second folder goes where the first could not (run1 holds
    # predictions but no run: extract refuses it as its run folder, and says so, with a new one)
    said = refused(capsys, "extract", "--pages", "ds/html", "run1")
    assert "run1 is a folder extract refuses as --out: " in said and "give a new one, as --out run1-2" in said


def test_a_dataset_or_its_pages_given_without_options_name_both_options(
        at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["labels", "check"], ["train"], ["synth"]):
        said = refused(capsys, *command, "ds")
        assert "ds is a dataset: give it as --pages ds/html --gt ds/gt" in said, said
        said = refused(capsys, *command, "ds/html")
        assert "give it as --pages ds/html --gt ds/gt" in said, said
    hint = re.search(r"give it as (--pages \S+ --gt \S+)", said)
    assert hint is not None
    args = build_parser().parse_args(["synth", *shlex.split(hint.group(1))])  # the advice reads as it says
    assert (args.pages, args.gt) == ("ds/html", "ds/gt")


def test_a_project_given_without_its_option_is_named_a_project(at_hand: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    # argparse first says what is missing (--project is required): the stray folder is what it is missing
    said = refused(capsys, "runs", "P")
    assert said.startswith("recordlens runs: error: the following arguments are required: --project")
    assert "P is a project: give it as --project P" in said
    said = refused(capsys, "agent", "eval", "P")
    assert "P is a project: give it as --project P" in said
    said = refused(capsys, "runs", "P/snapshots")  # its saved copies, named by a hash: the project is meant
    assert "P/snapshots lies in the project P: give the project as --project P" in said
    # a project is no folder of pages: extract, which takes none, is not told to read one as its pages
    assert "--pages P" not in refused(capsys, "extract", "P", "--out", "run2")


def test_a_file_is_offered_only_an_option_that_reads_a_file(at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (at_hand / "tasks.jsonl").write_text("", encoding="utf-8")
    said = refused(capsys, "agent", "run", "--project", "P", "--site", "ds", "tasks.jsonl")
    assert "tasks.jsonl is a file: give it as --tasks tasks.jsonl" in said
    # an option that writes its file would write over it: never offered for a file that is there
    said = refused(capsys, "represent", "ds/html/1.html", "ds/html/2.html")
    assert "--out" not in said


def test_extract_given_a_project_says_how_its_run_goes_into_one(at_hand: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "extract", "--project", "P")
    assert said.startswith("recordlens extract: error: unrecognized arguments: --project P")
    assert "extract takes no --project" in said
    assert "`recordlens runs --project P --add RUN`" in said
    assert_every_command_named_parses(said)
    said = refused(capsys, "bench", "--project", "P")
    assert "bench takes no --project" in said and "recordlens export --project P --format nexteval" in said
    assert_every_command_named_parses(said)


def test_the_ways_with_a_project_are_of_commands_that_take_none() -> None:
    from recordlens.core.cli.argument_advice import WITH_A_PROJECT, CommandParser

    parser = build_parser()
    commands = {command.name: command for command in parser._subparsers._group_actions[0].choices.values()
                if isinstance(command, CommandParser)}
    for name in WITH_A_PROJECT:
        assert commands[name].option("--project") is None, name


def assert_every_command_named_parses(said: str) -> None:
    """Each `recordlens ...` the advice names is a command line the parser takes (options of that command)."""
    named = re.findall(r"`recordlens ([^`]*)`", said)
    assert named, said
    for command in named:
        build_parser().parse_args(shlex.split(command.replace("RUN", "run").replace("DIR", "d").replace("ID", "1")))


def test_an_option_of_other_commands_names_them(at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "represent", "ds/html/1.html", "--gt", "ds/gt")
    assert "represent takes no --gt" in said
    assert re.search(r"--gt is an option of [^;]*\blabels check\b", said), said
    assert re.search(r"--gt is an option of [^;]*\bscore\b", said), said
    # and a folder given by another command's option is said as one given without its option
    said = refused(capsys, "runs", "--project", "P", "--pred", "run1")
    assert "runs takes no --pred (--pred is an option of score); run1 is a folder: give it as --add run1" in said


def test_an_option_given_to_a_command_that_takes_the_value_without_one(
        at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "inspect", "--pages", "ds/html/1.html")
    assert "inspect takes no --pages: its PAGE_OR_MODEL is given without an option, as in " \
           "`recordlens inspect ds/html/1.html`" in said
    for given in (["--project", "P2"], ["--project=P2"]):
        said = refused(capsys, "project", "init", *given)
        assert "project init takes no --project: its DIR is given without an option, as in " \
               "`recordlens project init P2`" in said


def test_a_misspelt_option_names_the_close_one(at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "extract", "--pgaes", "ds/html", "--out", "run2")
    assert "--pgaes: did you mean --pages?" in said
    assert "is a folder" not in said  # its value is the misspelt option's, not a folder given alone
    said = refused(capsys, "project", "remove-page", "--projct", "P", "1")
    assert "--projct: did you mean --project?" in said
    assert "after `--`" not in said  # an option misspelt is no page name that begins with a dash
    # a unique start of an option is the option, as argparse takes it
    assert build_parser().parse_args(["extract", "--page", "ds/html", "--out", "run2"]).pages == "ds/html"


def test_a_name_that_begins_with_a_dash_is_shown_after_double_dash_by_every_command(
        at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "import", "--project", "P", "-x.html")
    assert "give it after `--`, as in `recordlens import --project P -- -x.html`" in said


def test_an_action_refuses_a_word_too_many_itself(at_hand: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = refused(capsys, "project", "init", "P2", "extra")
    assert said == "recordlens project init: error: unrecognized arguments: extra"


def test_the_installed_command_says_it_and_exits_2(at_hand: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "recordlens.core.cli.command", "extract", "ds/html", "--out",
                           "run1"], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.rstrip().splitlines()[-1] == ("recordlens extract: error: unrecognized arguments: ds/html; "
                                                     "ds/html is a folder: give it as --pages ds/html")
