"""The near-duplicate filter kept an exact duplicate (same instruction, same answer) when the model labelled one
answer "title" and the other "name"; and it refused a second generation round filtered against the first round's
tasks when a task repeated, because ids restart at gen-<category>-1 in every generation and the repeat looked like
the task itself. Now the same question with the same answer is a duplicate whatever its kind's label, and a repeat
of a task compared with is marked similar to it (a whole copy of the file is still refused)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from recordlens.core.agent.candidates import Candidate
from recordlens.core.agent.model import Task
from recordlens.core.agent.near_duplicates import filter_near_duplicates
from recordlens.core.errors import AgentError

VASE = "Which product is made of hand-blown glass?"


class _ByWords:
    """An embedder whose vector is the instruction's words: equal texts are at similarity 1."""

    name = "by words"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        vocabulary = sorted({w for t in texts for w in t.lower().split()})
        return [[float(w in t.lower().split()) for w in vocabulary] for t in texts]


def task(ident: str, instruction: str, answer: str, kind: str = "text") -> Task:
    return Task(id=ident, instruction=instruction, answer=answer, category="retrieval", answer_kind=kind)


def test_the_same_question_and_answer_is_a_duplicate_whatever_the_kinds_label() -> None:
    first = Candidate(task("gen-retrieval-1", VASE, "Iris Vase", "title"))
    second = Candidate(task("gen-retrieval-2", VASE, "Iris Vase", "name"))
    out = filter_near_duplicates([first, second], _ByWords())
    assert [c.status for c in out] == ["candidate", "similar"]
    assert out[1].similar_to == "gen-retrieval-1"
    # another answer of another kind to the same words still asks another thing
    year = Candidate(task("gen-retrieval-3", VASE, "1999", "date"))
    assert [c.status for c in filter_near_duplicates([first, year], _ByWords())] == ["candidate", "candidate"]


def test_a_later_round_repeating_a_task_is_marked_similar_not_refused() -> None:
    round_one = [task("gen-lookup-1", "Who wrote the about page?", "Ada"), task("gen-lookup-2", VASE, "Iris Vase")]
    repeat = Candidate(task("gen-lookup-1", "Who wrote the about page?", "Ada"))
    new = Candidate(task("gen-lookup-2", "How many vases are for sale?", "3"))
    out = filter_near_duplicates([repeat, new], _ByWords(), kept=round_one)
    assert [c.status for c in out] == ["similar", "candidate"]
    assert (out[0].similar_to, out[0].similarity) == ("gen-lookup-1", 1.0)
    with pytest.raises(AgentError, match="a task is no near-duplicate of itself"):  # a copy of the file: refused
        filter_near_duplicates([repeat], _ByWords(), kept=round_one)


def test_a_later_round_whose_only_unreviewed_candidates_repeat_is_marked_not_refused() -> None:
    """The reviewer accepted round 2's new task: its repeat of round 1 is the only candidate left unreviewed, and the
    file is no copy of round 1, so the repeat is marked as when other candidates are left too."""
    round_one = [task("gen-lookup-1", "Who wrote the about page?", "Ada"), task("gen-lookup-2", VASE, "Iris Vase")]
    repeat = Candidate(task("gen-lookup-1", "Who wrote the about page?", "Ada"))
    new = Candidate(task("gen-lookup-2", "How many vases are for sale?", "3")).reviewed("accepted")
    out = filter_near_duplicates([repeat, new], _ByWords(), kept=round_one)
    assert [c.status for c in out] == ["similar", "accepted"]
    assert (out[0].similar_to, out[0].similarity) == ("gen-lookup-1", 1.0)
    # a copy of round 1 stays refused however much of it was reviewed
    copy = [Candidate(round_one[0]), Candidate(round_one[1]).reviewed("accepted")]
    with pytest.raises(AgentError, match="a task is no near-duplicate of itself"):
        filter_near_duplicates(copy, _ByWords(), kept=round_one)
