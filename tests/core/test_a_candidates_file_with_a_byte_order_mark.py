"""A candidates file saved with a byte order mark (a Windows editor's UTF-8) is read as a tasks file is: the mark is
no part of its first line. Before, `load_candidates` read plain UTF-8 and the first candidate failed as bad JSON;
a byte that is not UTF-8 after the mark is still said where it is in the file."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, load_candidates, save_candidates
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO_TASKS = resource_path("agent", "demo-tasks.jsonl")
# A line in Latin-1: its é is no UTF-8
LINE = ('{"id": "gen-1", "instruction": "Caf\u00e9 prices?", "answer": "3", "site": "s", "category": "lookup", '
        '"status": "candidate"}\n')


def test_a_candidates_file_with_a_byte_order_mark_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    candidates = tmp_path / "candidates.jsonl"
    written = [Candidate(task=task) for task in load_tasks(DEMO_TASKS)[:2]]
    save_candidates(candidates, written)
    candidates.write_bytes(codecs.BOM_UTF8 + candidates.read_bytes())  # as a Windows editor saves it
    assert load_candidates(candidates) == written
    code, out, err = run(capsys, "agent", "tasks", "report", "--candidates", str(candidates))
    assert code == 0 and "error" not in err, err


def test_a_byte_not_utf8_after_the_mark_is_counted_from_the_files_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    candidates = tmp_path / "candidates.jsonl"
    data = codecs.BOM_UTF8 + LINE.encode("latin-1")
    candidates.write_bytes(data)
    code, out, err = run(capsys, "agent", "tasks", "report", "--candidates", str(candidates))
    assert code == 2 and out == "", err
    assert err == (f"recordlens: error: cannot read the candidates file {candidates}: it is not UTF-8 text (byte "
                   f"{data.index(0xE9) + 1} is 0xe9); a candidates file is UTF-8 JSON, one candidate a line\n")
