"""A candidates file whose bytes are not UTF-8 (saved in a legacy encoding, or not a candidates file at all) is said
as such, naming the file and where its first such byte is, by every command that reads one: before, Python's
UnicodeDecodeError came through as a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.cli_runs import run

LATIN_1_LINE = ('{"id": "gen-1", "instruction": "Caf\u00e9 prices?", "answer": "3", "site": "s", '
                '"category": "lookup", "status": "candidate"}\n').encode("latin-1")


@pytest.mark.parametrize("command", [("agent", "tasks", "report"), ("agent", "tasks", "export", "--out", "OUT")])
def test_a_candidates_file_in_latin_1_is_named_as_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            command: tuple[str, ...]) -> None:
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_bytes(LATIN_1_LINE)
    argv = [str(tmp_path / "tasks.jsonl") if word == "OUT" else word for word in command]
    code, out, err = run(capsys, *argv, "--candidates", str(candidates))
    assert code == 2 and out == "", err
    assert err == (f"recordlens: error: cannot read the candidates file {candidates}: it is not UTF-8 text (byte "
                   f"{LATIN_1_LINE.index(0xE9) + 1} is 0xe9); a candidates file is UTF-8 JSON, one candidate a "
                   "line\n")
    assert not (tmp_path / "tasks.jsonl").exists()
