"""A nexteval export never writes over a dataset (a page unlabelled since the earlier export would keep its old
`gt/N.json` and score as ground truth), unlike a jsonl or csv export, which replaces its one file. So a second
nexteval export into the same `--out` is refused, and the refusal says what to do: choose another folder, or remove
that one when it holds only the earlier export."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from tests.core.cli_runs import demo_project, run


def test_a_second_nexteval_export_into_the_same_folder_says_to_choose_another_or_remove_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    out = tmp_path / "dataset"
    export = ("export", "--project", str(project), "--format", "nexteval", "--out", str(out))
    assert run(capsys, *export)[0] == 0
    before = sorted(path.relative_to(out) for path in out.rglob("*"))

    code, _, err = run(capsys, *export)

    assert code == 2, err
    assert f"{hint_path(out)} already holds a dataset; export into an empty folder" in err, err
    assert "choose another --out, or remove that one first if it holds only an earlier export" in err, err
    assert sorted(path.relative_to(out) for path in out.rglob("*")) == before  # nothing written over


def test_a_second_jsonl_export_into_the_same_folder_replaces_its_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, tmp_path / "P")
    export = ("export", "--project", str(project), "--format", "jsonl", "--out", str(tmp_path / "out"))
    assert run(capsys, *export)[0] == 0
    code, _, err = run(capsys, *export)
    assert code == 0, err
