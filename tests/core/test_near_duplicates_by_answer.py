"""The near-duplicate filter marked "How many litres does the Alder Kettle hold?" (gold 1.7) similar to the seed
"What is the price of the Alder Kettle?" (gold $24.50) at cosine 0.832: words alike, answers not. A task has one
exact answer, so two tasks whose gold answers differ after every normalisation rule ask two things and are not
compared; tasks whose answers agree, as written or after the rules, are compared as before."""

from __future__ import annotations

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.model import Task
from recordlens.core.agent.near_duplicates import WordLlamaEmbedder, answers_differ, filter_near_duplicates

PRICE = "What is the price of the Alder Kettle?"
VOLUME = "How many litres does the Alder Kettle hold?"


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def number_task(ident: str, instruction: str, answer: str) -> Task:
    return Task(id=ident, instruction=instruction, answer=answer, category="lookup", answer_kind="number")


def test_tasks_with_different_answers_are_not_near_duplicates(embedder: WordLlamaEmbedder) -> None:
    seed = number_task("lookup-1", PRICE, "$24.50")
    volume = number_task("gen-content-extraction-1", VOLUME, "1.7")
    assert filter_near_duplicates([Candidate(volume)], embedder, kept=[seed])[0].status == "candidate"
    # The same words with the seed's answer: compared, and found alike at the default threshold
    same_answer = number_task("c2", VOLUME, "$24.50")
    marked = filter_near_duplicates([Candidate(same_answer)], embedder, kept=[seed])[0]
    assert marked.status == "similar" and marked.similar_to == "lookup-1"


def test_answers_equal_after_the_rules_are_one_answer(embedder: WordLlamaEmbedder) -> None:
    seed = number_task("lookup-1", PRICE, "$24.50")
    paraphrase = number_task("c1", "What is the cost of the Alder Kettle?", "$24.5.")
    marked = filter_near_duplicates([Candidate(paraphrase)], embedder, kept=[seed])[0]
    assert marked.status == "similar" and marked.similar_to == "lookup-1"
    assert not answers_differ("Ada Smith", "ada  smith.") and not answers_differ("1,024", "1024")
    assert answers_differ("$24.50", "1.7") and answers_differ("4,213 papers", "4213")


def test_candidates_with_different_answers_are_not_compared_with_each_other(embedder: WordLlamaEmbedder) -> None:
    first = number_task("a", PRICE, "$24.50")
    volume = number_task("b", VOLUME, "1.7")
    out = filter_near_duplicates([Candidate(first), Candidate(volume)], embedder)
    assert [c.status for c in out] == ["candidate", "candidate"]


def test_the_same_question_asked_again_with_another_answer_is_marked_for_the_review(
        embedder: WordLlamaEmbedder) -> None:
    # A rewording (cosine 0.93, from SAME_WORDING up) answered otherwise: one of the two answers is probably wrong
    seed = Task(id="lookup-1", instruction="Who founded Alder?", answer="Ada", category="lookup", answer_kind="name")
    again = Task(id="c1", instruction="Which person founded Alder?", answer="Ada Smith", category="lookup",
                 answer_kind="name")
    marked = filter_near_duplicates([Candidate(again)], embedder, kept=[seed])[0]
    assert marked.status == "similar" and marked.similar_to == "lookup-1"
    assert "the same question with another answer ('Ada Smith' against 'Ada'): check both" in marked.reason
    same_words = filter_near_duplicates([Candidate(number_task("c2", PRICE, "$18.00"))], embedder,
                                        kept=[number_task("lookup-2", PRICE, "$24.50")])[0]
    assert same_words.status == "similar" and "another answer" in same_words.reason
