"""Synthetic pages load in QtWebEngine as HTML and as MHTML, and the browser builds the tree the core measured:
the same element XPaths in the same order, so every ground-truth XPath of an output names an element there."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.annotator.qt.page_scripts import browser_dom
from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import load_records
from recordlens.core.synth.pipeline import SynthOptions, dataset_sources, synthesise_dataset
from tests.app.demo_project import DEMO

pytestmark = pytest.mark.app

DEV_SAMPLE = ["1", "50", "100"]  # a table page, a grid of cards, a list with nested records


@pytest.fixture(scope="module")
def demo_variants(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("synth-demo")
    synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out, SynthOptions(variants=1, seed=3, rate=1.0))
    return out


def check_in_browser(offline_page, out: Path, name: str) -> None:
    html = (out / "html" / f"{name}.html").read_text(encoding="utf-8")
    truth = load_records(out / "gt" / f"{name}.json").records
    core = parse_html(html).element_xpaths()
    for load in (lambda: offline_page.load_html(html, f"{name}.html"),
                 lambda: offline_page.load_mhtml(out / "mhtml" / f"{name}.mhtml")):
        load()
        assert offline_page.wait_until_loaded(60_000), f"{name} did not load"
        browser = browser_dom(offline_page)
        assert browser.xpaths == core
        known = set(browser.xpaths)
        assert [x for record in truth for x in record if x not in known] == []


@pytest.mark.parametrize("name", ["1_s3_v1", "2_s3_v1", "3_s3_v1", "4_s3_v1"])  # seed 3 is in the names
def test_demo_variants_resolve_in_the_browser(offline_page, demo_variants: Path, name: str) -> None:
    check_in_browser(offline_page, demo_variants, name)


def test_dev_page_variants_resolve_in_the_browser(offline_page, dev_dir: Path, tmp_path: Path) -> None:
    sources = dataset_sources(dev_dir / "html", dev_dir / "gt", names=DEV_SAMPLE)
    synthesise_dataset(sources, tmp_path, SynthOptions(variants=1, seed=8, rate=1.0))
    for name in DEV_SAMPLE:
        check_in_browser(offline_page, tmp_path, f"{name}_s8_v1")
