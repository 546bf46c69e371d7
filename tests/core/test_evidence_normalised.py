"""The evidence for a gold answer is looked for as the task would score it: under the task's normalisation rules
(the answer "4213" of a `numbers` task is on a page that says "4,213"), on the task's start page first."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.candidates import Candidate, SiteText, check_answers
from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.page.mhtml_writer import mhtml_bytes

HOME = "http://town.example/welcome"  # after legacy.html in the site's order
LEGACY = "http://town.example/legacy.html"


def _site(folder: Path):  # noqa: ANN202
    pages = {"a-legacy": (LEGACY, "<p>Население города: 4213 человек.</p>"),
             "b-home": (HOME, "<p>Population of Foo town: 4,213 people.</p>"),
             "c-other": ("http://town.example/other", "<p>Nothing to see.</p>")}
    for name, (url, body) in pages.items():
        (folder / f"{name}.mhtml").write_bytes(mhtml_bytes(f"<html><body>{body}</body></html>", url=url))
    return build_site(folder)


def test_the_evidence_applies_the_tasks_rules_and_looks_on_its_start_page_first(tmp_path: Path) -> None:
    site = _site(tmp_path)
    lookup = Task(id="gen-lookup-1", instruction="What is the population of Foo town according to the home page?",
                  answer="4213", answer_kind="number", normalise=("case", "numbers", "punctuation", "whitespace"),
                  start_url=HOME)
    literal = Task(id="t2", instruction="Population on the home page, as written?", answer="4,213",
                   normalise=("case", "whitespace"), start_url=HOME)
    elsewhere = Task(id="t3", instruction="?", answer="4213", normalise=("numbers",),
                     start_url="http://town.example/other")
    checked = check_answers([Candidate(lookup), Candidate(literal), Candidate(elsewhere)], site)
    assert [c.evidence for c in checked] == [HOME, HOME, LEGACY]  # not on its start page: the site's first
    text = SiteText(site)
    assert text.evidence(lookup) == HOME
    assert text.find("4213") == LEGACY  # no rules: as written
    assert text.find("4,213", ("numbers",)) == LEGACY  # "4,213" is 4213 under the rule, wherever it is written
    assert text.find("4,21", ("numbers",)) == ""
