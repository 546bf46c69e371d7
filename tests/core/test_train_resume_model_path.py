"""Resuming a run with the same model from another path keeps the path that made the run's pages, and says so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from recordlens.core.cli.command import main as cli_main
from recordlens.core.extract.selector import DEFAULT_MODEL
from tests.core.catalogue_pages import write_dataset


def test_resuming_with_the_same_model_from_another_path_keeps_the_first(tmp_path: Path, capsys) -> None:
    pages_dir, _ = write_dataset(tmp_path / "data", [None] * 2, seed=2)  # type: ignore[list-item]
    first, second = tmp_path / "m.json.gz", tmp_path / "elsewhere" / "m.json.gz"
    second.parent.mkdir()
    shutil.copyfile(DEFAULT_MODEL, first)
    shutil.copyfile(DEFAULT_MODEL, second)
    run = tmp_path / "run"
    assert cli_main(["extract", "--model", str(first), "--pages", str(pages_dir), "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert cli_main(["extract", "--model", str(second), "--pages", str(pages_dir), "--out", str(run), "-q"]) == 0
    said = capsys.readouterr().err
    described = json.loads((run / "_run" / "run.json").read_text(encoding="utf-8"))
    assert described["parameters"]["model"] == str(first.resolve()), described
    assert f"{second.resolve()} is the same model as {first.resolve()}, which made this run's pages" in said, said


def test_resuming_after_the_first_model_file_moved_names_the_path_that_holds_it_now(tmp_path: Path, capsys) -> None:
    pages_dir, _ = write_dataset(tmp_path / "data", [None] * 2, seed=2)  # type: ignore[list-item]
    first, second = tmp_path / "m.json.gz", tmp_path / "elsewhere" / "m.json.gz"
    second.parent.mkdir()
    shutil.copyfile(DEFAULT_MODEL, first)
    run = tmp_path / "run"
    assert cli_main(["extract", "--model", str(first), "--pages", str(pages_dir), "--out", str(run), "-q"]) == 0
    first.rename(second)  # moved: the run's pages were made by the model now at `second`
    capsys.readouterr()
    assert cli_main(["extract", "--model", str(second), "--pages", str(pages_dir), "--out", str(run), "-q"]) == 0
    described = json.loads((run / "_run" / "run.json").read_text(encoding="utf-8"))
    assert described["parameters"]["model"] == str(second.resolve())
    assert "the run keeps naming" not in capsys.readouterr().err
