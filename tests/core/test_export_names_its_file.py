"""`export --format jsonl|csv --out DIR` writes DIR/labels.jsonl (or .csv) and names that file, not the folder: an
`--out labels.jsonl` made a folder of that name with the file inside, while the closing line said "to labels.jsonl"."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from tests.core.cli_runs import DEMO, run


@pytest.fixture
def project(tmp_path: Path) -> Path:
    assert main(["project", "init", str(tmp_path / "p")]) == 0
    assert main(["import", str(DEMO), "--project", str(tmp_path / "p"), "-q"]) == 0
    return tmp_path / "p"


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_closing_line_names_the_file_written(project: Path, tmp_path: Path, fmt: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    out = tmp_path / f"labels.{fmt}"  # a name that reads as a file: --out is still the folder it goes in
    code, said, _ = run(capsys, "export", "--project", str(project), "--format", fmt, "--out", str(out), "-q")
    assert code == 0
    written = out / f"labels.{fmt}"
    assert written.is_file()
    assert said.rstrip().endswith(f" as {fmt} to {written}")


def test_a_nexteval_export_names_its_folder(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    code, said, _ = run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out",
                        str(tmp_path / "ds"), "-q")
    assert code == 0 and said.rstrip().endswith(f" as nexteval to {tmp_path / 'ds'}")
