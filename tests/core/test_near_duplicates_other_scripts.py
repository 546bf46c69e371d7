"""`agent tasks filter` marked two different Arabic questions ("what does the smartphone cost?", "who wrote this
book?") as one question with another answer, at 0.908, where the same English pair scores 0.026: the shipped
WordLlama reads the Latin script only, and any two texts in another come out alike. A pair with a text written
mostly outside the embedder's scripts is now judged by its wording (character 3-grams): distinct questions are kept,
near-verbatim repeats are still marked, and the mark says how it was made. Latin text is the embedder's as before."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.model import Task
from recordlens.core.agent.near_duplicates import (
    BY_WORDING,
    SentenceTransformerEmbedder,
    WordLlamaEmbedder,
    filter_near_duplicates,
    similarity,
    wording_note,
    wording_similarity,
)

# Distinct questions the shipped embedder found alike (its cosine in the comment): the price of a thing against the
# author of a book, in each script
DISTINCT = [
    ("ما سعر الهاتف الذكي؟", "من هو مؤلف هذا الكتاب؟"),  # Arabic 0.91
    ("כמה עולה המצלמה?", "מי כתב את הספר הזה?"),  # Hebrew 0.78
    ("東京の明日の天気は何ですか？", "カメラの価格はいくらですか？"),  # Japanese 0.62
    ("카메라 가격은 얼마입니까?", "이 책의 저자는 누구입니까?"),  # Korean 0.83
    ("कैमरे की कीमत क्या है?", "इस किताब के लेखक कौन हैं?"),  # Hindi 0.84
    ("Πόσο κοστίζει η κάμερα;", "Ποιος έγραψε αυτό το βιβλίο;"),  # Greek 0.61
    ("กล้องราคาเท่าไหร่", "ใครเป็นผู้เขียนหนังสือเล่มนี้"),  # Thai 0.78
]


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def task(ident: str, instruction: str, answer: str, kind: str = "text") -> Task:
    return Task(id=ident, instruction=instruction, answer=answer, category="lookup", answer_kind=kind)


@pytest.mark.parametrize(("first", "second"), DISTINCT)
def test_distinct_questions_in_other_scripts_are_kept(embedder: WordLlamaEmbedder, first: str, second: str) -> None:
    # The same answer, so that only the words can keep them apart
    out = filter_near_duplicates([Candidate(task("c1", first, "x")), Candidate(task("c2", second, "x"))], embedder)
    assert [c.status for c in out] == ["candidate", "candidate"]
    assert wording_similarity(first, second) < 0.5


def test_the_verifiers_arabic_pair_is_no_longer_the_same_question_with_another_answer(
        embedder: WordLlamaEmbedder) -> None:
    price = task("a1", "ما سعر الهاتف الذكي؟", "١٢٠٠ ر.س")
    author = task("a2", "من هو مؤلف هذا الكتاب؟", "نجيب محفوظ")
    assert similarity(embedder, price.instruction, author.instruction) > 0.8  # the embedder alone: "the same"
    out = filter_near_duplicates([Candidate(price), Candidate(author)], embedder)
    assert [c.status for c in out] == ["candidate", "candidate"]


def test_a_near_verbatim_repeat_in_another_script_is_marked_saying_how(embedder: WordLlamaEmbedder) -> None:
    seed = task("lookup-1", "ما سعر الهاتف الذكي؟", "1200 ر.س")
    again = task("c1", "ما هو سعر الهاتف الذكي ؟", "1200 ر.س")  # "what is" for "what", a space before the mark
    marked = filter_near_duplicates([Candidate(again)], embedder, kept=[seed])[0]
    assert marked.status == "similar" and marked.similar_to == "lookup-1"
    assert 0.8 <= marked.similarity < 1
    assert marked.filter is not None and marked.filter.embedder == BY_WORDING
    assert marked.reason.startswith(f"similarity {marked.similarity:.3f} to lookup-1 (threshold 0.8); compared by "
                                    f"{BY_WORDING} (their wording), a text being written mostly outside the Latin "
                                    f"script {embedder.name} reads")


def test_only_the_same_words_ask_the_same_question_whatever_the_answers(embedder: WordLlamaEmbedder) -> None:
    # By wording alone a close text may differ in just the item asked about: answered otherwise, it is kept ...
    seed = task("lookup-1", "ما سعر الهاتف الذكي؟", "١٢٠٠ ر.س")
    close = filter_near_duplicates([Candidate(task("c1", "ما هو سعر الهاتف الذكي ؟", "٩٩ ر.س"))], embedder,
                                   kept=[seed])[0]
    assert close.status == "candidate"
    # ... while the very same words (case, punctuation and spacing aside) with another answer are marked for review
    same = filter_near_duplicates([Candidate(task("c2", "ما سعر  الهاتف الذكي", "٩٩ ر.س"))], embedder,
                                  kept=[seed])[0]
    assert same.status == "similar" and same.similarity == 1
    assert "the same question with another answer ('٩٩ ر.س' against '١٢٠٠ ر.س'): check both" in same.reason


def test_latin_text_is_still_judged_by_the_embedder(embedder: WordLlamaEmbedder) -> None:
    seed = task("lookup-1", "Who founded Alder?", "Ada", "name")
    again = task("c1", "Which person founded Alder?", "Ada Smith", "name")
    marked = filter_near_duplicates([Candidate(again)], embedder, kept=[seed])[0]
    assert marked.status == "similar" and marked.similarity == pytest.approx(similarity(
        embedder, seed.instruction, again.instruction), abs=1e-4)
    assert marked.filter is not None and marked.filter.embedder == embedder.name
    assert "character" not in marked.reason
    # A Latin text against one in another script: by wording, which they do not share
    arabic = task("c2", "من أسس ألدر؟", "Ada", "name")
    assert filter_near_duplicates([Candidate(arabic)], embedder, kept=[seed])[0].status == "candidate"


def test_the_command_is_told_once_and_pointed_at_a_multilingual_embedder(embedder: WordLlamaEmbedder) -> None:
    english = [task("e1", "Who founded Alder?", "Ada"), task("e2", "What does the Alder Kettle cost?", "$24.50")]
    assert wording_note(embedder, english) == ""
    note = wording_note(embedder, [*english, task("a1", DISTINCT[0][0], "x"), task("a2", DISTINCT[0][1], "y")])
    assert note.startswith(f"2 tasks written mostly outside the Latin script {embedder.name} reads were compared "
                           f"by their {BY_WORDING}")
    assert "give --embedder a multilingual sentence-transformers model folder" in note


class _AnyScript:
    """An embedder that says nothing of its scripts: it reads every text, as before (test fakes, other models)."""

    name = "fake"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[1.0, 0.0] for _ in texts]


def test_an_embedder_that_names_no_scripts_judges_every_text() -> None:
    first, second = DISTINCT[0]
    out = filter_near_duplicates([Candidate(task("c1", first, "x")), Candidate(task("c2", second, "x"))],
                                 _AnyScript())
    assert [c.status for c in out] == ["candidate", "similar"] and out[1].filter.embedder == "fake"
    assert wording_note(_AnyScript(), [task("c1", first, "x")]) == ""
    assert SentenceTransformerEmbedder.scripts is None  # a model the user chose reads what it was chosen for
