"""The shipped development datasets and the demo dataset list their pages in the order they had before page names
were sorted as a reader orders letters (`natural_key`): numbers as numbers. Cross-validation deals pages into
folds in that order, so their folds, and every figure measured on them, stay what they were."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recordlens.core.page.dataset import page_files, record_files
from tests.conftest import DEV, ROOT, SHARED_DATA, require_shared

MORE = SHARED_DATA / "nexteval-synth-more"
DEMO = ROOT / "resources" / "demo" / "dataset"


def numeric_order(name: str) -> tuple[object, ...]:
    """The order before: runs of digits as numbers, the rest as it is."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


@pytest.mark.parametrize("folder", [DEV, MORE, DEMO], ids=["nexteval-synth-dev", "nexteval-synth-more", "demo"])
def test_a_shipped_dataset_lists_its_pages_in_the_order_it_had(folder: Path) -> None:
    dataset = require_shared(folder) if folder.is_relative_to(SHARED_DATA) else folder  # CI: missing fails
    pages, labels = list(page_files(dataset / "html")), list(record_files(dataset / "gt"))
    assert len(pages) >= 4 and pages == sorted(pages, key=numeric_order)
    assert labels == sorted(labels, key=numeric_order)


def test_the_demo_dataset_s_pages_in_their_order() -> None:
    assert list(page_files(DEMO / "html")) == ["1", "2", "3", "4"]
