"""A training killed while it wrote the project's model (kill -9) left a hidden temporary file of a whole model's
size in `models/` (`..selector.json.new.RANDOM.tmp`), which no later training removed or named. The next training,
holding the training lock that every writer of those files holds, removes them whatever their age, and says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.store import train_on_project
from tests.core.catalogue_pages import project_with_policy

pytestmark = pytest.mark.usefixtures("quick_fits")


def test_a_killed_writes_leftovers_go_with_the_next_training(tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=2)
    models = folder / "models"
    models.mkdir(exist_ok=True)
    temporary = models / "..selector.json.new.ab12cd_9.tmp"  # as atomic names a write of `.selector.json.new`
    temporary.write_bytes(b"{" * 3_000_000)
    set_aside = models / ".selector.forgotten.json.zz99yy88.tmp"
    set_aside.write_bytes(b"{}")
    unrenamed = models / ".selector.json.new"  # written whole, killed before the rename
    unrenamed.write_bytes(b"{}")
    someone_elses = models / ".notes.txt"
    someone_elses.write_text("mine", encoding="utf-8")
    told: list[str] = []
    train_on_project(folder, seed=0, noted=told.append)
    assert not temporary.exists() and not set_aside.exists() and not unrenamed.exists()
    assert someone_elses.exists()
    assert told == [f"removed 3 hidden files (3.0 MB) in {models}, left by a training killed while it wrote the model "
                    "(kill -9)"]
    assert (models / "selector.json").is_file()
    assert not [path.name for path in models.iterdir() if path.name.endswith(".tmp")]


def test_nothing_left_nothing_said(tmp_path: Path) -> None:
    folder, _ = project_with_policy(tmp_path / "p", with_secondary=False, labelled=2)
    told: list[str] = []
    train_on_project(folder, seed=0, noted=told.append)
    assert told == []
