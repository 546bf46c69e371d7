"""Agreement between two label sets of a project (`recordlens agreement --project P --between A B`).

A name is, in this order: an annotator's imported label set (`project.annotators`); `project`, the project's
own labels on the pages marked labelled or reviewed; or a person who labelled in the app (the app's annotator
setting), which means the project's own labels on the labelled or reviewed pages where that person accepted,
changed or made a record. `person:NAME` names that person whatever the imported sets are called: a person who
shares an imported annotator's name is said so, never silently taken for them (nor they for the person).

What a person did by adjudication (a record of another annotator taken into the project's labels with T, or
merged, or deleted in favour of theirs: the history entry names that annotator) is not their labelling: the
record taken is the other annotator's, and the decision is the project's labels, which `project` compares. So
a person who only adjudicated labelled no page of their own, and the records taken from `bea` are not the app
person bea's. Comparing `project` with a person, or two persons, is refused: both sides are the project's own
labels, which agree with themselves on every page.

Names are compared as `import --annotator` compares them (`text_forms.read_alike`: one Unicode form, single
spaces): a name that is another spelling of exactly one imported annotator's is read as that annotator, said, even
when a person of the app goes by that spelling (`Zoe` and a combining mark where `Zoë` was imported): a name means
what it meant before that person labelled, and the person is `person:NAME`, as for a person who shares an imported
annotator's name exactly. A person whose name is, or reads alike, an imported annotator's is said wherever that
annotator's set is compared (`also_persons`).

Between an imported annotator and the project's labels, each disagreement is open or settled in the app's review
(`Settled`): kept with O (the project's version), or merged with Shift+T, as the review lists it under "kept".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..command_hints import hint_words
from ..page.dataset import natural_key
from ..records.agreement import (
    DIFFERENT,
    ONLY_A,
    ONLY_B,
    Agreement,
    Disagreement,
    PageAgreement,
    agreement,
    compare_page,
)
from ..records.model import TextKeyIndex
from ..records.review import MATCH_THRESHOLD
from ..text_forms import read_alike, same_form, visible, written
from ..wording import counted
from .adjudication import KEPT, MERGED, Kept
from .db import StoreError
from .label_sets import PERSON_PREFIX, PROJECT_SET
from .project import Change, Label, Project
from .scoring import labelled_page_names

Progress = Callable[[Sequence[str]], Iterable[str]]


@dataclass(frozen=True)
class LabelSet:
    """The records of a label set, page by page, and what a reader should know of how its name was read."""

    name: str
    pages: dict[str, list[list[str]]]
    projects_own: bool = False  # the project's own labels (`project`, or a person's pages of them)
    note: str = ""
    annotator: str | None = None  # the imported annotator's set it is, by the name the project holds it under


def label_set(project: Project, name: str) -> dict[str, list[list[str]]]:
    """Page -> records of the label set `name` (see the module notes)."""
    return find_label_set(project, name).pages


def find_label_set(project: Project, name: str) -> LabelSet:
    """The label set `name` names (see the module notes), or why there is none."""
    if name.startswith(PERSON_PREFIX):
        return _person_set(project, name, name.removeprefix(PERSON_PREFIX))
    annotators = project.annotators.names()
    if name in annotators:
        return _annotator_set(project, name, _also_a_person(project, name))
    if name == PROJECT_SET:
        return LabelSet(name, {page: project.true_records(page) for page in labelled_page_names(project)},
                        projects_own=True)
    if len(alike := [n for n in annotators if read_alike(n, name)]) == 1:
        # typed in one Unicode form, imported in another (a shell cannot easily type the other), or with other
        # spaces: taken, and said (`import --annotator` refuses such a name as another spelling of a set's); before
        # a person of that spelling, who is `person:NAME` (see the module notes)
        read_as = (f"{written(name)} is read as the annotator {written(alike[0])}, the same name written "
                   f"{unlike(name, alike[0])}")
        return _annotator_set(project, alike[0], "; ".join(filter(None, [read_as, _also_a_person(project, alike[0])])))
    return _person_set(project, name, name)


def _annotator_set(project: Project, annotator: str, note: str) -> LabelSet:
    return LabelSet(annotator, project.annotators.all_records(annotator), note=note, annotator=annotator)


def person_pages(project: Project, person: str) -> dict[str, list[list[str]]]:
    """The project's labels on each labelled or reviewed page where `person` accepted, changed or made a record
    of their own (not by adjudication: see the module notes)."""
    mine: dict[str, list[list[str]]] = {}
    for page in labelled_page_names(project):
        labels = [label for label in project.labels(page) if label.is_true]
        if not any(label.origin.is_person and label.origin.name == person or
                   label.changed_by is not None and label.changed_by.is_person and label.changed_by.name == person
                   for label in labels):
            continue  # the history is read only for the pages the person's name is on
        taken, decided = _adjudicated(project.history(page))
        if any(_made_by(label, person, taken, decided) for label in labels):
            mine[page] = [list(label.xpaths) for label in labels]
    return mine


def _made_by(label: Label, person: str, taken: set[int], decided: set[int]) -> bool:
    made = label.origin.is_person and label.origin.name == person and label.id not in taken
    changed = (label.changed_by is not None and label.changed_by.is_person and label.changed_by.name == person
               and label.id not in decided)
    return made or changed


def _adjudicated(history: Sequence[Change]) -> tuple[set[int], set[int]]:
    """The records an adjudication added (their origin is the other annotator, not a person of the app), and
    those whose last change was an adjudication (who changed them decided between sets, not labelled).

    A restore (an undo, a redo, "Restore to here", the undo of one) puts records back as they were right after an
    earlier entry: they are then made as they were made then, so a redone adjudication stays one."""
    restored_to = {change.detail.get("to") for change in history if change.action == "restore"}
    made: dict[int, _Made] = {}
    after: dict[object, dict[int, _Made]] = {None: {}}  # what the records were right after the entries restored to
    for change in history:
        before = {label.id: label for label in change.before}
        touched = {label.id for label in change.after if label.id not in before or
                   _what(before[label.id]) != _what(label)}  # records only moved down by an insertion aside
        if change.action == "restore":
            then = after.get(change.detail.get("to"), {})
            made.update({record: then.get(record, _LABELLED) for record in touched})
        elif change.detail.get("adjudicated"):
            added = touched - set(before) if change.action == "add" else set()
            made.update({record: _Made(record in added or made.get(record, _LABELLED).taken, decided=True)
                         for record in touched})
        else:  # labelling: a record added now is the person's, whatever an earlier record of its id was
            made.update({record: _Made(record in before and made.get(record, _LABELLED).taken, decided=False)
                         for record in touched})
        if change.id in restored_to:
            after[change.id] = dict(made)
    return ({record for record, how in made.items() if how.taken},
            {record for record, how in made.items() if how.decided})


@dataclass(frozen=True)
class _Made:
    """How a record came to be as it is: taken from another annotator's set by an adjudication (its origin is
    theirs), and whether its last change was an adjudication's."""

    taken: bool
    decided: bool


