"""Dropping near-duplicate candidate tasks by sentence-embedding similarity, offline.

The default model is WordLlama's 256-dimension `l2_supercat`, whose weights and tokenizer ship inside the
`wordllama` wheel: it is loaded with the package's own folder as `cache_dir` and downloads disabled (its plain
`load()` looks in another folder first and then goes to the network), so nothing is ever downloaded. A larger
model can be used instead when one is on disk: a sentence-transformers model folder (`--embedder PATH`), which
needs the `sentence-transformers` package and is loaded with the hub offline.

The filter is deterministic: the tasks it compares against (`kept`: the seeds, by default) come first; then each
candidate in file order is compared by cosine similarity with every task kept so far (the seeds and the
candidates kept before it), and dropped as `similar` when its highest similarity reaches the threshold (0.8 by
default, WebArxiv's "kept below 0.8"), naming the kept task it was closest to and the similarity, and recording
that the mark is the filter's, at that threshold, with that embedder (`Candidate.filter`). The filter's own earlier
marks are not verdicts: they are recomputed on each run, so that another threshold tried on the same file lifts or
adds marks. Candidates a reviewer already judged keep their verdict and are not compared (an accepted one counts as
kept). Two tasks whose answers are of different specific kinds (a name against a date or a number: "Who founded
it?" against "In which year was it founded?") ask different things however alike their words, and are not
compared; "text" is no specific kind, and a number and a date may answer the same question (a year). But from
`SAME_WORDING` up, two tasks with the same gold answer are compared whatever kinds they were labelled with: the
same question with the same answer is a duplicate, and a model labels one "title" and the next "name". Nor are two
tasks whose gold answers differ once both went through every normalisation rule (`answers_differ`): a task has one
exact answer, so two questions with different answers are two questions, however alike their words ("How many
litres does the Alder Kettle hold?", 1.7, against "What is the price of the Alder Kettle?", $24.50, cosine 0.83);
all five rules, whatever each task's own, so that only answers no rule makes equal keep two tasks apart. But not
from `SAME_WORDING` up: there the question is asked again, and two answers to it mean that one of them is probably
wrong ("Who founded Alder?", Ada, against "Which person founded Alder?", Ada Smith): the later is marked `similar`,
its reason naming both answers, for the review to settle.

A candidate that is itself among the tasks compared with (the same site, id and instruction) is no near-duplicate of
itself: when every candidate of the file is, reviewed or not (the seeds given as a copy of the candidates file), the
filter is refused. When only some are, they are a later generation's repeats of a task compared with (in files
made before ids carried their round, ids restarted at `gen-<category>-1` in each generation, so round 2's
gen-lookup-1 asking round 1's gen-lookup-1 again had its id too; a repeat of a round of today has an id of its own
and is found by its words): each one not reviewed yet is marked `similar` to that task at similarity 1, even
when it is all the review left (the reviewer accepted the rest), and that task is not compared with itself.

An embedder can say which scripts it reads (`scripts`, the first words of its letters' Unicode names; None: any).
WordLlama's `l2_supercat` was distilled on English sentence pairs and reads the Latin script only: two different
questions in another script share its few tokens for that script and come out alike (Arabic "what does the
smartphone cost?" against "who wrote this book?" 0.91; the same pair in Hindi 0.84, Korean 0.83, Hebrew and Thai
0.78; distinct Greek questions up to 0.85), where the same English pair scores 0.03 and distinct English questions
at most 0.13. So a pair in which a text is written mostly outside the embedder's scripts (fewer than half its
letters in them) is judged by its wording instead, in any script alike: the cosine of the two texts' character
3-gram counts, case, punctuation and spacing aside (`wording_similarity`). On that measure distinct questions in
Arabic, Japanese, Russian, Greek or Chinese score at most 0.49 and a near-verbatim repeat (a word added, punctuation
changed) 0.86-1, but a rewording in other words scores like a question about another item ("the camera's price"
against "the camera's cost" or "the lens's price", 0.69 both): at the same threshold only repeats are marked, and
only the same words (similarity 1) ask the same question whatever the answers, since a wording that differs may
differ in just the item asked about. The mark says it was made so (`FilterMark.embedder` "character 3-grams", and
its reason), and `wording_note` says it once for the command: a model that reads those scripts (`--embedder`, a
multilingual sentence-transformers model) is the way to compare their meaning. Latin text, English or not, is the
embedder's as before (other languages less well: distinct Vietnamese questions up to 0.76).
"""

