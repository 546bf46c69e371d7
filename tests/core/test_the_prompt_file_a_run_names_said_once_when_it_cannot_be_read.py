"""Why the prompt file a run names cannot tell an older hash of its texts (`ResumedRun.prompt_problem`, said by
`score`, `runs --add` and a resume) names the file once, with what it is or why it cannot be read, as the prompt's
own reader says it (`prompt_from_file`, which refuses a FIFO or a folder unopened): a file read and refused was
named twice ("the prompt file the run names, P, cannot be read (cannot read the prompt file P: ...)"), while a FIFO
or a folder, asked of first apart, was named once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from recordlens.core.extract.gemini import PROMPT_SHA256, PROMPT_SOURCE
from recordlens.core.runs.run_files import ResumedRun

pytestmark = pytest.mark.timeout(120)  # a FIFO opened for reading would be waited on for ever


def _problem(tmp_path: Path, prompt: Path) -> str | None:
    """What the run in a folder whose run.json names `prompt` says of that file."""
    described = {"method": "gemini", "parameters": {PROMPT_SOURCE: str(prompt), PROMPT_SHA256: "0" * 64}}
    return ResumedRun.of(tmp_path / "run", described=described).prompt_problem


def test_a_prompt_file_that_is_not_utf8_is_named_once(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.md"
    prompt.write_bytes(b"Find the records: \xe9\n{input}\n")
    said = _problem(tmp_path, prompt)
    assert said is not None and said.count(str(prompt)) == 1, said
    assert said.startswith(f"the prompt file the run names, {prompt}, cannot be read ('utf-8' codec can't decode "
                           "byte 0xe9"), said


def test_an_empty_prompt_file_is_said_so(tmp_path: Path) -> None:
    prompt = tmp_path / "prompt.md"
    prompt.write_bytes(b"\n")
    assert _problem(tmp_path, prompt) == f"the prompt file {prompt} is empty"  # as the reader says it


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
def test_a_fifo_or_a_folder_is_said_as_what_it_is_unopened(tmp_path: Path) -> None:
    fifo, folder = tmp_path / "fifo.md", tmp_path / "folder.md"
    os.mkfifo(fifo)
    folder.mkdir()
    assert _problem(tmp_path, fifo) == (f"the prompt file the run names, {fifo}, cannot be read (a FIFO (named pipe), "
                                        "not a regular file)")
    assert _problem(tmp_path, folder) == (f"the prompt file the run names, {folder}, cannot be read (a folder, not a "
                                          "prompt file)")
    assert _problem(tmp_path, tmp_path / "gone.md") == (f"the prompt file the run names, {tmp_path / 'gone.md'}, is "
                                                        "gone (moved or deleted since)")
