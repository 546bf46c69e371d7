"""A command the packaged folder advises names its program by its whole path: the folder puts no `recordlens` on
PATH, so "create one with `recordlens project init DIR`" could not be typed as said. Frozen is what PyInstaller's
loader sets (`sys.frozen`, and `sys.executable` the program running), set here by hand."""

from __future__ import annotations

import shlex
import sys

import pytest

from recordlens.core.cli import main as core_main
from recordlens.core.command_hints import command_name, hint_words

FOLDER = "/opt/it's RecordLens"  # a space and a quote: the name must still be one word to the shell


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", f"{FOLDER}/recordlens-annotator")


def test_installed_by_pip_a_program_is_named_as_typed_on_path() -> None:
    assert not getattr(sys, "frozen", False)
    assert command_name() == "recordlens" and command_name("recordlens-annotator") == "recordlens-annotator"
    assert hint_words(["recordlens", "project", "init", "my p"]) == "recordlens project init 'my p'"


@pytest.mark.usefixtures("frozen")
def test_frozen_a_program_is_named_by_its_path_beside_the_one_running() -> None:
    assert shlex.split(command_name()) == [f"{FOLDER}/recordlens"]
    assert shlex.split(command_name("recordlens-annotator")) == [f"{FOLDER}/recordlens-annotator"]
    said = hint_words(["recordlens", "project", "init", "my p"])
    assert shlex.split(said) == [f"{FOLDER}/recordlens", "project", "init", "my p"]
    assert hint_words(["--between", "recordlens"]) == "--between recordlens"  # a program's name only comes first


@pytest.mark.usefixtures("frozen")
def test_the_frozen_command_line_advises_the_command_by_its_path(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        core_main(["project", "init", "-proj"])  # a name beginning with a dash: the advice is a whole command
    advice = capsys.readouterr().err.rsplit("as in `", 1)[1].rstrip().removesuffix("`")
    assert shlex.split(advice) == [f"{FOLDER}/recordlens", "project", "init", "--", "-proj"]