from __future__ import annotations

import os
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from ..command_hints import hint_path
from ..errors import AgentError
from ..unicode_scripts import script
from ..wording import counted, listed
from .answers import NORMALISE_RULES, normalise_answer
from .candidates import Candidate, FilterMark
from .model import Task

DEFAULT_THRESHOLD = 0.8
# From this similarity two tasks ask the same question whatever their gold answers (module notes); paraphrases score
# 0.85-0.97, questions about another property of the same item 0.8-0.85.
SAME_WORDING = 0.9
WORDLLAMA_CONFIG = "l2_supercat"
WORDLLAMA_DIM = 256
# What judges a pair the embedder does not read (module notes), as a mark and its reason name it.
BY_WORDING = "character 3-grams"
_GRAM = 3


class Embedder(Protocol):
    """An embedder; one may also say which scripts it reads (`scripts`, module notes): one that does not reads any."""

    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text."""


class WordLlamaEmbedder:
    """WordLlama from the weights inside its wheel (module notes)."""

    # Distilled on English sentence pairs: other scripts' texts come out alike whatever they say (module notes)
    scripts: frozenset[str] = frozenset({"LATIN"})

    def __init__(self) -> None:
        try:
            import wordllama
            from wordllama import WordLlama
        except ImportError:
            raise AgentError("the near-duplicate filter needs the `wordllama` package (pip install wordllama)") \
                from None
        folder = Path(wordllama.__file__).resolve().parent
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # belt and braces: no hub call even if a file were missing
        try:
            self._model = WordLlama.load(config=WORDLLAMA_CONFIG, dim=WORDLLAMA_DIM, cache_dir=folder,
                                         disable_download=True)
        except Exception as error:  # noqa: BLE001 - any failure of a third-party loader gets one clear message
            raise AgentError(f"cannot load WordLlama's {WORDLLAMA_CONFIG} model from {hint_path(folder)}: {error}") \
                from None
        self.name = f"wordllama {WORDLLAMA_CONFIG} {WORDLLAMA_DIM}d"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in self._model.embed(list(texts), norm=True)]


class SentenceTransformerEmbedder:
    """A sentence-transformers model folder on disk (never fetched: the hub is set offline); the user chose it, so
    it is taken to read every script (`scripts` None): a multilingual model is how other languages are compared."""

    scripts: frozenset[str] | None = None

    def __init__(self, folder: str | Path) -> None:
        path = Path(folder)
        if not path.is_dir():
            raise AgentError(f"no sentence-transformers model folder at {hint_path(path)}")
        os.environ["HF_HUB_OFFLINE"] = "1"
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError:
            raise AgentError("a model folder needs the `sentence-transformers` package") from None
        self._model = SentenceTransformer(str(path), local_files_only=True)
        self.name = f"sentence-transformers {path.name}"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in self._model.encode(list(texts), normalize_embeddings=True)]


def make_embedder(spec: str | None = None) -> Embedder:
    """None or "wordllama": the shipped model; anything else: a sentence-transformers folder."""
    if spec in (None, "", "wordllama"):
        return WordLlamaEmbedder()
    return SentenceTransformerEmbedder(spec)


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na = sum(x * x for x in a) ** 0.5
    nb = sum(y * y for y in b) ** 0.5
    return dot / (na * nb) if na and nb else 0.0


def similarity(embedder: Embedder, first: str, second: str) -> float:
    a, b = embedder.embed([first, second])
    return _cosine(a, b)


def filter_near_duplicates(candidates: Sequence[Candidate], embedder: Embedder, *,
                           kept: Sequence[Task] = (), threshold: float = DEFAULT_THRESHOLD) -> list[Candidate]:
    """The candidates, each one no reviewer judged (not reviewed yet, or marked by an earlier run of the filter)
    either left a candidate or marked `similar` by this run (module notes)."""
    if not 0 < threshold <= 1:
        raise AgentError(f"the similarity threshold must be in (0, 1], not {threshold}")
    candidates = [c.unmarked() for c in candidates]  # the filter's own earlier marks are made again, not kept
    repeats = _refuse_tasks_compared_with_themselves(candidates, kept)
    name = str(getattr(embedder, "name", "") or "")
    mark = FilterMark(threshold=threshold, embedder=name)
    judged = [c for c in candidates if c.status == "candidate"]
    pooled = [*kept, *(c.task for c in candidates if c.status == "accepted")]
    pool_texts = [t.instruction for t in pooled]
    vectors = embedder.embed(pool_texts + [c.task.instruction for c in judged]) if (pool_texts or judged) else []
    scripts = _scripts_read(embedder)
    pool = [_compared(t, v, scripts) for t, v in zip(pooled, vectors[:len(pool_texts)], strict=True)]
    mine = {c.id: _compared(c.task, v, scripts) for c, v in zip(judged, vectors[len(pool_texts):], strict=True)}
    out: list[Candidate] = []
    for candidate in candidates:
        if candidate.status != "candidate":
            out.append(candidate)
            continue
        if candidate.id in repeats:  # a later round asking a task compared with again, under the same id
            task = repeats[candidate.id]
            out.append(replace(candidate, status="similar", similar_to=task.id, similarity=1.0,
                               reason=_similar_reason(candidate.task, task, 1.0, threshold), filter=mark))
            continue
        this = mine[candidate.id]
        closest, best, by_wording = None, -1.0, False
        for other in pool:
            score, same_question_from, worded = _measured(this, other)
            if score > best and not _asks_otherwise(candidate.task, other.task, score, same_question_from):
                # strictly greater: the earlier of two equally close is named
                closest, best, by_wording = other.task, score, worded
        if closest is not None and best >= threshold:
            made = replace(mark, embedder=BY_WORDING) if by_wording else mark
            why = _similar_reason(candidate.task, closest, best, threshold, _by_wording_said(name, scripts)
                                  if by_wording else "")
            out.append(replace(candidate, status="similar", similar_to=closest.id, similarity=round(best, 4),
                               reason=why, filter=made))
        else:
            pool.append(this)
            out.append(candidate)
    return out


@dataclass(frozen=True)
class _Compared:
    """A task as the filter compares it: its embedding, and its wording for a pair the embedder does not read."""

    task: Task
    vector: Sequence[float]
    wording: str
    grams: Counter[str]
    read: bool  # written mostly in scripts the embedder reads


def _compared(task: Task, vector: Sequence[float], scripts: frozenset[str] | None) -> _Compared:
    wording = _wording(task.instruction)
    return _Compared(task, vector, wording, _grams(wording), _reads(scripts, task.instruction))


def _measured(this: _Compared, other: _Compared) -> tuple[float, float, bool]:
    """A pair's similarity, the similarity from which it is the same question whatever the answers, and whether it
    was judged by its wording: by the embedder when it reads both texts, else by their character 3-grams, from
    which only the same words are the same question (module notes)."""
    if this.read and other.read:
        return _cosine(this.vector, other.vector), SAME_WORDING, False
    if this.wording == other.wording:
        return 1.0, 1.0, True
    return _counts_cosine(this.grams, other.grams), 1.0, True


def _scripts_read(embedder: Embedder) -> frozenset[str] | None:
    return getattr(embedder, "scripts", None)


def _reads(scripts: frozenset[str] | None, text: str) -> bool:
    """Whether an embedder reading `scripts` (None: any) reads a text: at least half its letters are in them (a
    text with no letters has nothing it could misread)."""
    if scripts is None:
        return True
    letters = [c for c in unicodedata.normalize("NFKC", text) if c.isalpha()]
    inside = sum(script(c) in scripts for c in letters)
    return 2 * inside >= len(letters)


def wording_similarity(first: str, second: str) -> float:
    """How much wording two texts share, in any script: 1 for the same words (case, punctuation and spacing aside),
    else the cosine of their character 3-gram counts (module notes)."""
    a, b = _wording(first), _wording(second)
    return 1.0 if a == b else _counts_cosine(_grams(a), _grams(b))


def _wording(text: str) -> str:
    """A text's words: NFKC, case-folded, punctuation and separators made single spaces."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join("".join(" " if unicodedata.category(c)[0] in "PZ" else c for c in folded).split())


