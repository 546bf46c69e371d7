"""A number answer is on many pages: "30" is the shipping page's "30 days" and a vase's "30 cm". The evidence used to
be the first page holding the answer as a word (the vase, for "How many days do I have to return an item?"); now
the pages holding it are ranked by how many of the question's words stand near the occurrence, and the candidate
says how many pages hold it."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.candidates import Candidate, SiteText, check_answers, load_candidates, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import mhtml_bytes

SHOP = "http://shop.example/"


def _site(folder: Path):  # noqa: ANN202
    pages = {"p1": ("", "<h1>Our shop</h1><p>Vases, bowls and cups, made by hand.</p>"),
             "p5": ("p5.html", "<h1>Tall vase</h1><p>Height: 30 cm. Glazed stoneware, an item for any shelf.</p>"),
             "p7": ("shipping.html", "<h1>Shipping and returns</h1><p>We ship in 2 days. You have 30 days to "
                                     "return an item for a full refund.</p>")}
    for name, (path, body) in pages.items():
        (folder / f"{name}.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=SHOP + path))
    return build_site(folder)


RETURNS = Task(id="gen-rules-1", instruction="How many days do I have to return an item?", answer="30",
               answer_kind="number", normalise=("numbers",), start_url=SHOP)


def test_the_evidence_is_the_page_where_the_questions_words_stand_near_the_answer(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    site = _site(tmp_path / "site")
    text = SiteText(site)
    assert text.locate(RETURNS.answer, RETURNS.normalise, first=SHOP, question=RETURNS.instruction) == \
        (SHOP + "shipping.html", 2)
    assert text.evidence(RETURNS) == SHOP + "shipping.html"
    assert text.find("30") == SHOP + "p5.html"  # no question: the site's order, as before

    (checked,) = check_answers([Candidate(RETURNS)], site)
    assert (checked.evidence, checked.evidence_pages) == (SHOP + "shipping.html", 2)
    assert checked.evidence_said == (f"{SHOP}shipping.html (1 of 2 pages holding the answer: the one with the most "
                                     "of the question's words near it, words rare on the site weighing more)")
    out = save_candidates(tmp_path / "c.jsonl", [checked])
    assert load_candidates(out)[0].evidence_pages == 2
    assert checked.reviewed("accepted", answer="31").evidence_pages is None  # looked for again with the answer


def test_one_page_holding_the_answer_says_no_count(tmp_path: Path) -> None:
    (checked,) = check_answers([Candidate(Task(id="t", instruction="What is sold?", answer="bowls",
                                               start_url=SHOP))], _site(tmp_path))
    assert (checked.evidence, checked.evidence_pages, checked.evidence_said) == (SHOP, 1, SHOP)