_LABELLED = _Made(taken=False, decided=False)


def _what(label: Label) -> tuple[object, ...]:
    return label.xpaths, label.status, label.changed_by


def _person_set(project: Project, name: str, person: str) -> LabelSet:
    mine = person_pages(project, person)
    if mine:
        return LabelSet(name, mine, projects_own=True)
    if person in persons(project):
        if _only_adjudicated(project, person):
            raise StoreError(f"{person!r} adjudicated (took other annotators' records into the project's labels) but "
                             "labelled no page marked labelled or reviewed of their own: those decisions are the "
                             f"project's labels, compared as `{PROJECT_SET}` (as in `--between {PROJECT_SET} NAME`)")
        # a person of the project, whose pages are not marked labelled yet
        raise StoreError(f"{person!r} is a person of the project, with no accepted or changed record on a page "
                         "marked labelled or reviewed: only those are compared (L marks a page labelled)")
    known = known_sets(project)
    raise StoreError(f"no labels by {written(name)} in the project; {_another_form(name, known)}known: "
                     f"{', '.join(map(visible, known))}")


def _another_form(name: str, known: list[str]) -> str:
    """A set whose name is another spelling of `name` (typed `Zoë`, imported as `Zoe` and a combining mark; other
    spaces), which the list of names would show alike: said, as `import --annotator` says it (names are taken
    exactly)."""
    alike = [n for n in known if read_alike(n, name)]
    return (f"{written(alike[0])} is the same name written {unlike(name, alike[0])}: give it as the project "
            "holds it; " if alike else "")