def _grams(wording: str) -> Counter[str]:
    padded = f" {wording} "  # a word's first and last letters make grams of their own, as in any word-bound text
    return Counter(padded[i:i + _GRAM] for i in range(len(padded) - _GRAM + 1))


def _counts_cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(count * b[gram] for gram, count in a.items() if gram in b)
    na = sum(v * v for v in a.values()) ** 0.5
    nb = sum(v * v for v in b.values()) ** 0.5
    return dot / (na * nb) if na and nb else 0.0


def _by_wording_said(name: str, scripts: frozenset[str] | None) -> str:
    return (f"compared by {BY_WORDING} (their wording), a text being written mostly outside the "
            f"{_scripts_said(scripts)} script {name or 'the embedder'} reads")


def _scripts_said(scripts: frozenset[str] | None) -> str:
    return " and ".join(sorted(s.title() for s in scripts or ()))


def wording_note(embedder: Embedder, tasks: Iterable[Task]) -> str:
    """What the command says once when some tasks were compared by their wording (module notes); "" when none."""
    scripts = _scripts_read(embedder)
    outside = sum(not _reads(scripts, t.instruction) for t in tasks)
    if not outside:
        return ""
    name = str(getattr(embedder, "name", "") or "the embedder")
    return (f"{counted(outside, 'task')} written mostly outside the {_scripts_said(scripts)} script {name} reads "
            f"{'was' if outside == 1 else 'were'} compared by their {BY_WORDING}, that is by their wording, not "
            "their meaning: a near-verbatim repeat is marked, a rewording in other words is not; to compare their "
            "meaning, give --embedder a multilingual sentence-transformers model folder")


