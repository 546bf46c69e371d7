"""The hint for a page name that begins with a dash suggests a command that works: `--` after every option, an
abbreviated one (`--proj`, which argparse takes for `--project`) and `--opt=value` included."""

from __future__ import annotations

import re
import shlex

import pytest

from recordlens.core.cli.command import main


def suggested(capsys: pytest.CaptureFixture[str], *given: str) -> list[str]:
    with pytest.raises(SystemExit):
        main(["project", "remove-page", *given])
    found = re.search(r"give it after `--`, as in `([^`]*)`", capsys.readouterr().err)
    assert found, "no hint"
    return shlex.split(found.group(1))[1:]  # without "recordlens"


@pytest.mark.parametrize("given", [("--proj", "P", "-dash"), ("-dash", "--proj", "P"), ("--proj=P", "-dash"),
                                   ("-dash", "--project", "P")])
def test_the_command_suggested_reads_the_name_as_a_page(capsys: pytest.CaptureFixture[str],
                                                          given: tuple[str, ...]) -> None:
    command = suggested(capsys, *given)
    assert command[-2:] == ["--", "-dash"] and command[2] != "--"

    # what it reads: argparse finds the page and the project, and the command goes as far as opening the project
    assert main(command) == 2
    err = capsys.readouterr().err
    assert "usage:" not in err and "there is no folder P" in err
