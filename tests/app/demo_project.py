"""The project most app tests open (the `project_dir` fixture of tests/app/conftest.py): page 1 the demo product
grid as MHTML, with its ground truth; page 2 a plain HTML list, no labels. With the XPaths tests point at on them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.store.project import Provenance
from tests.app.window_helpers import imported_project

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"

# Page 1, the demo grid: its header (no record), its cards (CARD.format(k), k from 1), the prices of the first two
# and the link in the third's title.
HEADER = "/body[1]/div[1]/header[1]"
CARDS = "/body[1]/div[1]/main[1]/div[2]"
CARD = CARDS + "/div[{}]"
PRICE_1 = f"{CARDS}/div[1]/div[1]/span[1]"
PRICE_2 = f"{CARDS}/div[2]/div[1]/span[1]"
LINK_3 = f"{CARDS}/div[3]/h3[1]/a[1]"

# Page 2, the list: a script that must not run, an image from elsewhere that is blocked, four items of a name and a
# price each (ITEM.format(k), k from 1).
LIST_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>List</title>
<script>document.documentElement.dataset.ran = "yes";</script></head><body>
<img src="https://images.example.com/banner.png" alt="">
<h1>Products</h1><ul>
<li><b>Camera</b> <i>$399</i></li><li><b>Lens</b> <i>$129</i></li><li><b>Tripod</b> <i>$59</i></li>
<li><b>Bag</b> <i>$35</i></li></ul><p>Prices include VAT.</p></body></html>"""
ITEM = "/body[1]/ul[1]/li[{}]"

# The provenance of the proposals a test puts on the pages: the MDR extractor's, as a run of it stores them.
MDR = Provenance.extractor("mdr", "0.3", "html")


# The project imported once per test process (in its own temporary folder), copied for each test.
_IMPORTED: list[Path] = []


def demo_project_in(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh copy of the demo project (dataset and project) in `folder`, and the project's own folder in it: one
    import per test process, every test its own copy without importing it again."""
    if not _IMPORTED or not _IMPORTED[0].is_dir():
        _IMPORTED[:] = [imported_project(tmp_path_factory.mktemp("imported"), {
            "html/1.mhtml": mhtml_bytes((DEMO / "html" / "1.html").read_text(encoding="utf-8"),
                                        url="https://shop.example.com/kitchen"),
            "gt/1.json": (DEMO / "gt" / "1.json").read_text(encoding="utf-8"),
            "html/2.html": LIST_PAGE,
        })]
    shutil.copytree(_IMPORTED[0].parent, folder, dirs_exist_ok=True)
    return folder / "project"