def _refuse_tasks_compared_with_themselves(candidates: Sequence[Candidate], kept: Sequence[Task]) -> dict[str, Task]:
    """The candidates judged that are among the tasks they are compared with (the same site, id and instruction), by
    id, with that task: a later generation's repeats, marked similar to it (module notes). Refused when every
    candidate of the file is one, reviewed or not (the seeds given as a copy of the candidates file): each would be
    found a near-duplicate of itself at similarity 1 and the whole file marked. Only the file decides: a later round
    whose reviewer accepted its new tasks leaves repeats alone unreviewed, and they are marked."""
    kept_tasks = {(t.site, t.id, t.instruction): t for t in kept}
    themselves = {c.id: kept_tasks[key] for c in candidates
                  if (key := (c.task.site, c.id, c.task.instruction)) in kept_tasks}
    if themselves and len(themselves) == len(candidates):
        are = "is" if len(themselves) == 1 else "are"
        raise AgentError(f"{counted(len(themselves), 'candidate')} ({listed(list(themselves))}) {are} also among the "
                         "tasks compared with (the same site, id and instruction): a task is no near-duplicate of "
                         "itself. Compare the candidates with seeds that are not the candidates themselves, or with "
                         "none, to compare them with one another")
    return {c.id: themselves[c.id] for c in candidates if c.status == "candidate" and c.id in themselves}


# Kinds that can answer the same question: a year is a number or a date, as a task's author chose.
_KIND_GROUPS = {"number": "quantity", "date": "quantity", "name": "name", "title": "title"}


def _asks_otherwise(task: Task, other: Task, similar: float, same_question_from: float = SAME_WORDING) -> bool:
    """Whether two tasks, their words `similar` so, ask different things (module notes)."""
    if similar < same_question_from:
        return _kinds_differ(task.answer_kind, other.answer_kind) or answers_differ(task.answer, other.answer)
    # the same question: its kind label alone ("title" or "name") does not make it another when the answer is the same
    return _kinds_differ(task.answer_kind, other.answer_kind) and answers_differ(task.answer, other.answer)


def _similar_reason(task: Task, other: Task, similar: float, threshold: float, how: str = "") -> str:
    said = f"similarity {similar:.3f} to {other.id} (threshold {threshold:g})" + (f"; {how}" if how else "")
    if answers_differ(task.answer, other.answer):  # asked again, answered otherwise: one answer is probably wrong
        said += f"; the same question with another answer ({task.answer!r} against {other.answer!r}): check both"
    return said


def answers_differ(answer: str, other: str) -> bool:
    """Whether two gold answers stay different after every normalisation rule (`3.50` and `$3.5` differ, `Ada
    Smith` and `ada smith.` do not)."""
    return _as_compared(answer) != _as_compared(other)


@lru_cache(maxsize=4096)  # each task's answer is compared with every task kept: normalised once
def _as_compared(answer: str) -> str:
    return normalise_answer(answer, NORMALISE_RULES)


def _kinds_differ(a: str, b: str) -> bool:
    """Whether two answer kinds are both specific and of different groups (module notes)."""
    group_a, group_b = _KIND_GROUPS.get(a), _KIND_GROUPS.get(b)
    return group_a is not None and group_b is not None and group_a != group_b
