"""A page whose saved copy is gone from `snapshots/` (deleted by hand), in a project whose folder's name holds a byte
that is not UTF-8 and a space: `labels check --project` names the copy as a hint names a path
(`command_hints.hint_path`: `"$(printf %b '…/caf\\0351/my project/…')"`), never its raw bytes (which a UTF-8 terminal
cannot show), under a UTF-8 locale (C.UTF-8) as under the C locale; and in the very words `score --project` lists the
page with (`Project.saved_copy_problem`, the one home of them). Each command runs as a process of its own."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.command_hints import hint_path
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, EXTRACT
from tests.core.test_summaries_name_paths_as_hints import recordlens
from tests.shell_words import made_folder

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The demo project in `caf\\xe9/my project`, with run 1 (mdr) of its pages stored, and page 3's saved copy
    deleted; and that copy's path."""
    named = tmp_path_factory.mktemp("copies") / os.fsdecode(b"caf\xe9")
    made_folder(named)
    folder = named / "my project"
    assert main(["project", "init", str(folder)]) == 0
    assert main(["import", str(DEMO), "--project", str(folder), "-q"]) == 0
    assert main([*EXTRACT, str(named / "run"), "-q"]) == 0
    assert main(["runs", "--project", str(folder), "--add", str(named / "run")]) == 0
    with open_project(folder) as opened:
        copy = opened.snapshot_file("3")
    copy.unlink()
    return folder, copy


@pytest.mark.parametrize("locale", ["C.UTF-8", "C"])
def test_labels_check_names_a_missing_copy_as_a_hint(project: tuple[Path, Path], locale: str) -> None:
    folder, copy = project
    hint = hint_path(copy)
    assert hint.startswith('"$(printf %b ') and "my project" in hint and "\\0351" in hint
    code, out, err = recordlens(locale, "labels", "check", "--project", folder)
    assert code == 1, err
    assert f"page 3: cannot be checked: its saved copy {hint} is missing" in out, out


def test_labels_check_and_score_say_a_missing_copy_in_the_same_words(project: tuple[Path, Path]) -> None:
    folder, copy = project
    code, out, err = recordlens("C.UTF-8", "labels", "check", "--project", folder, "--json")
    assert code == 1, err
    checked = json.loads(out)["unreadable"]
    code, out, err = recordlens("C.UTF-8", "score", "--project", folder, "--run", "1", "-q", "--json")
    assert code == 1, err
    why = json.loads(out)["pages_not_read"]["3"]
    assert hint_path(copy) in why
    assert checked == [f"page 3: cannot be checked: {why}"]