def unlike(name: str, alike: str) -> str:
    """How two names that read alike differ, in a few words ("in another Unicode form")."""
    return "in another Unicode form" if same_form(name, alike) else "with other spaces or character forms"


def known_sets(project: Project) -> list[str]:
    """The names `agreement` takes: imported annotators, `project`, and the persons who labelled pages of their
    own in the app (`person:NAME` for one who shares an imported annotator's name, or another spelling of it)."""
    annotators = project.annotators.names()
    people = [f"{PERSON_PREFIX}{p}" if p == PROJECT_SET or any(p == a or read_alike(p, a) for a in annotators) else p
              for p in persons(project) if person_pages(project, p)]
    return list(dict.fromkeys([*annotators, PROJECT_SET, *people]))


def also_persons(project: Project, annotator: str) -> dict[str, int]:
    """The persons who labelled pages in the app (person -> how many) under the imported annotator's name, or
    another spelling of it (`read_alike`): the bare name means the annotator's set, the person is `person:NAME`."""
    found = {}
    for person in persons(project):
        if person == annotator or read_alike(person, annotator):
            pages = person_pages(project, person)
            if pages:  # only the records taken from their set carry their name: nothing to tell apart
                found[person] = len(pages)
    return found


def _also_a_person(project: Project, annotator: str) -> str:
    """What a reader of the annotator's figures is told of the persons under their name (`also_persons`)."""
    return "; ".join(_person_note(annotator, person, pages)
                     for person, pages in also_persons(project, annotator).items())


def _person_note(annotator: str, person: str, pages: int) -> str:
    labelled = f"a person who labelled in the app ({counted(pages, 'page')})"
    if person == annotator:
        return (f"{written(annotator)} is an imported annotator and also {labelled}: compared here is the imported "
                f"label set; `{PERSON_PREFIX}{annotator}` names the person's labels")
    return (f"{written(person)}, {labelled}, is the name of the imported annotator {written(annotator)} written "
            f"{unlike(person, annotator)}: compared here is the imported label set; "
            f"`{hint_words([PERSON_PREFIX + person])}` names the person's labels")


def _only_adjudicated(project: Project, person: str) -> bool:
    return any(change.actor.is_person and change.actor.name == person and change.detail.get("adjudicated")
               for page in labelled_page_names(project) for change in project.history(page))


def persons(project: Project) -> list[str]:
    """The people who labelled in the app (by their records' origins or changes), by name."""
    return sorted({who.name for who in project.provenances().values() if who.is_person})


def project_agreement(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                      progress: Progress = lambda names: names) -> Agreement:
    """A's labels against B's on every page both labelled, by the structure-aware score."""
    return agreement_and_decisions(project, a, b, threshold, progress)[0]


def agreement_and_decisions(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                            progress: Progress = lambda names: names) -> tuple[Agreement, Settled]:
    """`project_agreement`, and which of its disagreements are settled in the app's review (`Settled`)."""
    if a == b:
        raise StoreError("agreement needs two different label sets")
    _check_threshold(threshold)
    first, second = find_label_set(project, a), find_label_set(project, b)
    if first.projects_own and second.projects_own:
        raise StoreError(f"{written(a)} and {written(b)} both name the project's own labels (a person's are the "
                         "project's labels on the pages they worked on), which agree with themselves on every page: "
                         "compare one of them with an imported annotator (`recordlens annotators --project P` lists "
                         "them)")
    if first.annotator is not None and first.annotator == second.annotator:  # one set, in two spellings
        raise StoreError(f"{written(a)} and {written(b)} both name the annotator {written(first.annotator)}: "
                         "agreement needs two different label sets")
    result = _agreements(project, {a: first, b: second}, [(a, b)], threshold, progress)[0]
    return result, settled(project, first, second, result)


@dataclass(frozen=True)
class Settled:
    """Which disagreements of an imported annotator with the project's labels are settled in the app's review, as
    it lists them under "kept": `KEPT` (O: the project's version kept) or `MERGED` (Shift+T: merged into the
    project's record), per page in the order of `PageAgreement.disagreements`; None for an open one. Other pairs
    (two annotators) have no decisions: every disagreement is open."""

    pages: dict[str, tuple[str | None, ...]]

    def of(self, page: PageAgreement) -> tuple[str | None, ...]:
        return self.pages.get(page.page) or (None,) * len(page.disagreements)

    def open(self, page: PageAgreement) -> int:
        return sum(1 for how in self.of(page) if how is None)


