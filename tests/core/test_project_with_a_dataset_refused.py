"""`--project` with `--pages`/`--gt` is refused by synth, train and labels check in the same words, at once (one
refusal, `cli.output.refuse_a_project_with_a_dataset`), with no traceback and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")
REFUSED = "recordlens: error: give either --project DIR or --pages DIR --gt DIR, not both"


@pytest.mark.parametrize("command", [("synth", "--out", "OUT"), ("train", "--out", "OUT/model.json"),
                                     ("labels", "check")])
def test_a_project_with_a_dataset_is_refused_in_the_same_words(
        command: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [part.replace("OUT", str(tmp_path / "out")) for part in command]
    code, _, err = run(capsys, *argv, "--project", str(tmp_path / "p"), "--pages", str(DEMO / "html"), "--gt",
                       str(DEMO / "gt"))
    assert code == 2, err
    assert err.strip().splitlines()[-1] == REFUSED, err
    assert not (tmp_path / "out").exists()
