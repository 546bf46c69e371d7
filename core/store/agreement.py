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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..page.dataset import natural_key
from ..records.agreement import Agreement, PageAgreement, agreement, compare_page
from ..records.model import TextKeyIndex
from ..records.review import MATCH_THRESHOLD
from ..text_forms import read_alike, same_form, visible, written
from ..wording import counted
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


def label_set(project: Project, name: str) -> dict[str, list[list[str]]]:
    """Page -> records of the label set `name` (see the module notes)."""
    return find_label_set(project, name).pages


def find_label_set(project: Project, name: str) -> LabelSet:
    """The label set `name` names (see the module notes), or why there is none."""
    if name.startswith(PERSON_PREFIX):
        return _person_set(project, name, name.removeprefix(PERSON_PREFIX))
    if name in project.annotators.names():
        return LabelSet(name, project.annotators.all_records(name), note=_also_a_person(project, name))
    if name == PROJECT_SET:
        return LabelSet(name, {page: project.true_records(page) for page in labelled_page_names(project)},
                        projects_own=True)
    return _person_set(project, name, name)


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
    if name == person and len(alike := [n for n in project.annotators.names() if read_alike(n, name)]) == 1:
        # typed in one Unicode form, imported in another (a shell cannot easily type the other), or with other
        # spaces: taken, and said (`import --annotator` refuses such a name as another spelling of a set's)
        return LabelSet(alike[0], project.annotators.all_records(alike[0]),
                        note=f"{written(name)} is read as the annotator {written(alike[0])}, the same name "
                             f"written {_otherwise(name, alike[0])}")
    known = known_sets(project)
    raise StoreError(f"no labels by {written(name)} in the project; {_another_form(name, known)}known: "
                     f"{', '.join(map(visible, known))}")


def _another_form(name: str, known: list[str]) -> str:
    """A set whose name is another spelling of `name` (typed `Zoë`, imported as `Zoe` and a combining mark; other
    spaces), which the list of names would show alike: said, as `import --annotator` says it (names are taken
    exactly)."""
    alike = [n for n in known if read_alike(n, name)]
    return (f"{written(alike[0])} is the same name written {_otherwise(name, alike[0])}: give it as the project "
            "holds it; " if alike else "")


def _otherwise(name: str, alike: str) -> str:
    """How two names that read alike differ, in a few words."""
    return "in another Unicode form" if same_form(name, alike) else "with other spaces or character forms"


def known_sets(project: Project) -> list[str]:
    """The names `agreement` takes: imported annotators, `project`, and the persons who labelled pages of their
    own in the app (`person:NAME` for one who shares an imported annotator's name)."""
    annotators = project.annotators.names()
    people = [f"{PERSON_PREFIX}{p}" if p in annotators or p == PROJECT_SET else p
              for p in persons(project) if person_pages(project, p)]
    return list(dict.fromkeys([*annotators, PROJECT_SET, *people]))


def _also_a_person(project: Project, name: str) -> str:
    if name not in persons(project):
        return ""
    theirs = person_pages(project, name)
    if not theirs:  # only the records taken from their set carry their name: nothing to tell apart
        return ""
    return (f"{name!r} is an imported annotator and also a person who labelled in the app "
            f"({counted(len(theirs), 'page')}): compared here is the imported label set; "
            f"`{PERSON_PREFIX}{name}` names the person's labels")


def _only_adjudicated(project: Project, person: str) -> bool:
    return any(change.actor.is_person and change.actor.name == person and change.detail.get("adjudicated")
               for page in labelled_page_names(project) for change in project.history(page))


def persons(project: Project) -> list[str]:
    """The people who labelled in the app (by their records' origins or changes), by name."""
    return sorted({who.name for who in project.provenances().values() if who.is_person})


def project_agreement(project: Project, a: str, b: str, threshold: float = MATCH_THRESHOLD,
                      progress: Progress = lambda names: names) -> Agreement:
    """A's labels against B's on every page both labelled, by the structure-aware score."""
    if a == b:
        raise StoreError("agreement needs two different label sets")
    _check_threshold(threshold)
    first, second = find_label_set(project, a), find_label_set(project, b)
    if first.projects_own and second.projects_own:
        raise StoreError(f"{a!r} and {b!r} both name the project's own labels (a person's are the project's labels "
                         "on the pages they worked on), which agree with themselves on every page: compare one of "
                         f"them with an imported annotator (`recordlens annotators --project P` lists them)")
    return _agreements(project, {a: first, b: second}, [(a, b)], threshold, progress)[0]


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
