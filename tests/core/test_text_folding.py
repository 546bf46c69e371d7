"""Text folding has two homes, one per job: a search's (`text_search.folded`: accents dropped, as a browser's find)
and an identity's or an answer's (`targets.folded`: Unicode compatibility form, case and spacing; accents kept,
as answers are scored). The agent's element identities, typed values and answer evidence fold one way."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent import candidates, targets
from recordlens.core.agent.candidates import SiteText
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.targets import Target, find_target, folded
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.text_search import folded as searched


def test_identities_fold_unicode_forms_case_and_spacing_but_keep_accents() -> None:
    assert folded("Ｓｅａｒｃｈ\u00a0 ﬁles") == folded("search files") == "search files"
    assert folded("Re\u0301sume\u0301") == folded("Résumé")  # decomposed as macOS saves it, composed as typed
    assert folded("Résumé") != folded("Resume")  # another word to an answer: kept apart
    assert searched("Résumé") == searched("resume")  # a search finds it all the same
    assert folded(None) == ""


def test_an_element_named_in_another_unicode_form_is_found() -> None:
    page = [Target(label=1, role="link", name="Ｆｉｌｅ list"), Target(label=2, role="link", name="Other")]
    assert find_target(Target(role="link", name="File List"), page) == page[0]


def test_answer_evidence_folds_as_identities_do(tmp_path: Path) -> None:
    assert not hasattr(candidates, "_folded")  # one home: targets.folded
    (tmp_path / "p.mhtml").write_bytes(mhtml_bytes("<html><body><p>Winner: Ｃａｆé  Noir</p></body></html>",
                                                   url="https://site.example/p", title="P"))
    text = SiteText(build_site(tmp_path, write=False))
    assert text.find("café noir") == "https://site.example/p"
    assert text.find("cafe noir") == ""  # an answer without its accent is scored wrong: no evidence either
    assert targets.folded is folded


def test_a_search_passes_over_hebrew_points_and_arabic_vowels_as_a_browser_find_does() -> None:
    """Typed without them (as a keyboard writes), a vocalised word is found; its letters still count."""
    assert searched("שלום") in searched("שָׁלוֹם עוֹלָם")
    assert searched("משה רבנו") in searched("מֹשֶׁה רַבֵּנוּ")
    assert searched("محمد علي") in searched("مُحَمَّد عَلِيّ")
    assert searched("הקרב") in searched("בֵּית־הַקְּרָב") and "־" in searched("בֵּית־הַקְּרָב")  # the maqaf is seen
    assert searched("שלום") not in searched("שָׁלוֹש")  # another letter is another word
    assert searched("が") != searched("か")  # a voicing mark still makes another word
