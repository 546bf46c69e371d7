"""Catalogue pages made by the tests of the learned extractor ("selector") and of training it, so that a labelling
policy is built by construction: a seeded generator of pages with a navigation bar, a main grid of cards and a
secondary list beside it; the pages as training examples, as a dataset folder, and as projects of them."""

from __future__ import annotations

import random
from pathlib import Path

from recordlens.core.extract.training import FitConfig, LabelledPage
from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import save_records
from recordlens.core.store import import_paths, init_project
from recordlens.core.store.db import Provenance

SMALL = FitConfig(trees=40, depth=3, bags=4, bag_share=0.8)  # quick to fit; four members are enough to test bagging


def catalogue(rng: random.Random) -> tuple[str, list[list[str]], list[list[str]]]:
    """(html, main records, secondary records) of one generated page."""
    nav = "".join(f'<li><a href="/c{i}">Section {i}</a></li>' for i in range(rng.randint(4, 7)))
    cards = rng.randint(5, 12)
    grid = "".join(
        f'<div class="card"><h3>Item {i}</h3><span>{rng.randint(1, 99)}.00</span><p>Note {i} about it</p>'
        f'<a href="/i/{i}">more</a></div>' for i in range(cards))
    side = rng.randint(3, 6)
    related = "".join(f'<li><a href="/r/{i}">Related {i}</a><small>{i} views</small></li>' for i in range(side))
    html = (f"<!DOCTYPE html><html><head><title>t</title></head><body><header><nav><ul>{nav}</ul></nav></header>"
            f"<main><div class=\"grid\">{grid}</div><aside><h4>See also</h4><ul>{related}</ul></aside></main>"
            f"<footer><p>Contact</p><p>Terms</p></footer></body></html>")
    main = [[f"/body[1]/main[1]/div[1]/div[{i + 1}]"] for i in range(cards)]
    secondary = [[f"/body[1]/main[1]/aside[1]/ul[1]/li[{i + 1}]"] for i in range(side)]
    return html, main, secondary


def labelled_pages(seed: int, count: int, with_secondary: bool) -> list[LabelledPage]:
    """`count` generated pages as training examples, labelled with their main records (and their secondary ones
    too, `with_secondary`)."""
    rng = random.Random(seed)
    pages = []
    for k in range(count):
        html, main, secondary = catalogue(rng)
        pages.append(LabelledPage(str(k), parse_html(html), main + (secondary if with_secondary else [])))
    return pages


def write_dataset(root: Path, pages: list[LabelledPage], seed: int) -> tuple[Path, Path]:
    """As many generated pages as `pages` holds, written as a dataset in `root` with their main records as labels;
    its html and gt folders."""
    rng = random.Random(seed)
    for k in range(len(pages)):
        html, main, secondary = catalogue(rng)
        (root / "html").mkdir(parents=True, exist_ok=True)
        (root / "html" / f"{k}.html").write_text(html, encoding="utf-8")
        save_records(root / "gt" / f"{k}.json", main)
    return root / "html", root / "gt"


def project_with_policy(folder: Path, *, with_secondary: bool, labelled: int = 8) -> tuple[Path, list[list[str]]]:
    """`labelled` labelled pages (their labels with or without the secondary list) and a new page after them;
    its secondary list."""
    rng = random.Random(5)
    data = folder.parent / f"{folder.name}-data"
    (data / "html").mkdir(parents=True)
    for k in range(labelled + 1):
        html, main, secondary = catalogue(rng)
        (data / "html" / f"{k}.html").write_text(html, encoding="utf-8")
        if k < labelled:
            save_records(data / "gt" / f"{k}.json", main + (secondary if with_secondary else []))
    with init_project(folder) as project:
        assert not import_paths(project, [data]).problems
    return folder, secondary


def six_pages_and_page_4_in_progress(tmp_path: Path) -> Path:
    """A project (tmp_path/p) of six pages imported with their labels (labelled), page 4 set back to in progress."""
    pages, _ = write_dataset(tmp_path / "data", [None] * 6, seed=5)  # type: ignore[list-item]
    with init_project(tmp_path / "p") as project:
        assert not import_paths(project, [pages.parent]).problems
        project.set_status("4", "proposed", Provenance.person("ana"))
    return tmp_path / "p"
