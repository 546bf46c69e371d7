"""A selector model's name that is no file to read is said in one wording by every command given it: `inspect`
said of a folder "Cannot read … it is a folder, not a file." (a page's words) where `extract --model` said
"cannot read the model (a folder, not a regular file)"; and a symbolic link to nothing was "No such file or
directory", of a name that is there: it is now said as a link, with where it points."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.extract.selector_model import SelectorModel
from recordlens.core.file_kinds import read_regular_file
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symlinks as on POSIX"),
              pytest.mark.timeout(120)]  # a blocking read of the FIFO would wait for ever

DEMO_PAGES = resource_path("demo", "dataset") / "html"


def _folder(path: Path) -> str:
    path.mkdir()
    return "a folder, not a selector model"


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "a FIFO (named pipe), not a regular file"


def _link_to_nothing(path: Path) -> str:
    path.symlink_to(path.parent / "moved" / "model.json")
    return f"a symbolic link to a file that does not exist ({path.parent / 'moved' / 'model.json'})"


KINDS = {"folder": _folder, "fifo": _fifo, "link to nothing": _link_to_nothing}


@pytest.mark.parametrize("kind", list(KINDS))
def test_inspect_and_extract_say_a_model_that_cannot_be_read_alike(kind: str, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "model.json"
    what = KINDS[kind](model)
    said = f"error: {model}: cannot read the model ({what})\n"
    code, out, err = run(capsys, "inspect", str(model))
    assert (code, out) == (2, "") and err.endswith(said), err
    code, _, err = run(capsys, "extract", "--model", str(model), "--pages", str(DEMO_PAGES), "--out",
                       str(tmp_path / "run"))
    assert code == 2 and err.endswith(said), err


def test_a_project_given_to_inspect_for_its_model_is_said_as_extract_says_it(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]
                                                                             ) -> None:
    project = tmp_path / "p"
    (project / "models").mkdir(parents=True)
    SelectorModel([]).save(project / "models" / "selector.json")
    said = (f"error: {project} is a folder, not a selector model file (the project's own model is "
            f"{project / 'models' / 'selector.json'})\n")
    code, _, err = run(capsys, "inspect", str(project))
    assert code == 2 and err.endswith(said), err


def test_a_link_to_nothing_is_said_where_it_points_by_the_reader_of_every_file(tmp_path: Path) -> None:
    link = tmp_path / "notes.json"
    link.symlink_to("gone/notes.json")
    with pytest.raises(FileNotFoundError) as raised:
        read_regular_file(link)
    assert raised.value.strerror == "a symbolic link to a file that does not exist (gone/notes.json)"
    with pytest.raises(FileNotFoundError) as raised:
        read_regular_file(tmp_path / "nothing.json")  # nothing there at all: as before
    assert raised.value.strerror == "No such file or directory"
