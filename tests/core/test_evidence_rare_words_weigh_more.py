"""The evidence page of a number answer held by several pages: the question's words near an occurrence are weighed by
how few of the site's pages hold them (an IDF over the site's own texts). Counted alike, "the", "for" and "what"
near a vase's "30 cm" tied with "return", "shoes" and "days" near the returns page's "30 days", and the vase, first
in the site's order, was taken as the evidence."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.candidates import SiteText
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import mhtml_bytes

SHOP = "http://shop.example/"
PAGES = {  # the common words are on most pages; the question's own ("return", "shoes", "days") on few
    "": "<h1>Welcome to the shop</h1><p>What you need for the home, the garden and the table.</p>",
    "a-vase.html": "<h1>Vase</h1><p>Vase for the hall, 30 cm tall, the glaze is green; what a piece for the "
                   "home.</p>",
    "garden-shoes.html": "<h1>Shoes</h1><p>Shoes for the garden: what the rain cannot reach.</p>",
    "returns.html": "<h1>Returns</h1><p>Returns: you may send shoes back within 30 days of delivery.</p>",
    "about.html": "<h1>About the shop</h1><p>What we make, for whom, and the people behind the work.</p>",
}
TASK = Task(id="gen-rules-2", instruction="What is the return window for the shoes, in days?", answer="30",
            answer_kind="number", normalise=("numbers",), start_url=SHOP)


def _site(folder: Path):  # noqa: ANN202
    folder.mkdir()
    for i, (path, body) in enumerate(PAGES.items()):
        (folder / f"p{i}.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=SHOP + path))
    return build_site(folder)


def test_rare_words_near_the_answer_outweigh_common_ones(tmp_path: Path) -> None:
    site = _site(tmp_path / "site")
    text = SiteText(site)
    holding = [p.url for p in site.pages if p.url in {SHOP + "a-vase.html", SHOP + "returns.html"}]
    assert holding[0] == SHOP + "a-vase.html"  # first in the site's order: taken on a tie
    assert text.evidence_of(TASK) == (SHOP + "returns.html", 2)
    assert text.find("30") == SHOP + "a-vase.html"  # no question: the site's order, as before


def test_without_the_tasks_rules_too(tmp_path: Path) -> None:
    text = SiteText(_site(tmp_path / "site"))
    assert text.locate("30", (), first=SHOP, question=TASK.instruction) == (SHOP + "returns.html", 2)
