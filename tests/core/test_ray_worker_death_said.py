"""A Ray worker's death is said in one line cut after a whole word (Ray's own words for a node that died run to
some 400 characters, and were cut mid-word, inside a quoted command). Needs no Ray: the words only."""

from __future__ import annotations

from recordlens.core.runs.ray_engine import DEATH_WORDS, worker_death

# Ray's words for a task whose node died (NodeDiedError), as a verifier's run printed them
RAYS_WORDS = ("Task failed because the node it was running on is dead or unavailable. Node IP: 192.0.2.2, node ID: "
              "ed989b92848b8d95edac65b0d62308ab7921790c35549ebe73da7562. This can happen if the node was preempted, "
              "had a hardware failure, or its raylet crashed unexpectedly. To see node death information, use `ray "
              "list nodes --filter \"node_id=ed989b92848b8d95edac65b0d62308ab7921790c35549ebe73da7562\" --detail`, "
              "or check the logs.\nTraceback (most recent call last): ...")


class NodeDiedError(Exception):
    """Named as Ray's, which the line names."""


def test_a_long_death_is_cut_after_a_whole_word_with_an_ellipsis() -> None:
    said = str(worker_death(NodeDiedError(RAYS_WORDS)))
    assert said.startswith("its Ray worker died (NodeDiedError: Task failed because the node it was running on")
    assert said.endswith("…)"), said
    words = said.removeprefix("its Ray worker died (NodeDiedError: ").removesuffix("…)")
    assert len(words) < DEATH_WORDS
    assert RAYS_WORDS.startswith(words) and RAYS_WORDS[len(words)] == " "  # cut where a word ends
    assert "\n" not in said and "Traceback" not in said


def test_a_short_death_is_said_whole_and_one_without_words_by_its_kind() -> None:
    assert str(worker_death(NodeDiedError("The worker died.\nmore"))) == \
        "its Ray worker died (NodeDiedError: The worker died.)"
    assert str(worker_death(NodeDiedError())) == "its Ray worker died (NodeDiedError)"