NONE_SETTLED = Settled({})  # every disagreement open


def settled(project: Project, first: LabelSet, second: LabelSet, result: Agreement) -> Settled:
    """How each disagreement of `result` (A's `first` against B's `second`) was settled (`Settled`)."""
    if first.annotator is not None and second.projects_own:
        annotator, theirs = first.annotator, "A"
    elif second.annotator is not None and first.projects_own:
        annotator, theirs = second.annotator, "B"
    else:
        return NONE_SETTLED
    found = {}
    for page in result.pages:
        if not page.disagreements:
            continue
        kept = {decision: decision for decision in project.adjudication.kept(page.page, annotator)}
        found[page.page] = tuple(_settled_as(kept.get(_decision(d, annotator, theirs))) for d in page.disagreements)
    return Settled(found)


def _decision(d: Disagreement, annotator: str, theirs: str) -> Kept:
    """The decision that keeps the project's version of a disagreement, as the app names it (`disagreement`: their
    record and the project's, None for the side without one), whichever side of the agreement is theirs."""
    a = tuple(d.a) if d.kind in (ONLY_A, DIFFERENT) else None
    b = tuple(d.b) if d.kind in (ONLY_B, DIFFERENT) else None
    return Kept(annotator, a, b) if theirs == "A" else Kept(annotator, b, a)


def _settled_as(decision: Kept | None) -> str | None:
    if decision is None:
        return None
    return MERGED if decision.merged else KEPT


def every_pair_agreement(project: Project, names: Sequence[str], threshold: float = MATCH_THRESHOLD,
                         progress: Progress = lambda names: names) -> list[Agreement]:
    """`project_agreement` of every pair of these label sets (but two that are both the project's own), each page
    parsed once for all the pairs that labelled it."""
    _check_threshold(threshold)
    sets = {name: find_label_set(project, name) for name in names}
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
             if not (sets[a].projects_own and sets[b].projects_own)]
    return _agreements(project, sets, pairs, threshold, progress)


def app_numbers(project: Project, page: str) -> tuple[int, ...]:
    """The number each of the page's true records (the project's own label set there, in its order) goes by in
    the app: its place among all the page's records in the Records tab, which lists the rejected and proposed ones
    too; so that the agreement's "B5" is the app's record 5."""
    return tuple(k + 1 for k, label in enumerate(project.labels(page)) if label.is_true)


def _check_threshold(threshold: float) -> None:
    """Before any label set is looked for: a threshold out of range is said whatever the names."""
    if not 0 < threshold <= 1:  # an overlap is a share: above 1 no two records could ever be the same one
        raise StoreError(f"the threshold is an overlap, above 0 and at most 1 (got {threshold:g})")


def _agreements(project: Project, sets: dict[str, LabelSet], pairs: Sequence[tuple[str, str]], threshold: float,
                progress: Progress) -> list[Agreement]:
    compared: dict[tuple[str, str], list[PageAgreement]] = {pair: [] for pair in pairs}
    wanted = {page for a, b in pairs for page in sets[a].pages.keys() & sets[b].pages.keys()}
    for page in progress(sorted(wanted, key=natural_key)):
        parsed = project.load(page).page
        keys = TextKeyIndex(parsed.text_map)
        numbers = app_numbers(project, page) if any(s.projects_own for s in sets.values()) else ()
        for a, b in pairs:
            first, second = sets[a].pages.get(page), sets[b].pages.get(page)
            if first is None or second is None:
                continue
            dead = {x for records in (first, second) for record in records for x in record
                    if parsed.resolve(x) is None}  # marked in the list, as the app marks them
            compared[(a, b)].append(compare_page(first, second, keys, page, threshold, dead,
                                                 numbers if sets[a].projects_own else (),
                                                 numbers if sets[b].projects_own else ()))
        del parsed  # not held while the next page is parsed
    return [agreement(a, b, compared[(a, b)],
                      sorted(sets[a].pages.keys() - sets[b].pages.keys(), key=natural_key),
                      sorted(sets[b].pages.keys() - sets[a].pages.keys(), key=natural_key),
                      notes=[note for note in (sets[a].note, sets[b].note) if note], threshold=threshold)
            for a, b in pairs]
